// WebGPU in the visitor's browser: the adapter and a device, or a plain reason why not.
/// <reference types="@webgpu/types" />
import { isSoftwareAdapter } from "../../../../gpu/kernel-host";
import { type AdapterWords, adapterWords } from "./adapter-words";

export type BrowserGpu = { device: GPUDevice; software: boolean; words: AdapterWords };
export type GpuUnavailable = { problem: "no-webgpu" | "no-adapter" | "no-device"; message: string };

/** Opens the high-performance adapter. `nav` is the page's navigator (tests pass their own). */
export async function openBrowserGpu(nav: { gpu?: GPU } = navigator): Promise<BrowserGpu | GpuUnavailable> {
  if (!nav.gpu) {
    return {
      problem: "no-webgpu",
      message:
        "This browser does not offer WebGPU, which grinding here needs. Chrome and Edge (version 113 or later) and Safari 26 have it; in Firefox it is on for Windows only so far.",
    };
  }
  let adapter: GPUAdapter | null = null;
  try {
    adapter = await nav.gpu.requestAdapter({ powerPreference: "high-performance" });
  } catch {
    adapter = null;
  }
  if (!adapter) {
    return {
      problem: "no-adapter",
      message:
        "Your browser has WebGPU but found no graphics adapter it may use (it may be switched off, or this GPU or driver is on the browser's block list).",
    };
  }
  try {
    const device = await adapter.requestDevice();
    // The fallback flag is missing from browsers that predate it: read as "not said".
    const software = isSoftwareAdapter(adapter) || adapter.info.isFallbackAdapter === true;
    return { device, software, words: adapterWords(adapter.info, software) };
  } catch (e) {
    return { problem: "no-device", message: `The graphics adapter refused to start: ${e instanceof Error ? e.message : String(e)}` };
  }
}
