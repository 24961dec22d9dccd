// WebGPU in Node through Dawn (npm `webgpu`): the environment Dawn's Vulkan backend needs, and the adapter.
//
// Vulkan finds drivers through ICD manifests. On a GPU host the vendor's manifest is in the system directory
// (NVIDIA: /usr/share/vulkan/icd.d/nvidia_icd.json) and nothing needs setting. On machines without a GPU
// (these 2-core boxes, CI) Debian's chromium ships SwiftShader, a Vulkan driver that runs on the CPU; it is
// *added* to the search (VK_ADD_DRIVER_FILES, loader 1.3.207+), not put in place of the system drivers as
// VK_ICD_FILENAMES would, so a real GPU still wins the high-performance request. Mesa's lavapipe is hidden:
// Dawn refuses it (no dynamic uniform indexing) and prints a warning for it on every start. Nothing is set
// where the user already chose (VK_ICD_FILENAMES, VK_DRIVER_FILES or VK_ADD_DRIVER_FILES).
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";

/** Fills in what Dawn needs when unset; returns the variables it set (for the log). */
export function prepareVulkanEnv(env: NodeJS.ProcessEnv = process.env, icd = SWIFTSHADER_ICD): string[] {
  const set: string[] = [];
  const chosen = env.VK_ICD_FILENAMES || env.VK_DRIVER_FILES || env.VK_ADD_DRIVER_FILES;
  if (!chosen && existsSync(icd)) {
    env.VK_ADD_DRIVER_FILES = icd;
    set.push("VK_ADD_DRIVER_FILES");
    if (!env.VK_LOADER_DRIVERS_DISABLE) {
      env.VK_LOADER_DRIVERS_DISABLE = "*lvp_icd*";
      set.push("VK_LOADER_DRIVERS_DISABLE");
    }
  }
  // The Vulkan loader's window-system probes complain on every start without it.
  if (!env.XDG_RUNTIME_DIR || !existsSync(env.XDG_RUNTIME_DIR)) {
    env.XDG_RUNTIME_DIR = mkdtempSync(join(tmpdir(), "vanity-xdg-"));
    set.push("XDG_RUNTIME_DIR");
  }
  return set;
}

/** Whether this run is CI's: `CI` set to anything but empty, "0" or "false" (what CI services and `.ci/run` set). */
export function onCi(env: Record<string, string | undefined> = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== "" && ci !== "0" && ci !== "false";
}

/**
 * What the GPU tests do when no adapter can be made: skip, saying why, on a developer's machine; fail on CI, where
 * SwiftShader must be installed, so a CI image that lost it cannot pass the GPU tests by skipping them all.
 */
export function gpuTestsWithoutAdapter(reason: string, env: Record<string, string | undefined> = process.env): { fail: boolean; message: string } {
  if (!onCi(env)) return { fail: false, message: `GPU tests skipped: ${reason}` };
  return {
    fail: true,
    message:
      `GPU tests: no WebGPU adapter on CI (CI=${env.CI}): ${reason}. They skip only outside CI. Install the Vulkan loader ` +
      `and Debian's chromium package, which provides the SwiftShader driver at ${SWIFTSHADER_ICD}: ` +
      `apt-get install chromium libvulkan1, as .ci/run does (docs/gpu-grinder.md#setup).`,
  };
}

/**
 * Dawn's instance options from WEBGPU_DAWN_OPTIONS, separated by spaces (e.g.
 * `enable-dawn-features=disable_robustness`): for trying Dawn's toggles on a new GPU without a code change.
 */
export function dawnOptions(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.WEBGPU_DAWN_OPTIONS ?? "").split(/\s+/).filter(Boolean);
}

export type NodeAdapter = { adapter: GPUAdapter; gpu: GPU } | { adapter: null; reason: string };

let gpuInstance: GPU | null = null;

/**
 * The high-performance adapter Dawn finds, or why there is none. The Dawn instance is made once per process
 * and kept: Dawn's native side lives as long as it does.
 */
export async function nodeAdapter(): Promise<NodeAdapter> {
  prepareVulkanEnv();
  let gpu: GPU;
  try {
    if (!gpuInstance) {
      const { create, globals } = await import("webgpu");
      // GPUBufferUsage, GPUMapMode, ... as in a browser
      Object.assign(globalThis, globals);
      gpuInstance = create(dawnOptions());
    }
    gpu = gpuInstance;
  } catch (e) {
    return { adapter: null, reason: `Dawn (npm webgpu) could not be loaded: ${(e as Error).message}` };
  }
  const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
  if (!adapter) {
    return {
      adapter: null,
      reason:
        "no WebGPU adapter: Dawn found no Vulkan driver it accepts (for an NVIDIA GPU install libvulkan1 and the driver's Vulkan ICD; " +
        `without a GPU, Debian's chromium package provides SwiftShader at ${SWIFTSHADER_ICD}; see docs/gpu-grinder.md)`,
    };
  }
  return { adapter, gpu };
}

/** One line naming the adapter, e.g. "nvidia hopper (NVIDIA H100 80GB HBM3)" or "google swiftshader (...)". */
export function describeAdapter(adapter: GPUAdapter): string {
  const i = adapter.info;
  const name = [i.vendor, i.architecture].filter(Boolean).join(" ") || "unknown adapter";
  const extra = [i.device, i.description].filter(Boolean).join(", ");
  return extra ? `${name} (${extra})` : name;
}
