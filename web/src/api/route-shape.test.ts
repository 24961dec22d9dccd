// The proof that the web's types follow the Worker's routes: in a copy of the repository, one
// route answers another shape (GET /api/market-stats renames totalVolume to volume, a change the Worker itself
// accepts), and `tsc -b web/tsconfig.json` (what npm run typecheck runs for the web) must then fail in web/src,
// where the home page reads totalVolume. The unchanged copy is checked first, so the failure is the change's.
// The copy takes the build info of the last typecheck (.tsbuild/) when there is one: tsc then re-checks only
// what the change touches.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
/** What web/tsconfig.json and its reference (worker/tsconfig.api.json) read. */
const COPIED = [
  "tsconfig.json",
  "web/tsconfig.json",
  "web/src",
  // gpu/self-check.ts checks the GPU's addresses with the CLI grinder's checksum.
  "scripts/grind/verify.ts",
  // schema/*-lifecycle.test.ts read their docs tables and share their checks with these (web/tsconfig.json includes schema/).
  "scripts/test/markdown-tables.ts",
  "scripts/test/lifecycle-checks.ts",
  // schema/dev-accounts.test.ts derives the Solana dev keys with it.
  "scripts/test/slip10.ts",
  // web/src/routes/-grind imports the WebGPU grinder: without it a copy whose build info is stale fails to resolve it.
  "gpu",
  "worker",
  "schema",
  "migrations/meta/_journal.json",
  ".tsbuild",
];
const SKIPPED = new Set(["worker/test", "worker/test-chain"]);

const ROUTE = "worker/routes/market.ts";
const ANSWER = "return c.json(stats satisfies MarketStats);";
const CHANGED = "const { totalVolume, ...rest } = stats;\n    return c.json({ ...rest, volume: totalVolume });";

let copy: string | null = null;

function copyRepository(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "route-shape-"));
  for (const entry of COPIED) {
    const from = path.join(ROOT, entry);
    if (!fs.existsSync(from)) continue;
    fs.cpSync(from, path.join(dir, entry), {
      recursive: true,
      preserveTimestamps: true,
      filter: (source) => !SKIPPED.has(path.relative(ROOT, source).split(path.sep).join("/")),
    });
  }
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, "node_modules")), path.join(dir, "node_modules"), "dir");
  return dir;
}

function typecheckWeb(dir: string) {
  const run = spawnSync(process.execPath, [TSC, "-b", "web/tsconfig.json", "--pretty", "false"], { cwd: dir, encoding: "utf8" });
  const errors = run.stdout.split("\n").filter((line) => /error TS\d+:/.test(line));
  return { status: run.status, errors, output: `${run.stdout}${run.stderr}` };
}

afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe("a route's shape is the web's type", () => {
  // A hang guard for two tsc runs on a loaded machine, not a speed check (the time is in docs/api-client.md).
  it("renaming a field GET /api/market-stats answers is a type error where web/src reads it", { timeout: 300_000 }, () => {
    copy = copyRepository();
    const before = typecheckWeb(copy);
    expect(before.errors, before.output).toEqual([]);
    expect(before.status, before.output).toBe(0);

    const route = path.join(copy, ROUTE);
    const source = fs.readFileSync(route, "utf8");
    expect(source, `${ROUTE} no longer answers with ${ANSWER}: point this test at the route's answer again`).toContain(ANSWER);
    fs.writeFileSync(route, source.replace(ANSWER, CHANGED));

    const after = typecheckWeb(copy);
    expect(after.status, after.output).not.toBe(0);
    // The Worker accepts its new shape: every error is the web's.
    expect(
      after.errors.filter((line) => !line.startsWith("web/src/")),
      after.output,
    ).toEqual([]);
    expect(
      after.errors.some((line) => line.startsWith("web/src/routes/index.tsx") && line.includes("'totalVolume'")),
      after.output,
    ).toBe(true);
  });
});
