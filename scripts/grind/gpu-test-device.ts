// For the GPU tests: one Dawn device per test file, and a helper that runs a small test kernel. Where no
// adapter can be made the tests are skipped with the reason printed, outside CI only: on CI SwiftShader must be
// there (docs/gpu-grinder.md#setup), so a missing adapter fails the file rather than passing it silently.
import { compileModule } from "../../gpu/kernel-host.ts";
import { describeAdapter, gpuTestsWithoutAdapter, nodeAdapter } from "./gpu-node.ts";

export type TestGpu = { device: GPUDevice; adapter: GPUAdapter; name: string } | { device: null; reason: string };

export async function testGpu(): Promise<TestGpu> {
  const found = await nodeAdapter();
  if (!found.adapter) {
    const verdict = gpuTestsWithoutAdapter(found.reason);
    if (verdict.fail) throw new Error(verdict.message);
    console.warn(verdict.message);
    return { device: null, reason: found.reason };
  }
  const device = await found.adapter.requestDevice();
  return { device, adapter: found.adapter, name: describeAdapter(found.adapter) };
}

const pipelines = new Map<string, Promise<GPUComputePipeline>>();

/** The pipeline for `entry` of `code`, compiled once per test file; throws on a WGSL or pipeline error. */
export function computePipeline(device: GPUDevice, code: string, entry: string): Promise<GPUComputePipeline> {
  const key = `${entry}\n${code}`;
  let pipeline = pipelines.get(key);
  if (!pipeline) {
    pipeline = compileModule(device, code).then((module) => device.createComputePipelineAsync({ layout: "auto", compute: { module, entryPoint: entry } }));
    pipelines.set(key, pipeline);
  }
  return pipeline;
}

/** A uniform buffer holding `words` (the kernels' constants, bound beside a test kernel's own buffers). */
export function uniformBuffer(device: GPUDevice, words: Uint32Array): GPUBuffer {
  const buffer = device.createBuffer({ size: Math.max(16, words.byteLength), usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(buffer, 0, words);
  return buffer;
}

/**
 * Runs a test kernel over `invocations` (workgroups of 64) with `input` at binding 10 (read-only storage) and
 * an output buffer of `outBytes` at binding 11, which it returns; `bind` adds buffers the kernel reads (the
 * constants' uniform).
 */
export async function runTestKernel(
  device: GPUDevice,
  pipeline: GPUComputePipeline,
  input: ArrayBufferView,
  outBytes: number,
  invocations: number,
  bind: { binding: number; buffer: GPUBuffer }[] = [],
): Promise<ArrayBuffer> {
  const inBuf = device.createBuffer({ size: Math.ceil(input.byteLength / 4) * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(inBuf, 0, input.buffer, input.byteOffset, input.byteLength);
  const out = device.createBuffer({ size: outBytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: outBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 10, resource: { buffer: inBuf } },
      { binding: 11, resource: { buffer: out } },
      ...bind.map(({ binding, buffer }) => ({ binding, resource: { buffer } })),
    ],
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(Math.ceil(invocations / 64));
  pass.end();
  enc.copyBufferToBuffer(out, 0, read, 0, outBytes);
  device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const result = read.getMappedRange().slice(0);
  read.unmap();
  for (const b of [inBuf, out, read]) b.destroy();
  return result;
}
