// Queries the compiler checks: every query names its tables and columns through the drizzle schema
// objects in schema/db, so renaming a column's property there must break the worker's typecheck wherever the
// column is used. This copies the worker with everything it imports to a temp folder, renames one column in the
// copy and runs tsc on it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const copy = fs.mkdtempSync(path.join(os.tmpdir(), "schema-rename-"));
afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

for (const entry of ["worker", "schema", "web/src", "scripts", "migrations", "tsconfig.json"]) {
  fs.cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
}
fs.symlinkSync(path.join(root, "node_modules"), path.join(copy, "node_modules"), "dir");

/** tsc on the copy's worker: the files with errors (relative paths) and the errors' text. */
function typecheckWorker(): { files: string[]; output: string } {
  try {
    execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "worker/tsconfig.json"], { cwd: copy, encoding: "utf8" });
    return { files: [], output: "" };
  } catch (err) {
    const output = String((err as { stdout?: string }).stdout ?? err);
    const files = [...new Set([...output.matchAll(/^([^\s(]+\.ts)\(\d+,\d+\): error/gm)].map((m) => m[1]))].sort();
    return { files, output };
  }
}

/** Renames the property `from` to `to` in one table of the copy's schema file (the column's SQL name stays). */
function renameColumn(file: string, table: string, from: string, to: string) {
  const full = path.join(copy, "schema/db", file);
  const text = fs.readFileSync(full, "utf8");
  const start = text.indexOf(`export const ${table} = sqliteTable(`);
  const end = text.indexOf("\n);", start);
  const body = text.slice(start, end);
  expect(body, `${table}.${from} is in schema/db/${file}`).toMatch(new RegExp(`\\n\\s+${from}: `));
  fs.writeFileSync(full, text.slice(0, start) + body.replace(new RegExp(`(\\n\\s+)${from}: `), `$1${to}: `) + text.slice(end));
}

// Each tsc run of the worker takes 10-20 s on a 2-core machine and over 3 minutes when other suites load it: a hang
// guard, not a speed check.
const TSC_TIMEOUT = 300_000;

describe("a renamed schema column breaks the worker's typecheck", () => {
  // One tsc run, not two: that every file with an error names a renamed column shows the copy is otherwise whole
  // (a copy that did not typecheck unchanged would fail in files of its own), which a first run on the unchanged
  // copy used to show at the cost of another 20-40 s.
  it("transactions.txHash and addresses.priceUnits renamed: the files that name them fail, with the missing property, and nothing else does", {
    timeout: TSC_TIMEOUT,
  }, () => {
    renameColumn("purchases.ts", "transactions", "txHash", "txHashX");
    renameColumn("listings.ts", "addresses", "priceUnits", "priceUnitsX");
    const { files, output } = typecheckWorker();
    expect(output).toMatch(/Property 'txHash' does not exist/);
    expect(output).toMatch(/Property 'priceUnits' does not exist/);
    expect(files.filter((f) => !/\b(txHash|priceUnits)\b/.test(fs.readFileSync(path.join(copy, f), "utf8")))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining(["worker/purchases/settle.ts", "worker/purchases/buyer-actions.ts", "worker/purchases/verify.ts", "worker/purchases/reserve.ts"]),
    );
  });
});
