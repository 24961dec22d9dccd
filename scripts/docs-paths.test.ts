// Every repository path the docs name exists, and every link between them resolves (the rule is at the top
// of scripts/docs-paths.ts). A doc that names a moved or deleted file fails here, not in a newcomer's hands.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codeFiles, codePointerProblems, docFiles, docProblems, headingAnchors, pathExists, repoFromDisk, repoFromFiles } from "./docs-paths";

const repo = repoFromDisk(path.join(import.meta.dirname, ".."));

describe("the docs of this repository", () => {
  const docs = docFiles(repo);

  it("include README.md and the topic pages under docs/", () => {
    expect(docs).toContain("README.md");
    expect(docs).toContain("docs/rarity.md");
  });

  for (const doc of docs) {
    it(`${doc} names only paths that exist and links only what resolves`, () => {
      expect(docProblems(repo, doc)).toEqual([]);
    });
  }
});

describe("the pointers in code comments", () => {
  it("every docs/<page>.md#<anchor> in code and settings files resolves; none points at a README section, an issue number or a document outside the repository", () => {
    const files = codeFiles(repo);
    expect(files).toContain("worker/app.ts");
    expect(files).toContain("wrangler.toml");
    expect(files.flatMap((file) => codePointerProblems(repo, file))).toEqual([]);
  });

  it("reports a missing page, a missing heading and a README section, each with its line", () => {
    const view = repoFromFiles({
      "docs/api.md": "# API\n\n## Edge cache\n",
      "worker/a.ts": '// fine: docs/api.md#edge-cache and docs/api.md\n// docs/apis.md\n// docs/api.md#edge\n// (README "Browse API")\n',
    });
    expect(codePointerProblems(view, "worker/a.ts")).toEqual([
      "worker/a.ts:2: docs/apis.md does not exist",
      "worker/a.ts:3: docs/api.md has no heading #edge",
      'worker/a.ts:4: a README "section" pointer: point at docs/<page>.md#<anchor>',
    ]);
  });

  it("reports an issue number and a pointer to the design notes or the specification outside the repository", () => {
    const fine = [
      "// One error shape for every failure (docs/api.md#conventions).",
      "// The specification names this screen Recent Transactions; see the issues list for more.",
      'it("two addresses get a plain reason", () => {});',
    ];
    const refused = [
      "// The public sale page (issue 22 §3).",
      'it("a node lying about a transaction is not trusted (Issue #26)", () => {});',
      "/* Bounds per client network (DESIGN §6). */",
      "// See DESIGN.md for the rules.",
      "// As STYLE.md asks.",
      "// The listing form's auto-detect (transactions-profile-admin.md §5).",
      "// The card (public-side §2).",
      "// The spec's rates (§9).",
      "// The specification, ../shared/spec/public-side.md.",
    ];
    const view = repoFromFiles({ "docs/api.md": "# API\n\n## Conventions\n", "worker/a.ts": [...fine, ...refused].join("\n") });
    const problems = codePointerProblems(view, "worker/a.ts");
    expect(problems.map((p) => Number(p.split(":")[1]))).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(problems[0]).toBe("worker/a.ts:4: an issue number: say the reason, or point at docs/<page>.md#<anchor>");
    expect(problems[2]).toBe("worker/a.ts:6: a pointer to the design notes outside the repository: say the reason, or point at docs/<page>.md#<anchor>");
    expect(problems[5]).toBe("worker/a.ts:9: a pointer to the specification outside the repository: say the reason, or point at docs/<page>.md#<anchor>");
  });
});

describe("the checker", () => {
  const fixture = repoFromFiles({
    "README.md": "# Title\n\n## Layout\n\n## The two commands\n",
    "docs/api.md": "# API\n\n## Routes\n\n## Routes\n\n### `GET /api/config`, and more!\n",
    "worker/app.ts": "",
    "worker/routes/auth.ts": "",
    "web/src/routes/address.$id.tsx": "",
    "web/src/lib/display.test.ts": "",
    "web/src/components/DataTable.test.tsx": "",
    "scripts/test/anvil-global-setup.ts": "",
    "package.json": "{}",
    "vitest.config.ts": "",
  });
  const check = (markdown: string) => {
    const files = repoFromFiles({ "docs/page.md": markdown });
    const view = { ...fixture, entries: new Set([...fixture.entries, ...files.entries]), read: (f: string) => files.read(f) ?? fixture.read(f) };
    return docProblems(view, "docs/page.md");
  };

  it("accepts paths that exist, in code spans and code blocks", () => {
    expect(check("The app is `worker/app.ts`; routes in `worker/routes/` (`web/src/routes/address.$id.tsx`).\n")).toEqual([]);
    expect(check("```sh\nnode --import tsx worker/app.ts --port 1\ncat ./package.json\n```\n")).toEqual([]);
    expect(check("See `worker/app.ts:12` and `vitest.config.ts`.\n")).toEqual([]);
  });

  it("reports a path that does not exist, with its line", () => {
    expect(check("Intro.\n\nThe app is `worker/apps.ts`.\n")).toEqual(["docs/page.md:3: `worker/apps.ts` does not exist"]);
    expect(check("```\nworker/routes/listings-browse.ts   the browse API\n```\n")).toEqual([
      "docs/page.md:2: `worker/routes/listings-browse.ts` does not exist",
    ]);
    expect(check("A command: `node scripts/missing.ts --flag`.\n")).toEqual(["docs/page.md:1: `scripts/missing.ts` does not exist"]);
    expect(check("Config in `vitest.mutaton.config.ts`.\n")).toEqual(["docs/page.md:1: `vitest.mutaton.config.ts` does not exist"]);
  });

  it("asks a path ending in / for a folder", () => {
    expect(check("`worker/routes/`\n")).toEqual([]);
    expect(check("`worker/app.ts/`\n")).toEqual(["docs/page.md:1: `worker/app.ts/` does not exist"]);
  });

  it("reads *, **, {a,b} and <placeholder> as patterns that must match something", () => {
    expect(check("`worker/routes/*.ts`, `web/src/**/*.test.{ts,tsx}`, `scripts/test/*-global-setup.ts`, `worker/<name>.ts`\n")).toEqual([]);
    expect(check("`worker/routes/*.tsx`\n")).toEqual(["docs/page.md:1: `worker/routes/*.tsx` does not exist"]);
    expect(check("`web/src/**/*.test.{js,jsx}`\n")).toEqual(["docs/page.md:1: `web/src/**/*.test.{js,jsx}` does not exist"]);
  });

  it("leaves prose, URLs, API paths and other words alone", () => {
    expect(
      check("The routes/ folder and worker/nothing.ts in prose; `/api/addresses/{id}`, `http://localhost:8787/web/x`, `keystore.ts`, `npm start`.\n"),
    ).toEqual([]);
  });

  it("resolves links relative to the doc, with heading anchors", () => {
    expect(
      check(
        "[api](api.md), [routes](api.md#routes), [again](api.md#routes-1), [config](api.md#get-apiconfig-and-more), [readme](../README.md#the-two-commands), [app](../worker/app.ts), [web](https://example.com/x.md)\n",
      ),
    ).toEqual([]);
    expect(check("# Here\n\n[self](#here)\n")).toEqual([]);
  });

  it("reports a link that does not resolve, or names a heading that is not there", () => {
    expect(check("[api](docs/api.md)\n")).toEqual(["docs/page.md:1: link docs/api.md does not resolve (docs/docs/api.md does not exist)"]);
    expect(check("\n[x](api.md#nowhere)\n")).toEqual(["docs/page.md:2: link api.md#nowhere: docs/api.md has no heading #nowhere"]);
    expect(check("[up](../../outside.md)\n")).toEqual(["docs/page.md:1: link ../../outside.md leaves the repository"]);
    expect(check("[ref]: ./missing.md\n")).toEqual(["docs/page.md:1: link ./missing.md does not resolve (docs/missing.md does not exist)"]);
  });

  it("does not read links inside code", () => {
    expect(check("`[x](missing.md)`\n\n```md\n[y](missing.md)\n```\n")).toEqual([]);
  });

  it("reports a link to a page that does not exist", () => {
    expect(check("[payments](payments.md)\n")).toEqual(["docs/page.md:1: link payments.md does not resolve (docs/payments.md does not exist)"]);
  });

  it("makes GitHub's heading anchors", () => {
    expect([...headingAnchors("# A `code` Title!\n## Same\n## Same\n```\n# not a heading\n```\n### [Linked](x.md) — dash")]).toEqual([
      "a-code-title",
      "same",
      "same-1",
      "linked--dash",
    ]);
  });

  it("finds paths in a repository read from disk", () => {
    expect(pathExists(repo, "scripts/docs-paths.ts")).toBe(true);
    expect(pathExists(repo, "scripts/")).toBe(true);
    expect(pathExists(repo, "node_modules/")).toBe(false);
  });
});
