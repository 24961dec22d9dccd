import { describe, expect, it } from "vitest";
import { gpuTestsWithoutAdapter, onCi, SWIFTSHADER_ICD } from "./gpu-node";

describe("the GPU tests without an adapter", () => {
  it("skip, with the reason, outside CI", () => {
    for (const env of [{}, { CI: "" }, { CI: "0" }, { CI: "false" }, { CI: " FALSE " }]) {
      expect(onCi(env), JSON.stringify(env)).toBe(false);
      expect(gpuTestsWithoutAdapter("no Vulkan driver", env)).toEqual({ fail: false, message: "GPU tests skipped: no Vulkan driver" });
    }
  });

  it("fail on CI, saying how to get SwiftShader", () => {
    for (const env of [{ CI: "true" }, { CI: "1" }, { CI: "yes" }]) {
      expect(onCi(env), JSON.stringify(env)).toBe(true);
      const verdict = gpuTestsWithoutAdapter("no Vulkan driver", env);
      expect(verdict.fail).toBe(true);
      expect(verdict.message).toContain("no Vulkan driver");
      expect(verdict.message).toContain(SWIFTSHADER_ICD);
      expect(verdict.message).toContain("apt-get install chromium");
      expect(verdict.message).toContain("docs/gpu-grinder.md#setup");
    }
  });
});
