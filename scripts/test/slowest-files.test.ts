import { describe, expect, it } from "vitest";
import { slowestFiles } from "./slowest-files";

describe("the slowest test files", () => {
  it("the ten slowest, slowest first, with seconds and project", () => {
    const files = Array.from({ length: 12 }, (_, i) => ({ file: `f${i}.test.ts`, project: i % 2 ? "worker" : "fast", ms: i * 1000 + 100 }));
    const lines = slowestFiles(files);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe("   11.1 s  worker  f11.test.ts");
    expect(lines[9]).toBe("    2.1 s  fast    f2.test.ts");
    expect(slowestFiles(files, 3).map((l) => l.trim().split(/\s+/).at(-1))).toEqual(["f11.test.ts", "f10.test.ts", "f9.test.ts"]);
    expect(slowestFiles([])).toEqual([]);
  });
});
