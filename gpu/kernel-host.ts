// What the host sides of both GPU grinders share (gpu/grinder.ts for Ethereum, gpu/solana-grinder.ts for
// Solana), in Node (Dawn) and in the browser: compiling a kernel once per device, pipelines a driver may
// refuse, reading hit records and buffers back, sizing dispatches, and telling a software adapter from a GPU.
/// <reference types="@webgpu/types" />

/** A test hook: changes the words read back from the GPU before the host reads them. */
export type CorruptReadback = (words: Uint32Array, what: "hits" | "trace") => void;

/** SwiftShader (and any CPU rasteriser) runs shaders on the CPU: it gets far smaller work sizes. */
export function isSoftwareAdapter(adapter: GPUAdapter): boolean {
  const i = adapter.info;
  return /swiftshader|llvmpipe|lavapipe|software|cpu/i.test(`${i.vendor} ${i.architecture} ${i.device} ${i.description}`);
}

export class GpuKernelError extends Error {
  override name = "GpuKernelError";
}

/** Compiles WGSL, turning compilation messages into one thrown error. */
export async function compileModule(device: GPUDevice, code: string): Promise<GPUShaderModule> {
  device.pushErrorScope("validation");
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const scoped = await device.popErrorScope();
  const errors = info.messages.filter((m) => m.type === "error").map((m) => `${m.lineNum}:${m.linePos} ${m.message}`);
  if (scoped) errors.push(scoped.message);
  if (errors.length) throw new GpuKernelError(`WGSL did not compile:\n${errors.join("\n")}`);
  return module;
}

const compiled = new WeakMap<GPUDevice, Map<string, Promise<unknown>>>();

/**
 * `compile()` once per device and key (a kernel's configuration): a compile takes seconds on a software
 * adapter, and the orders loop makes a grinder per order. A failed compile is forgotten, so it is retried.
 */
export function compiledOnce<T>(device: GPUDevice, key: string, compile: () => Promise<T>): Promise<T> {
  let perDevice = compiled.get(device);
  if (!perDevice) compiled.set(device, (perDevice = new Map()));
  let pipelines = perDevice.get(key) as Promise<T> | undefined;
  if (!pipelines) {
    pipelines = compile();
    perDevice.set(key, pipelines);
    pipelines.catch(() => perDevice.delete(key));
  }
  return pipelines;
}

/**
 * Compute pipelines for `entries` of one module, in a validation error scope: a WGSL error, a validation
 * error or a pipeline the driver refuses to build (NVIDIA: "failed to validate local memory" for a kernel
 * whose private arrays are too large) all become one GpuKernelError.
 */
export async function buildPipelines(device: GPUDevice, module: GPUShaderModule, layout: GPUPipelineLayout, entries: string[]): Promise<GPUComputePipeline[]> {
  device.pushErrorScope("validation");
  let built: GPUComputePipeline[] | undefined;
  let failure: unknown;
  try {
    built = await Promise.all(entries.map((entryPoint) => device.createComputePipelineAsync({ layout, compute: { module, entryPoint } })));
  } catch (e) {
    failure = e;
  }
  const err = await device.popErrorScope();
  if (failure !== undefined) throw new GpuKernelError(`the GPU could not build the kernel: ${failure instanceof Error ? failure.message : String(failure)}`);
  if (err) throw new GpuKernelError(err.message);
  return built!;
}

/**
 * The hit records of a dispatch (the buffer's count, then records of `recordWords` words, invocation first),
 * at most `maxHits`. An invocation stops at its first record, so a second record from one invocation is a
 * kernel fault, never a second key: two keys from one Ethereum run are related (k + i, λk), and the Solana
 * kernel reports one key per base.
 */
export function hitRecords(words: Uint32Array, recordWords: number, maxHits: number, invocations: number): Uint32Array[] {
  const records: Uint32Array[] = [];
  const seen = new Set<number>();
  for (let r = 0; r < Math.min(words[0], maxHits); r++) {
    const record = words.subarray(1 + r * recordWords, 1 + (r + 1) * recordWords);
    const t = record[0];
    if (t >= invocations) throw new GpuKernelError(`hit record names invocation ${t} of ${invocations}`);
    if (seen.has(t)) throw new GpuKernelError(`two hit records from invocation ${t} in one dispatch`);
    seen.add(t);
    records.push(record);
  }
  return records;
}

/** Hits a dispatch found beyond the `maxHits` records its buffer holds (the kernel's counter goes on counting). */
export function droppedHits(words: Uint32Array, maxHits: number): number {
  return Math.max(0, words[0] - maxHits);
}

/** A copy of a buffer's contents (it needs COPY_SRC). */
export async function readBuffer(device: GPUDevice, buffer: GPUBuffer): Promise<Uint32Array> {
  const read = device.createBuffer({ size: buffer.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(buffer, 0, read, 0, buffer.size);
  device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const words = new Uint32Array(read.getMappedRange().slice(0));
  read.unmap();
  read.destroy();
  return words;
}

export const storageRw = () => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/**
 * Batches for the next dispatch, so that one takes about `targetMs`: long enough that the GPU's fixed costs per
 * dispatch are small, short enough for progress, stopping, and (in a browser) a responsive page and no GPU
 * watchdog. Grows at most 4x per step; at least 1.
 */
export function scaleBatches(batches: number, elapsedMs: number, targetMs: number, maxBatches = 4096): number {
  const scaled = Math.round((batches * targetMs) / Math.max(elapsedMs, 1));
  return Math.max(1, Math.min(maxBatches, batches * 4, scaled));
}
