// The host side of the Solana GPU grinder, the same in Node (Dawn) and in the browser: the table, a fresh
// CSPRNG base per invocation and dispatch, dispatches, and hits back to seeds. Like GpuGrinder it never
// decides that a key is good: callers re-derive every hit's address from its seed with @noble/curves
// (scripts/grind/verify.ts, the browser page) and treat a mismatch as a kernel fault.
/// <reference types="@webgpu/types" />
import { sha512 } from "@noble/hashes/sha2.js";
import { base58 } from "@scure/base";
import {
  buildPipelines,
  type CorruptReadback,
  compiledOnce,
  compileModule,
  droppedHits,
  GpuKernelError,
  hitRecords,
  readBuffer,
  storageRw,
} from "./kernel-host.ts";
import { sha512ConstantWords } from "./sha512.wgsl.ts";
import { rangeWords, type SolanaGpuPattern, type SolanaPatternParams, solanaPatternParams } from "./solana-pattern.ts";
import { combTable, combTableBytes } from "./solana-table.ts";
import { SOLANA_HIT_WORDS, SOLANA_PARAMS_WORDS, type SolanaKernelConfig, solanaWgsl } from "./solana.wgsl.ts";
import { cryptoRandom, type RandomSource } from "./start.ts";

export type SolanaGrinderConfig = {
  pattern: SolanaGpuPattern;
  /** invocations, each with its own base per dispatch */
  invocations: number;
  /** candidates that share one inversion (default 16) */
  batch?: number;
  /** bits per comb digit, 4..16 (default 8: a 384 KiB table; 16: 48 MiB, where the device's buffers allow) */
  windowBits?: number;
  workgroupSize?: number;
  /** one inversion per workgroup and batch instead of one per invocation (solana.wgsl.ts; default off) */
  sharedInversion?: boolean;
  /** the CSPRNG for the bases (tests inject one to watch it or replay it) */
  random?: RandomSource;
  /** hit records one dispatch can return */
  maxHits?: number;
  /** tests only: changes what a dispatch read back from the GPU (hit records or trace), as a faulty GPU would */
  corrupt?: CorruptReadback;
};

export type SolanaHit = {
  invocation: number;
  /** the candidate's index in its invocation's dispatch */
  candidate: number;
  /** the 32-byte seed, re-derived here from the base (SHA-512(base || candidate)) */
  seed: Uint8Array;
  /** the public key the GPU computed (not checked here: the caller derives it again from the seed) */
  publicKey: Uint8Array;
};

export type SolanaRunResult = {
  /** candidates the dispatch checked: invocations × batches × batch */
  candidates: number;
  hits: SolanaHit[];
  /** hits the full hit buffer could not hold (those invocations stopped for this dispatch; their keys were never read) */
  dropped: number;
  /** run(batches, { trace: true }): every candidate's key (8 words), in (invocation, batch, candidate) order */
  trace?: Uint32Array;
};

/** The 64-byte secret key Solana wallets import (seed || public key), base58: the CPU grinder's private_key. */
export function solanaSecretKey(hit: Pick<SolanaHit, "seed" | "publicKey">): string {
  const secret = new Uint8Array(64);
  secret.set(hit.seed, 0);
  secret.set(hit.publicKey, 32);
  return base58.encode(secret);
}

/** The seed of candidate j from a 32-byte base: the first 32 bytes of SHA-512(base || j as 8 bytes big-endian). */
export function candidateSeed(base: Uint8Array, j: number): Uint8Array {
  const message = new Uint8Array(40);
  message.set(base, 0);
  new DataView(message.buffer).setUint32(36, j);
  return sha512(message).slice(0, 32);
}

/** The params uniform (struct Params in solana.wgsl.ts) for a pattern; run() fills in batches and trace. */
export function solanaParamsWords(pattern: SolanaPatternParams, invocations: number, maxHits: number): Uint32Array<ArrayBuffer> {
  const p = new Uint32Array(SOLANA_PARAMS_WORDS);
  p[0] = invocations;
  p[2] = maxHits;
  p[4] = pattern.ranges?.length ?? 0;
  p[5] = pattern.suffixLength;
  p[6] = pattern.ranges ? 1 : 0;
  p.set(pattern.suffixMasks, 8);
  return p;
}

type Pipelines = { grind: GPUComputePipeline; layout: GPUBindGroupLayout };

function solanaPipelines(device: GPUDevice, config: SolanaKernelConfig): Promise<Pipelines> {
  return compiledOnce(device, `solana ${JSON.stringify(config)}`, async () => {
    const module = await compileModule(device, solanaWgsl(config));
    const entry = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } });
    const layout = device.createBindGroupLayout({
      entries: [
        entry(0, "uniform"),
        entry(1, "read-only-storage"),
        entry(2, "read-only-storage"),
        entry(3, "read-only-storage"),
        entry(4, "storage"),
        entry(5, "storage"),
        entry(6, "uniform"),
      ],
    });
    const [grind] = await buildPipelines(device, module, device.createPipelineLayout({ bindGroupLayouts: [layout] }), ["grind"]);
    return { grind, layout };
  });
}

/** The widest comb: 16-bit windows, a 48 MiB table (16 windows of 32,768 entries; docs/gpu-grinder.md#the-solana-kernel). */
export const MAX_WINDOW_BITS = 16;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 1)} MiB`;

/** Whether the w-bit comb's table fits one storage buffer of a device with these limits. */
export function combFits(windowBits: number, limits: Pick<GPUSupportedLimits, "maxStorageBufferBindingSize" | "maxBufferSize">): boolean {
  return combTableBytes(windowBits) <= Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
}

/** Bytes drawn per call of the CSPRNG (the browser's crypto.getRandomValues takes at most 65,536). */
const RANDOM_CHUNK = 65_536;

export class SolanaGpuGrinder {
  readonly invocations: number;
  readonly batch: number;
  readonly windowBits: number;
  readonly workgroupSize: number;
  private readonly device: GPUDevice;
  private readonly random: RandomSource;
  private readonly maxHits: number;
  private readonly corrupt: CorruptReadback | undefined;
  private readonly params = new Uint32Array(SOLANA_PARAMS_WORDS);
  private readonly buffers: Record<"params" | "table" | "bases" | "ranges" | "hits" | "read" | "consts", GPUBuffer>;
  private traceBuffer: GPUBuffer;
  private traceCapacity = 0;
  private readonly layout: GPUBindGroupLayout;
  private bindGroup: GPUBindGroup;
  private readonly pipeline: GPUComputePipeline;
  /** the next dispatch's bases, drawn while this one runs; zeroed when the grinder is destroyed */
  private nextBases: Uint8Array<ArrayBuffer> | null = null;
  private destroyed = false;

  private constructor(device: GPUDevice, config: Required<Omit<SolanaGrinderConfig, "corrupt">> & Pick<SolanaGrinderConfig, "corrupt">, pipelines: Pipelines) {
    this.device = device;
    this.invocations = config.invocations;
    this.batch = config.batch;
    this.windowBits = config.windowBits;
    this.workgroupSize = config.workgroupSize;
    this.random = config.random;
    this.maxHits = config.maxHits;
    this.corrupt = config.corrupt;
    this.pipeline = pipelines.grind;
    this.layout = pipelines.layout;
    const pattern = solanaPatternParams(config.pattern);
    const table = combTable(this.windowBits);
    const ranges = rangeWords(pattern.ranges);
    const buffer = (size: number, usage: number) => device.createBuffer({ size: Math.max(16, Math.ceil(size / 4) * 4), usage });
    this.buffers = {
      params: buffer(SOLANA_PARAMS_WORDS * 4, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST),
      table: buffer(table.byteLength, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST),
      bases: buffer(this.invocations * 32, storageRw()),
      ranges: buffer(ranges.byteLength, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST),
      hits: buffer(4 + this.maxHits * SOLANA_HIT_WORDS * 4, storageRw()),
      read: buffer(4 + this.maxHits * SOLANA_HIT_WORDS * 4, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST),
      consts: buffer(160 * 4, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST),
    };
    this.traceBuffer = buffer(16, storageRw());
    const q = device.queue;
    q.writeBuffer(this.buffers.table, 0, table);
    q.writeBuffer(this.buffers.ranges, 0, ranges);
    q.writeBuffer(this.buffers.consts, 0, sha512ConstantWords());
    this.params.set(solanaParamsWords(pattern, this.invocations, this.maxHits));
    this.bindGroup = this.makeBindGroup();
  }

  /** Compiles the kernel for this configuration (once per device) and uploads the tables. */
  static async create(device: GPUDevice, config: SolanaGrinderConfig): Promise<SolanaGpuGrinder> {
    const full: Required<Omit<SolanaGrinderConfig, "corrupt">> & Pick<SolanaGrinderConfig, "corrupt"> = {
      batch: 16,
      windowBits: 8,
      workgroupSize: 64,
      sharedInversion: false,
      random: cryptoRandom,
      maxHits: 256,
      ...config,
    };
    if (!Number.isInteger(full.batch) || full.batch < 1 || full.batch > 64) throw new RangeError("batch must be 1..64");
    if (!Number.isInteger(full.windowBits) || full.windowBits < 4 || full.windowBits > MAX_WINDOW_BITS)
      throw new RangeError(`windowBits must be 4..${MAX_WINDOW_BITS}`);
    // like a kernel the GPU refuses to build: the sweeps report it and go on
    if (!combFits(full.windowBits, device.limits))
      throw new GpuKernelError(
        `the ${full.windowBits}-bit comb's table (${mib(combTableBytes(full.windowBits))}) is larger than this device's largest storage buffer (${mib(Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize))})`,
      );
    if (!Number.isInteger(full.invocations) || full.invocations < 1) throw new RangeError("invocations must be a positive whole number");
    if (Math.ceil(full.invocations / full.workgroupSize) > device.limits.maxComputeWorkgroupsPerDimension)
      throw new RangeError("too many invocations for one dispatch");
    solanaPatternParams(full.pattern); // throws on a bad pattern before anything is compiled
    const pipelines = await solanaPipelines(device, {
      batch: full.batch,
      windowBits: full.windowBits,
      workgroupSize: full.workgroupSize,
      sharedInversion: full.sharedInversion,
    });
    return new SolanaGpuGrinder(device, full, pipelines);
  }

  private makeBindGroup(): GPUBindGroup {
    const b = this.buffers;
    const entries = [b.params, b.table, b.bases, b.ranges, b.hits, this.traceBuffer, b.consts].map((buffer, binding) => ({ binding, resource: { buffer } }));
    return this.device.createBindGroup({ layout: this.layout, entries });
  }

  /**
   * One dispatch: every invocation gets a fresh base from the CSPRNG and checks `batches` batches of
   * candidates. Returns what it checked and the hits, each with its seed derived from the base here.
   */
  async run(batches: number, { trace = false }: { trace?: boolean } = {}): Promise<SolanaRunResult> {
    if (this.destroyed) throw new Error("this grinder was destroyed");
    if (!Number.isInteger(batches) || batches < 1) throw new RangeError("batches must be a positive whole number");
    const n = this.invocations;
    if (batches * this.batch > 2 ** 32) throw new RangeError("too many candidates per invocation");
    // drawn while the previous dispatch ran (or now, for the first)
    const bases = this.nextBases ?? this.drawBases();
    this.nextBases = null;

    const traceWords = trace ? n * batches * this.batch * 8 : 0;
    if (traceWords > this.traceCapacity) {
      this.traceBuffer.destroy();
      this.traceBuffer = this.device.createBuffer({ size: traceWords * 4, usage: storageRw() });
      this.traceCapacity = traceWords;
      this.bindGroup = this.makeBindGroup();
    }
    const p = this.params;
    p[1] = batches;
    p[3] = trace ? 1 : 0;
    const q = this.device.queue;
    q.writeBuffer(this.buffers.params, 0, p);
    // the bytes as they are: the kernel reads each base as 8 words and swaps their bytes
    q.writeBuffer(this.buffers.bases, 0, bases);
    const enc = this.device.createCommandEncoder();
    enc.clearBuffer(this.buffers.hits, 0, 4);
    const pass = enc.beginComputePass();
    pass.setBindGroup(0, this.bindGroup);
    pass.setPipeline(this.pipeline);
    pass.dispatchWorkgroups(Math.ceil(n / this.workgroupSize));
    pass.end();
    // the bases do not stay in GPU memory after their dispatch
    enc.clearBuffer(this.buffers.bases);
    enc.copyBufferToBuffer(this.buffers.hits, 0, this.buffers.read, 0, this.buffers.read.size);
    let traceRead: GPUBuffer | null = null;
    if (trace) {
      traceRead = this.device.createBuffer({ size: traceWords * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      enc.copyBufferToBuffer(this.traceBuffer, 0, traceRead, 0, traceWords * 4);
    }
    q.submit([enc.finish()]);
    // the next dispatch's bases, drawn while the GPU works on this one (a CSPRNG draw of 32 bytes per
    // invocation takes milliseconds, which would otherwise add to every dispatch)
    this.nextBases = this.drawBases();

    try {
      await this.buffers.read.mapAsync(GPUMapMode.READ);
      const records = new Uint32Array(this.buffers.read.getMappedRange().slice(0));
      this.buffers.read.unmap();
      let traced: Uint32Array | undefined;
      if (traceRead) {
        await traceRead.mapAsync(GPUMapMode.READ);
        traced = new Uint32Array(traceRead.getMappedRange().slice(0));
        traceRead.unmap();
        traceRead.destroy();
      }
      this.corrupt?.(records, "hits");
      if (traced) this.corrupt?.(traced, "trace");
      const hits: SolanaHit[] = [];
      const perInvocation = batches * this.batch;
      for (const record of hitRecords(records, SOLANA_HIT_WORDS, this.maxHits, n)) {
        const [t, j] = record;
        if (j >= perInvocation) throw new GpuKernelError(`hit record names candidate ${j} of ${perInvocation}`);
        const publicKey = new Uint8Array(32);
        const keyView = new DataView(publicKey.buffer);
        for (let k = 0; k < 8; k++) keyView.setUint32(4 * k, record[2 + k], true);
        hits.push({ invocation: t, candidate: j, seed: candidateSeed(bases.subarray(32 * t, 32 * t + 32), j), publicKey });
      }
      return { candidates: n * batches * this.batch, hits, dropped: droppedHits(records, this.maxHits), trace: traced };
    } finally {
      // the bases live no longer than their dispatch: the seeds of the hits are derived, the rest forgotten
      bases.fill(0);
    }
  }

  private drawBases(): Uint8Array<ArrayBuffer> {
    const bases = new Uint8Array(this.invocations * 32);
    for (let o = 0; o < bases.length; o += RANDOM_CHUNK) this.random(bases.subarray(o, Math.min(bases.length, o + RANDOM_CHUNK)));
    return bases;
  }

  /** Tests: what the base buffer holds now (zeros once a dispatch has finished). */
  readBaseBuffer(): Promise<Uint32Array> {
    return readBuffer(this.device, this.buffers.bases);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.nextBases?.fill(0);
    this.nextBases = null;
    for (const b of Object.values(this.buffers)) b.destroy();
    this.traceBuffer.destroy();
  }
}

/**
 * Work sizes that suit an adapter for the Solana kernel (a candidate costs about 20 Ethereum candidates). On a
 * GPU the 11-bit comb (24 windows instead of 32: fewer additions per key, a 2.4 MB table built once in about
 * 0.4 s) measured 109 M keys/s on an NVIDIA H200 against 89 M/s with 8 bits at the same size
 * (docs/gpu-grinder.md#one-nvidia-h200); a software adapter keeps the small table.
 */
export function defaultSolanaWorkSize(software: boolean): { invocations: number; batch: number; windowBits: number } {
  return software ? { invocations: 128, batch: 8, windowBits: 8 } : { invocations: 65_536, batch: 16, windowBits: 11 };
}
