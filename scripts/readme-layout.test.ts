// README's Layout section is how a newcomer finds the route, the rule and the test for a behaviour: it must name
// every top-level folder of worker/ and web/src/, so a new folder cannot land without a line saying what it holds.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const layout = (() => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const start = readme.indexOf("\n## Layout");
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
})();
const folders = (dir: string) =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

describe("README Layout", () => {
  it("exists", () => expect(layout.length).toBeGreaterThan(100));
  for (const dir of ["worker", "web/src"]) {
    it(`names every top-level folder of ${dir}/`, () => {
      const missing = folders(dir).filter((name) => !new RegExp(`(^|[\\s,(])${name}/`, "m").test(layout));
      expect(missing).toEqual([]);
    });
  }
});
