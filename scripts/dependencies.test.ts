import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dependencyProblems, isToolOnly, packageOf, projectImports } from "./dependencies";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("package.json declares what the code imports", () => {
  it("every import is declared, shipped code uses only dependencies, each dependency ships, every version is exact", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const { runtime, tools } = projectImports(ROOT);
    expect(runtime.size).toBeGreaterThan(10);
    expect(dependencyProblems(manifest, runtime, tools)).toEqual([]);
  });

  it("a package name is read from a specifier; files, builtins and platform modules are not packages", () => {
    expect(packageOf("@solana/kit")).toBe("@solana/kit");
    expect(packageOf("hono/client")).toBe("hono");
    expect(packageOf("@noble/curves/secp256k1.js")).toBe("@noble/curves");
    for (const s of ["./x", "../y/z", "node:fs", "fs", "cloudflare:workers", "virtual:pwa", "./a.css?url"]) expect(packageOf(s), s).toBeNull();
  });

  it("tests, test helpers and the dev wallets never ship", () => {
    for (const f of [
      "worker/app.test.ts",
      "web/src/api/client.type-test.ts",
      "worker/test/helpers.ts",
      "worker/test-chain/x.ts",
      "web/src/wallet/dev/index.ts",
    ])
      expect(isToolOnly(f), f).toBe(true);
    for (const f of ["worker/app.ts", "web/src/wallet/index.ts", "schema/api.ts"]) expect(isToolOnly(f), f).toBe(false);
  });

  it("each disagreement is named (fixtures)", () => {
    const runtime = new Map([
      ["hono", ["worker/app.ts"]],
      ["vitest", ["worker/x.ts"]],
      ["left-pad", ["web/src/y.ts"]],
    ]);
    const tools = new Map([
      ["playwright-core", ["e2e/a.ts"]],
      ["hono", ["scripts/b.ts"]],
    ]);
    const problems = dependencyProblems({ dependencies: { hono: "4.1.0", unused: "1.0.0" }, devDependencies: { vitest: "^4.0.0" } }, runtime, tools);
    expect(problems).toEqual([
      "vitest is imported by shipped code (worker/x.ts) but is a devDependency",
      "left-pad is imported by shipped code (web/src/y.ts) but is not declared",
      "playwright-core is imported (e2e/a.ts) but not declared",
      "unused is a dependency that no shipped code imports (a devDependency, or drop it)",
      "vitest@^4.0.0 is not pinned to one exact version",
    ]);
  });
});
