import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importCycles } from "./import-cycles";

const root = path.resolve(import.meta.dirname, "..");

describe("import cycles", () => {
  it("worker/, schema/, web/src/, scripts/ and e2e/ import one another without a cycle", () => {
    expect(importCycles(root, ["worker", "schema", "web/src", "scripts", "e2e"])).toEqual([]);
  });

  const fixture = fs.mkdtempSync(path.join(os.tmpdir(), "import-cycles-"));
  afterAll(() => fs.rmSync(fixture, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
    fs.writeFileSync(path.join(fixture, file), text);
  };

  it("finds a cycle through type-only imports, re-exports, index files and .tsx, and nothing in a tree without one", () => {
    write("src/a.ts", 'import { b } from "./b";\nimport { z } from "zod";\nexport const a = b;\n');
    write("src/b.ts", 'export { c as b } from "./lib";\n');
    write("src/lib/index.ts", 'import type { D } from "../d.tsx";\nexport const c = 1 as D;\n');
    write("src/d.tsx", 'import "./a.ts";\nexport type D = number;\n');
    write("src/leaf.ts", 'import { a } from "./a";\nexport const leaf = a;\n');
    write("other/x.ts", 'import { y } from "./y";\nexport const x = y;\n');
    write("other/y.ts", "export const y = 1;\n");
    expect(importCycles(fixture, ["src", "other"])).toEqual([["src/a.ts", "src/b.ts", "src/d.tsx", "src/lib/index.ts"]]);
    expect(importCycles(fixture, ["other"])).toEqual([]);
  });

  it("reports a file that imports itself and each of two separate cycles", () => {
    write("two/self.ts", 'import "./self";\n');
    write("two/p.ts", 'import "./q";\n');
    write("two/q.ts", 'import "./p";\n');
    expect(importCycles(fixture, ["two"])).toEqual(expect.arrayContaining([["two/self.ts"], ["two/p.ts", "two/q.ts"]]));
    expect(importCycles(fixture, ["two"])).toHaveLength(2);
  });
});
