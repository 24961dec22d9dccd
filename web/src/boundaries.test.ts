// The web bundle shares rules with the Worker only through schema/ (the contract): importing worker/ from
// the browser would pull server modules into the SPA and couple the two deployments. The one exception is a
// type: the API client (api/http.ts) types its calls with the Worker's app type, an `import type` that the
// build erases, so no Worker code reaches the bundle.
// The other way, the Worker renders a few of the web's components into its landing pages (worker/landing/pages.ts,
// worker/landing/listing-page.ts): it imports them only from web/src/server-rendered/, the folder meant for both, and
// what that folder reaches stays clear of the browser-only parts (the API client, wallets, routes, boot).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const WEB_SRC = path.join(import.meta.dirname);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const ROOT = path.join(WEB_SRC, "..", "..");

/** Every relative import in a source text: the statement (as written) and the module it names, from the repository root. */
function relativeImports(file: string, text: string): { statement: string; target: string }[] {
  return [...text.matchAll(/(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\s*\(?\s*["']([^"']+)["']/g)].flatMap((match) => {
    const spec = match[1] ?? match[2];
    if (!spec.startsWith(".")) return [];
    return [
      {
        statement: match[0],
        target: path
          .relative(ROOT, path.resolve(path.dirname(file), spec))
          .split(path.sep)
          .join("/"),
      },
    ];
  });
}

/** Every import of worker/ in a source text. */
function workerImports(file: string, text: string): { statement: string; target: string }[] {
  return relativeImports(file, text).filter((i) => i.target.split("/")[0] === "worker");
}

/** The source file an import names (with its extension), or null when it is not a .ts/.tsx file. */
function sourceOf(target: string): string | null {
  for (const ext of ["", ".ts", ".tsx", "/index.ts", "/index.tsx"]) {
    const full = path.join(ROOT, target.replace(/\.js$/, "") + ext);
    if (/\.tsx?$/.test(full) && fs.existsSync(full)) return full;
  }
  return null;
}

const SHARED = "web/src/server-rendered/";
const BROWSER_ONLY = ["web/src/api/", "web/src/wallet/", "web/src/routes/", "web/src/boot/", "web/src/payments/"];

/** The one import of worker/ the SPA may have: the app's type, as a type only, in the API client. */
const ALLOWED = { file: "api/http.ts", statement: /^import type \{ AppType \} from "[./]+\/worker\/app"$/, target: "worker/app" };

describe("web/src imports", () => {
  it("no module of the SPA imports from worker/, but the API client's `import type { AppType }`", () => {
    const files = sources(WEB_SRC);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      workerImports(file, fs.readFileSync(file, "utf8")).map((i) => ({ file: path.relative(WEB_SRC, file).split(path.sep).join("/"), ...i })),
    );
    const offenders = found.filter((i) => !(i.file === ALLOWED.file && i.target === ALLOWED.target && ALLOWED.statement.test(i.statement)));
    expect(offenders).toEqual([]);
    expect(found.map((i) => i.file)).toEqual([ALLOWED.file]);
  });

  it("the check tells a type-only import from one that would bundle Worker code", () => {
    const file = path.join(WEB_SRC, ALLOWED.file);
    const allowed = (text: string) => workerImports(file, text).every((i) => ALLOWED.statement.test(i.statement));
    expect(allowed('import type { AppType } from "../../../worker/app";')).toBe(true);
    expect(workerImports(file, 'import type { AppType } from "../../../worker/app";')).toHaveLength(1);
    // `import { type X }` keeps an import of the module under verbatimModuleSyntax: refused.
    expect(allowed('import { type AppType } from "../../../worker/app";')).toBe(false);
    expect(allowed('import { createApp } from "../../../worker/app";')).toBe(false);
    expect(allowed('import type { Db } from "../../../worker/db";')).toBe(false);
    expect(allowed('export { createApp } from "../../../worker/app";')).toBe(false);
    expect(allowed('const m = import("../../../worker/app");')).toBe(false);
    expect(allowed('import "../../../worker/app";')).toBe(false);
    expect(workerImports(file, 'import { hc } from "hono/client";\nimport type { Ok } from "./ok";')).toEqual([]);
  });
});

describe("the Worker's imports of web/src", () => {
  const workerFiles = sources(path.join(ROOT, "worker")).filter((f) => !/(^|\/)(test|test-chain)\//.test(path.relative(ROOT, f)));

  it("go only through web/src/server-rendered/", () => {
    const found = workerFiles.flatMap((file) =>
      relativeImports(file, fs.readFileSync(file, "utf8"))
        .filter((i) => i.target.startsWith("web/"))
        .map((i) => ({ file: path.relative(ROOT, file), target: i.target })),
    );
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((i) => !i.target.startsWith(SHARED))).toEqual([]);
  });

  it("and what the shared folder reaches stays clear of the browser-only parts", () => {
    const seen = new Set<string>();
    const queue = sources(path.join(ROOT, SHARED));
    while (queue.length) {
      const file = queue.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const i of relativeImports(file, fs.readFileSync(file, "utf8"))) {
        const next = sourceOf(i.target);
        if (next) queue.push(next);
      }
    }
    const reached = [...seen].map((f) => path.relative(ROOT, f).split(path.sep).join("/"));
    expect(reached.some((f) => f.startsWith("web/src/lib/"))).toBe(true);
    expect(reached.filter((f) => BROWSER_ONLY.some((prefix) => f.startsWith(prefix)))).toEqual([]);
  });
});
