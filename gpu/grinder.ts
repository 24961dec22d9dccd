// The host side of the Ethereum GPU grinder, the same in Node (Dawn) and in the browser: buffers, the start of
// every run, dispatches, and turning hit records back into scalars (what both networks share: kernel-host.ts).
// It never decides that a key is good: callers re-derive every hit's address from its key with @noble/curves
// (scripts/grind/verify.ts, the orders loop, the browser page) and treat a mismatch as a kernel fault.
/// <reference types="@webgpu/types" />
import { CURVE_ORDER, parsePublicKey, SPLIT_KEY_VARIANTS } from "../schema/split-key.ts";
import { toWords } from "./field.wgsl.ts";
import { DEGENERATE_VARIANT, grinderWgsl, HIT_WORDS, type KernelConfig, PARAMS_WORDS, SEED_WORDS, STATE_WORDS, STATUS_DEAD } from "./grind.wgsl.ts";
import { keccakConstantWords } from "./keccak.wgsl.ts";
import { patternParams, type GpuPattern } from "./pattern.ts";
import {
  buildPipelines,
  compiledOnce,
  compileModule,
  type CorruptReadback,
  droppedHits,
  GpuKernelError,
  hitRecords,
  readBuffer,
  storageRw,
} from "./kernel-host.ts";
import { comb, cryptoRandom, MAX_RUN_POINTS, randomStartScalar, type RandomSource, walkTable } from "./start.ts";

export type GrinderConfig = {
  pattern: GpuPattern;
  /** invocations, each walking its own run */
  invocations: number;
  /** points each side of a batch's centre: one inversion serves 2·halfBatch + 1 points (default 128) */
  halfBatch?: number;
  workgroupSize?: number;
  /** a split-key order's public key A (0x + 66 hex): runs start at A + k·G and hits are offsets */
  publicKey?: string;
  /** the CSPRNG for start scalars (tests inject one to watch it) */
  random?: RandomSource;
  /** hit records one dispatch can return (more hits wait for the next dispatch) */
  maxHits?: number;
  /** the longest run before an invocation restarts from a fresh scalar (default MAX_RUN_POINTS; tests shorten it) */
  maxRunPoints?: number;
  /** sees every start scalar as it is drawn (the entropy tests) */
  onStart?: (invocation: number, scalar: bigint) => void;
  /** tests only: changes what a dispatch read back from the GPU (hit records or trace), as a faulty GPU would */
  corrupt?: CorruptReadback;
};

export type GpuHit = {
  invocation: number;
  /** the walked scalar: the key of the point (plain) or the offset k from A (split-key), before the variant */
  scalar: bigint;
  /** which of the six points matched (schema/split-key.ts SPLIT_KEY_VARIANTS) */
  variant: number;
  /** the address the GPU hashed: 40 lower-case hex characters */
  address: string;
};

export type RunResult = {
  /** candidates the dispatch checked: live invocations × batches × (2·halfBatch + 1) × 6 */
  candidates: number;
  hits: GpuHit[];
  /**
   * hits the GPU found that the full hit buffer could not hold (its counter past maxHits): not reported, so
   * not revealed; their invocations walk on (Ethereum) or stop for this dispatch (Solana)
   */
  dropped: number;
  /** invocations restarted (after a hit, a degenerate case or a run's length limit) before this dispatch */
  reseeded: number;
  /** run(batches, { trace: true }): every candidate's address words, in (invocation, batch, point, variant) order */
  trace?: Uint32Array;
};

/** The private key of a plain hit (0x + 64 hex): the variant's factor times the walked scalar, mod n. */
export function hitPrivateKey(hit: GpuHit): string {
  const factor = SPLIT_KEY_VARIANTS[hit.variant].factor;
  return "0x" + ((factor * hit.scalar) % CURVE_ORDER).toString(16).padStart(64, "0");
}

// (read when used: in Node the GPU* globals exist only once Dawn is loaded)
type Pipelines = { grind: GPUComputePipeline; seed: GPUComputePipeline; layout: GPUBindGroupLayout };
/** The seed and grind pipelines for a kernel configuration, compiled once per device. */
function grinderPipelines(device: GPUDevice, config: KernelConfig): Promise<Pipelines> {
  return compiledOnce(device, `ethereum ${JSON.stringify(config)}`, () => compilePipelines(device, config));
}

async function compilePipelines(device: GPUDevice, config: KernelConfig): Promise<Pipelines> {
  const module = await compileModule(device, grinderWgsl(config));
  const entry = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } });
  const layout = device.createBindGroupLayout({
    entries: [
      entry(0, "uniform"),
      entry(1, "read-only-storage"),
      entry(2, "read-only-storage"),
      entry(3, "read-only-storage"),
      entry(4, "storage"),
      entry(5, "storage"),
      entry(6, "storage"),
      entry(7, "uniform"),
    ],
  });
  const pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [layout] });
  const [grind, seed] = await buildPipelines(device, module, pipelineLayout, ["grind", "seed"]);
  return { grind, seed, layout };
}

export class GpuGrinder {
  readonly invocations: number;
  readonly halfBatch: number;
  readonly workgroupSize: number;
  /** candidates one invocation checks per batch */
  readonly perBatch: number;
  private readonly device: GPUDevice;
  private readonly random: RandomSource;
  private readonly maxHits: number;
  private readonly params = new Uint32Array(PARAMS_WORDS);
  private readonly buffers: Record<"params" | "walk" | "comb" | "seeds" | "state" | "hits" | "read" | "consts", GPUBuffer>;
  /** bound at binding 6; a 16-byte stand-in until a traced run needs more */
  private traceBuffer: GPUBuffer;
  private traceCapacity = 0;
  private readonly bindGroupLayout: GPUBindGroupLayout;
  private bindGroup: GPUBindGroup;
  private readonly grindPipeline: GPUComputePipeline;
  private readonly seedPipeline: GPUComputePipeline;
  /** per invocation: the scalar its run started from, and `walked` at that moment */
  private readonly starts: bigint[];
  private readonly startedAt: Float64Array;
  /** points every live run has advanced since the grinder was made */
  private walked = 0;
  private readonly pending = new Set<number>();
  private readonly maxRunPoints: number;
  private destroyed = false;
  private readonly onStart: ((invocation: number, scalar: bigint) => void) | undefined;
  private readonly corrupt: CorruptReadback | undefined;

  private constructor(
    device: GPUDevice,
    config: Required<Omit<GrinderConfig, "publicKey" | "onStart" | "corrupt">> & Pick<GrinderConfig, "publicKey" | "onStart" | "corrupt">,
    pipelines: Pipelines,
  ) {
    this.device = device;
    this.halfBatch = config.halfBatch;
    this.workgroupSize = config.workgroupSize;
    this.invocations = config.invocations;
    this.perBatch = (2 * this.halfBatch + 1) * 6;
    this.random = config.random;
    this.maxHits = config.maxHits;
    this.maxRunPoints = config.maxRunPoints;
    this.onStart = config.onStart;
    this.corrupt = config.corrupt;
    this.grindPipeline = pipelines.grind;
    this.seedPipeline = pipelines.seed;
    this.bindGroupLayout = pipelines.layout;
    const n = this.invocations;
    this.starts = new Array<bigint>(n).fill(0n);
    this.startedAt = new Float64Array(n);
    for (let t = 0; t < n; t++) this.pending.add(t);

    const walk = walkTable(this.halfBatch);
    const combTable = comb();
    const buffer = (size: number, usage: number) => device.createBuffer({ size: Math.max(16, Math.ceil(size / 4) * 4), usage });
    this.buffers = {
      params: buffer(PARAMS_WORDS * 4, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST),
      walk: buffer(walk.byteLength, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST),
      comb: buffer(combTable.byteLength, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST),
      seeds: buffer(n * SEED_WORDS * 4, storageRw()),
      state: buffer(n * STATE_WORDS * 4, storageRw()),
      hits: buffer(4 + this.maxHits * HIT_WORDS * 4, storageRw()),
      read: buffer(4 + this.maxHits * HIT_WORDS * 4, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST),
      consts: buffer(48 * 4, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST),
    };
    this.traceBuffer = buffer(16, storageRw());
    device.queue.writeBuffer(this.buffers.consts, 0, keccakConstantWords());
    device.queue.writeBuffer(this.buffers.walk, 0, walk);
    device.queue.writeBuffer(this.buffers.comb, 0, combTable);
    // every invocation starts dead: the first run() seeds them all
    const status = new Uint32Array(n).fill(STATUS_DEAD);
    device.queue.writeBuffer(this.buffers.state, 16 * n * 4, status);

    const pp = patternParams(config.pattern);
    const p = this.params;
    p[0] = n;
    p[3] = this.maxHits;
    p[4] = pp.mirror;
    p[5] = pp.caseMode;
    p.set(pp.mask.subarray(0, 4), 8);
    p.set(pp.value.subarray(0, 4), 12);
    p[16] = pp.mask[4];
    p[20] = pp.value[4];
    p.set(pp.mirrorMask.subarray(0, 4), 24);
    p[28] = pp.mirrorMask[4];
    p.set(pp.caseMask, 32);
    p.set(pp.caseUpper, 36);
    if (config.publicKey !== undefined) {
      const a = parsePublicKey(config.publicKey).toAffine();
      p[6] = 1;
      toWords(a.x, p, 40);
      toWords(a.y, p, 48);
    }
    this.bindGroup = this.makeBindGroup();
  }

  /** Compiles the kernels for this configuration and uploads the tables. */
  static async create(device: GPUDevice, config: GrinderConfig): Promise<GpuGrinder> {
    const full = {
      halfBatch: 128,
      workgroupSize: 64,
      random: cryptoRandom,
      maxHits: 256,
      maxRunPoints: Number(MAX_RUN_POINTS),
      ...config,
    };
    if (!Number.isInteger(full.halfBatch) || full.halfBatch < 1 || full.halfBatch > 512) throw new RangeError("halfBatch must be 1..512");
    if (!(full.maxRunPoints > 0 && full.maxRunPoints <= Number(MAX_RUN_POINTS))) throw new RangeError("maxRunPoints must be in 1..2^48");
    if (!Number.isInteger(full.invocations) || full.invocations < 1) throw new RangeError("invocations must be a positive whole number");
    if (Math.ceil(full.invocations / full.workgroupSize) > device.limits.maxComputeWorkgroupsPerDimension)
      throw new RangeError("too many invocations for one dispatch");
    patternParams(full.pattern); // throws on a bad pattern before anything is compiled
    const pipelines = await grinderPipelines(device, { halfBatch: full.halfBatch, workgroupSize: full.workgroupSize });
    return new GpuGrinder(device, full, pipelines);
  }

  private makeBindGroup(): GPUBindGroup {
    const b = this.buffers;
    const entries: GPUBindGroupEntry[] = [b.params, b.walk, b.comb, b.seeds, b.state, b.hits, this.traceBuffer, b.consts].map((buffer, binding) => ({
      binding,
      resource: { buffer },
    }));
    return this.device.createBindGroup({ layout: this.bindGroupLayout, entries });
  }

  /**
   * One dispatch: restarts the invocations that need it, then every invocation walks `batches` batches.
   * Returns what it checked and the hits, each with the scalar the host reconstructs from the run's start.
   */
  async run(batches: number, { trace = false }: { trace?: boolean } = {}): Promise<RunResult> {
    if (this.destroyed) throw new Error("this grinder was destroyed");
    if (!Number.isInteger(batches) || batches < 1) throw new RangeError("batches must be a positive whole number");
    const n = this.invocations;
    const stride = 2 * this.halfBatch + 1;
    // a run that would pass maxRunPoints starts again instead
    const limit = this.maxRunPoints - batches * stride;
    for (let t = 0; t < n; t++) if (this.walked - this.startedAt[t] > limit) this.pending.add(t);
    const reseeded = this.pending.size;
    const seeds = new Uint32Array(reseeded * SEED_WORDS);
    let e = 0;
    for (const t of this.pending) {
      const k = randomStartScalar(this.halfBatch, this.random);
      this.onStart?.(t, k);
      this.starts[t] = k;
      this.startedAt[t] = this.walked;
      seeds[e * SEED_WORDS] = t;
      toWords(k, seeds, e * SEED_WORDS + 1);
      e++;
    }
    this.pending.clear();

    const traceWords = trace ? n * batches * this.perBatch * 5 : 0;
    if (traceWords > this.traceCapacity) {
      this.traceBuffer.destroy();
      this.traceBuffer = this.device.createBuffer({ size: traceWords * 4, usage: storageRw() });
      this.traceCapacity = traceWords;
      this.bindGroup = this.makeBindGroup();
    }

    const p = this.params;
    p[1] = batches;
    p[2] = reseeded;
    p[7] = trace ? 1 : 0;
    const q = this.device.queue;
    q.writeBuffer(this.buffers.params, 0, p);
    // writeBuffer has copied the scalars: the host's staging copy goes now (the run's start stays in
    // this.starts, which turns hits into keys)
    if (reseeded) q.writeBuffer(this.buffers.seeds, 0, seeds);
    seeds.fill(0);
    const enc = this.device.createCommandEncoder();
    enc.clearBuffer(this.buffers.hits, 0, 4);
    if (reseeded) {
      const seedPass = enc.beginComputePass();
      seedPass.setBindGroup(0, this.bindGroup);
      seedPass.setPipeline(this.seedPipeline);
      seedPass.dispatchWorkgroups(Math.ceil(reseeded / this.workgroupSize));
      seedPass.end();
      // the start scalars do not stay in GPU memory once their points are made
      enc.clearBuffer(this.buffers.seeds, 0, reseeded * SEED_WORDS * 4);
    }
    const pass = enc.beginComputePass();
    pass.setBindGroup(0, this.bindGroup);
    pass.setPipeline(this.grindPipeline);
    pass.dispatchWorkgroups(Math.ceil(n / this.workgroupSize));
    pass.end();
    enc.copyBufferToBuffer(this.buffers.hits, 0, this.buffers.read, 0, this.buffers.read.size);
    let traceRead: GPUBuffer | null = null;
    if (trace) {
      traceRead = this.device.createBuffer({ size: traceWords * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      enc.copyBufferToBuffer(this.traceBuffer, 0, traceRead, 0, traceWords * 4);
    }
    q.submit([enc.finish()]);

    await this.buffers.read.mapAsync(GPUMapMode.READ);
    const words = new Uint32Array(this.buffers.read.getMappedRange().slice(0));
    this.buffers.read.unmap();
    let traced: Uint32Array | undefined;
    if (traceRead) {
      await traceRead.mapAsync(GPUMapMode.READ);
      traced = new Uint32Array(traceRead.getMappedRange().slice(0));
      traceRead.unmap();
      traceRead.destroy();
    }
    this.corrupt?.(words, "hits");
    if (traced) this.corrupt?.(traced, "trace");

    const hits: GpuHit[] = [];
    for (const record of hitRecords(words, HIT_WORDS, this.maxHits, n)) {
      const t = record[0];
      const variant = record[3];
      this.pending.add(t);
      if (variant === DEGENERATE_VARIANT) continue;
      if (variant > 5) throw new GpuKernelError(`hit record has variant ${variant}`);
      const offset = record[2] | 0;
      const scalar = this.starts[t] + BigInt(this.walked - this.startedAt[t] + record[1] * stride + offset);
      let address = "";
      for (let b = 12; b < 32; b++) address += ((record[(b >> 2) + 1] >>> (8 * (b & 3))) & 255).toString(16).padStart(2, "0");
      hits.push({ invocation: t, scalar, variant, address });
    }
    this.walked += batches * stride;
    return { candidates: n * batches * this.perBatch, hits, dropped: droppedHits(words, this.maxHits), reseeded, trace: traced };
  }

  /** Tests: each invocation's current centre (affine x, y) and status, read back from the GPU. */
  async readState(): Promise<{ x: bigint; y: bigint; status: number }[]> {
    const n = this.invocations;
    const size = n * STATE_WORDS * 4;
    const read = this.device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const enc = this.device.createCommandEncoder();
    enc.copyBufferToBuffer(this.buffers.state, 0, read, 0, size);
    this.device.queue.submit([enc.finish()]);
    await read.mapAsync(GPUMapMode.READ);
    const w = new Uint32Array(read.getMappedRange().slice(0));
    read.unmap();
    read.destroy();
    const word = (plane: number, t: number) => BigInt(w[plane * n + t]);
    return Array.from({ length: n }, (_, t) => {
      let x = 0n;
      let y = 0n;
      for (let j = 7; j >= 0; j--) {
        x = (x << 32n) | word(j, t);
        y = (y << 32n) | word(8 + j, t);
      }
      return { x, y, status: w[16 * n + t] };
    });
  }

  /** Tests: what the start-scalar buffer holds now (zeros once the seed pass has run). */
  readSeedBuffer(): Promise<Uint32Array> {
    return readBuffer(this.device, this.buffers.seeds);
  }

  /** Tests: the scalar invocation t's current centre stands for (its start plus what it has walked). */
  centreScalar(t: number): bigint {
    return this.starts[t] + BigInt(this.walked - this.startedAt[t]);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const b of Object.values(this.buffers)) b.destroy();
    this.traceBuffer.destroy();
  }
}

/**
 * Work sizes that suit an adapter. A real GPU needs tens of thousands of invocations in flight, and since an
 * invocation runs for the whole dispatch, their number decides how full the GPU's last wave of workgroups
 * is: 131,072 × HALF 128 was the best of the H200 sweep (2,822 M/s against 2,748 M/s at 65,536 and 2,727 M/s
 * at 262,144; docs/gpu-grinder.md#figures). HALF 256 does not build on NVIDIA (its private array is too large).
 */
export function defaultWorkSize(software: boolean): { invocations: number; halfBatch: number } {
  return software ? { invocations: 256, halfBatch: 32 } : { invocations: 131_072, halfBatch: 128 };
}
