// The fast tier starts nothing: every plain-Node test file that spawns, listens, compiles GPU kernels, derives
// scrypt keys or loads wrangler is listed in the tools tier.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { STARTS_SOMETHING, TOOLS } from "./tiers";

const ROOT = path.join(import.meta.dirname, "..", "..");

/** The plain-Node test files: under the NODE_TESTS folders, less the workerd projects' worker/test and worker/test-chain. */
function nodeTestFiles(): string[] {
  const roots = ["schema", "worker", "web/src", "scripts", "e2e"];
  return roots.flatMap((root) =>
    (fs.readdirSync(path.join(ROOT, root), { recursive: true }) as string[])
      .map((file) => path.posix.join(root, file.split(path.sep).join("/")))
      .filter((file) => /\.test\.tsx?$/.test(file) && !file.includes("node_modules/") && !/^worker\/test(-chain)?\//.test(file)),
  );
}

describe("the tiers", () => {
  it("every test file that starts something is in the tools tier; every tools file exists", () => {
    const files = nodeTestFiles();
    expect(files.length).toBeGreaterThan(50);
    // This file names each mark as a sample.
    const starting = files.filter((file) => file !== "scripts/test/tiers.test.ts" && STARTS_SOMETHING.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(starting.filter((file) => !TOOLS.includes(file))).toEqual([]);
    expect(TOOLS.filter((file) => !files.includes(file))).toEqual([]);
  });

  it("the mark catches each way of starting something", () => {
    for (const source of [
      'import { spawnSync } from "node:child_process";',
      'import { create } from "webgpu";',
      "const gpu = await testGpu();",
      '{ kdf: "scrypt" }',
      "net.createServer().listen(0)",
      "rpc = await startSolanaRpc({ port: 0 });",
      'import { unstable_getMiniflareWorkerOptions } from "wrangler";',
      "const node = await startJsonRpcNode(() => ({ result: true }));",
      "const down = await deadNodeUrl();",
    ])
      expect(STARTS_SOMETHING.test(source), source).toBe(true);
    expect(STARTS_SOMETHING.test('import { describe } from "vitest";\nexpect(listing(r, now)).toEqual(x);')).toBe(false);
  });
});
