// The host side of the GPU grinder, the same in Node (Dawn) and in the browser: buffers, the start of every
// run, dispatches, and turning hit records back into scalars. It never decides that a key is good: callers
// re-derive every hit's address from its key with @noble/curves (scripts/grind/verify.ts, the orders loop,
// the browser page) and treat a mismatch as a kernel fault.
/// <reference types="@webgpu/types" />
import { CURVE_ORDER, parsePublicKey, SPLIT_KEY_VARIANTS } from "../schema/split-key.ts";
import { toWords } from "./field.wgsl.ts";
import { DEGENERATE_VARIANT, grinderWgsl, HIT_WORDS, type KernelConfig, PARAMS_WORDS, SEED_WORDS, STATE_WORDS, STATUS_DEAD } from "./grind.wgsl.ts";
import { keccakConstantWords } from "./keccak.wgsl.ts";
import { patternParams, type GpuPattern } from "./pattern.ts";
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

/** A test hook: changes the words read back from the GPU before the host reads them. */
export type CorruptReadback = (words: Uint32Array, what: "hits" | "trace") => void;

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

// (read when used: in Node the GPU* globals exist only once Dawn is loaded)
type Pipelines = { grind: GPUComputePipeline; seed: GPUComputePipeline; layout: GPUBindGroupLayout };
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

/** The seed and grind pipelines for a kernel configuration, compiled once per device. */
function grinderPipelines(device: GPUDevice, config: KernelConfig): Promise<Pipelines> {
  return compiledOnce(device, `ethereum ${JSON.stringify(config)}`, () => compilePipelines(device, config));
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
 * Batches for the next dispatch, so that one takes about `targetMs`: long enough that the GPU's fixed costs per
 * dispatch are small, short enough for progress, stopping, and (in a browser) a responsive page and no GPU
 * watchdog. Grows at most 4x per step; at least 1.
 */
export function scaleBatches(batches: number, elapsedMs: number, targetMs: number, maxBatches = 4096): number {
  const scaled = Math.round((batches * targetMs) / Math.max(elapsedMs, 1));
  return Math.max(1, Math.min(maxBatches, batches * 4, scaled));
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
