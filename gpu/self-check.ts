// The GPU's self-check, run before a kernel grinds (the CLI, the orders loop and the /grind page): the CPU's
// re-derivation of every hit catches a GPU that reports a wrong key, but not one that misses matches, so a card
// that drops hits would grind on unnoticed, slower than it says. Two parts, on a small grinder of the same
// compiled kernel (only the number of invocations differs, which the kernel reads at run time):
//
// 1. A known-answer dispatch: chosen start scalars (Ethereum) or bases (Solana), edge ones among them, replayed
//    into the grinder's CSPRNG; the dispatch is traced and every candidate's address compared with @noble/curves.
// 2. A short grind of a prefix, a suffix and a case-insensitive (Solana) or EIP-55 (Ethereum) pattern from the
//    same starts: each invocation's reported hit must be exactly the first match a CPU scan of the same
//    candidates (noble's addresses, in the kernel's order) finds, and no invocation may report one the scan
//    does not find. The patterns are sized so that most invocations have a match well inside their walk.
//
// Any difference throws GpuSelfCheckError with the first one found; callers stop using the GPU.
/// <reference types="@webgpu/types" />
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { base58 } from "@scure/base";
import { matchesAddress, type PatternSpec } from "../schema/grind-pattern.ts";
import { toChecksumAddress } from "../scripts/grind/verify.ts";
import { publicKeyOf } from "../schema/split-key.ts";
import { BETA } from "./grind.wgsl.ts";
import { GpuGrinder, type RunResult } from "./grinder.ts";
import type { CorruptReadback } from "./kernel-host.ts";
import { candidateSeed, type SolanaRunResult, SolanaGpuGrinder } from "./solana-grinder.ts";
import { CURVE_N, cryptoRandom, MAX_RUN_POINTS, type RandomSource } from "./start.ts";

export class GpuSelfCheckError extends Error {
  override name = "GpuSelfCheckError";
}

export type SelfCheckResult = {
  /** candidates the known-answer dispatch compared with @noble/curves */
  traced: number;
  /** per pattern: its description and the hits the GPU reported (all equal to the CPU scan's) */
  patterns: { pattern: string; hits: number }[];
  ms: number;
};

const Point = secp256k1.Point;
const P = Point.Fp.ORDER;

/** Lower-case hex address (40) of the point (x, y). */
function ethAddress(x: bigint, y: bigint): string {
  const bytes = new Uint8Array(64);
  const hex = x.toString(16).padStart(64, "0") + y.toString(16).padStart(64, "0");
  for (let b = 0; b < 64; b++) bytes[b] = Number.parseInt(hex.slice(2 * b, 2 * b + 2), 16);
  let out = "";
  for (const b of keccak_256(bytes).subarray(12)) out += b.toString(16).padStart(2, "0");
  return out;
}

/** A CSPRNG stand-in that hands out the given byte strings, one per call. */
function replayBytes(calls: Uint8Array[]): RandomSource {
  let i = 0;
  return (bytes) => {
    if (i >= calls.length) throw new GpuSelfCheckError("the self-check's grinder drew more random bytes than it was given");
    bytes.set(calls[i++]);
  };
}

const scalarBytes = (k: bigint) => {
  const hex = k.toString(16).padStart(64, "0");
  return Uint8Array.from({ length: 32 }, (_, b) => Number.parseInt(hex.slice(2 * b, 2 * b + 2), 16));
};

const describeSpec = (s: PatternSpec) =>
  [s.prefix && `prefix ${s.prefix}`, s.suffix && `suffix ${s.suffix}`].filter(Boolean).join(" and ") + (s.caseSensitive ? " (case-sensitive)" : "");

export type EthereumSelfCheckConfig = {
  halfBatch: number;
  workgroupSize?: number;
  /** invocations of the check (default 32): each walks one batch, 2·halfBatch + 1 points, six candidates each */
  invocations?: number;
  random?: RandomSource;
  corrupt?: CorruptReadback;
  /**
   * also a known-answer dispatch of the split-key seed pass (custom orders: runs start at A + k·G), with an A of
   * the check's own (the order's A differs per order; the check is kept per configuration)
   */
  splitKey?: boolean;
};

/**
 * The Ethereum kernel's self-check for a kernel configuration (HALF, workgroup size). Start scalars: the range's
 * two ends (the lowest walks through 1·G), scalars with long runs of 0 and f digits (the seed comb's edge digits),
 * and the rest from the CSPRNG.
 */
export async function ethereumSelfCheck(device: GPUDevice, config: EthereumSelfCheckConfig): Promise<SelfCheckResult> {
  const began = performance.now();
  const half = config.halfBatch;
  const n = config.invocations ?? 32;
  const random = config.random ?? cryptoRandom;
  const stride = 2 * half + 1;
  const edges = [
    BigInt(half + 1),
    CURVE_N - MAX_RUN_POINTS - BigInt(half) - 1n,
    1n << 255n,
    (1n << 200n) + BigInt(half),
    (1n << 128n) - 1n,
    0x0f0f0f0fn << 160n,
  ];
  const scalars: bigint[] = [];
  for (let t = 0; t < n; t++) {
    if (t < edges.length) {
      scalars.push(edges[t]);
      continue;
    }
    const bytes = new Uint8Array(32);
    random(bytes);
    // any scalar in the range will do: the check's keys are never used
    const k = BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`) % (CURVE_N - MAX_RUN_POINTS - BigInt(2 * half + 2));
    scalars.push(k + BigInt(half + 1));
  }
  const make = (pattern: PatternSpec, publicKey?: string) =>
    GpuGrinder.create(device, {
      pattern,
      publicKey,
      invocations: n,
      halfBatch: half,
      ...(config.workgroupSize === undefined ? {} : { workgroupSize: config.workgroupSize }),
      maxHits: n,
      random: replayBytes(scalars.map(scalarBytes)),
      corrupt: config.corrupt,
    });

  // noble's addresses of every candidate, in the trace's order: (invocation, point k - HALF + j, variant);
  // `a` is a split-key order's secret (runs start at A + k·G = (a + k)·G)
  const walks = (a: bigint) => scalars.map((k) => walkAddresses(Point.BASE.multiply((a + k - BigInt(half)) % CURVE_N), stride));
  const addresses = walks(0n);
  const noPattern: PatternSpec = { network: "ethereum", prefix: "f0e1d2c3b4a5", suffix: "", caseSensitive: false };
  const knownAnswer = async (what: string, a: bigint, want: string[][]) => {
    const traced = await runOnce(await make(noPattern, a ? publicKeyOf(a) : undefined), true);
    if (!traced.trace) throw new GpuSelfCheckError(`${what}: the dispatch returned no trace`);
    if (traced.hits.length) throw new GpuSelfCheckError(`${what}: ${traced.hits.length} hit(s) reported for a pattern none of its candidates matches`);
    for (let t = 0; t < n; t++) {
      for (let i = 0; i < stride * 6; i++) {
        let got = "";
        for (let w = 0; w < 5; w++) {
          const v = traced.trace[(t * stride * 6 + i) * 5 + w];
          for (let b = 0; b < 4; b++) got += ((v >>> (8 * b)) & 255).toString(16).padStart(2, "0");
        }
        if (got !== want[t][i]) {
          const point = Math.floor(i / 6) - half;
          throw new GpuSelfCheckError(
            `${what}: invocation ${t}, key 0x${scalars[t].toString(16)} ${point < 0 ? "-" : "+"} ${Math.abs(point)}, variant ${i % 6}: the GPU computed address 0x${got}, @noble/curves 0x${want[t][i]}`,
          );
        }
      }
    }
  };

  // 1. the known-answer dispatch (a pattern no candidate matches: 12 nibbles, about 2^-48 each), and the
  // split-key seed pass's with a fresh A
  await knownAnswer("known answer", 0n, addresses);
  if (config.splitKey) {
    const bytes = new Uint8Array(32);
    random(bytes);
    const a = (BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`) % (CURVE_N - 1n)) + 1n;
    await knownAnswer("known answer (split-key, A + k·G)", a, walks(a));
  }

  // 2. a short grind per pattern, against a CPU scan in the kernel's order: offsets +i, -i for i = HALF..1, then the centre
  const order = [...Array.from({ length: half }, (_, k) => half - k).flatMap((i) => [i, -i]), 0];
  // about one match per 16^nibbles candidates: nibbles chosen so that most invocations find one inside their batch
  const nibbles = Math.max(1, Math.floor(Math.log(stride * 6) / Math.log(16)));
  const specs: PatternSpec[] = [
    { network: "ethereum", prefix: "c0ffee".slice(0, nibbles), suffix: "", caseSensitive: false },
    { network: "ethereum", prefix: "", suffix: "bad5eed".slice(0, nibbles), caseSensitive: false },
    { network: "ethereum", prefix: "Ab".slice(0, nibbles), suffix: "", caseSensitive: true },
  ];
  const patterns: SelfCheckResult["patterns"] = [];
  for (const spec of specs) {
    const r = await runOnce(await make(spec), false);
    const what = describeSpec(spec);
    if (r.dropped) throw new GpuSelfCheckError(`${what}: the hit buffer overflowed (${r.dropped} hit(s) dropped) with one slot per invocation`);
    for (let t = 0; t < n; t++) {
      let first: { offset: number; variant: number } | null = null;
      search: for (const offset of order) {
        for (let v = 0; v < 6; v++) {
          const address = addresses[t][(offset + half) * 6 + v];
          // the checksum (a keccak) only where case counts
          if (matchesAddress(spec, spec.caseSensitive ? toChecksumAddress(address) : `0x${address}`)) {
            first = { offset, variant: v };
            break search;
          }
        }
      }
      const hit = r.hits.find((h) => h.invocation === t);
      const at = (o: { offset: number; variant: number }) => `key + ${o.offset} variant ${o.variant}`;
      if (!hit && !first) continue;
      if (!hit) throw new GpuSelfCheckError(`${what}: invocation ${t}: the GPU missed a match a CPU scan finds (${at(first!)})`);
      const offset = Number(hit.scalar - scalars[t]);
      if (!first)
        throw new GpuSelfCheckError(`${what}: invocation ${t}: the GPU reported ${at({ offset, variant: hit.variant })}, which a CPU scan does not match`);
      if (offset !== first.offset || hit.variant !== first.variant)
        throw new GpuSelfCheckError(`${what}: invocation ${t}: the GPU reported ${at({ offset, variant: hit.variant })}, a CPU scan finds ${at(first)} first`);
      const want = addresses[t][(offset + half) * 6 + hit.variant];
      if (hit.address !== want)
        throw new GpuSelfCheckError(`${what}: invocation ${t}: the GPU's hit carries address 0x${hit.address}, @noble/curves 0x${want}`);
    }
    patterns.push({ pattern: what, hits: r.hits.length });
  }
  return { traced: n * stride * 6 * (config.splitKey ? 2 : 1), patterns, ms: performance.now() - began };
}

/** Addresses of the six variants of `stride` consecutive points from `start`, point by point. */
function walkAddresses(start: InstanceType<typeof Point>, stride: number): string[] {
  const out: string[] = [];
  let pt = start;
  for (let j = 0; j < stride; j++) {
    const { x, y } = pt.toAffine();
    const bx = (BETA * x) % P;
    const b2x = (((P - x - bx) % P) + P) % P;
    for (const [px, py] of [
      [x, y],
      [x, P - y],
      [bx, y],
      [bx, P - y],
      [b2x, y],
      [b2x, P - y],
    ])
      out.push(ethAddress(px, py));
    pt = pt.add(Point.BASE);
  }
  return out;
}

async function runOnce<R extends RunResult | SolanaRunResult>(
  g: { run(b: number, o: { trace: boolean }): Promise<R>; destroy(): void },
  trace: boolean,
  batches = 1,
) {
  try {
    return await g.run(batches, { trace });
  } finally {
    g.destroy();
  }
}

export type SolanaSelfCheckConfig = {
  batch: number;
  windowBits: number;
  workgroupSize?: number;
  sharedInversion?: boolean;
  /** invocations of the check (default 32), each with 32 candidates (batches of `batch`) */
  invocations?: number;
  random?: RandomSource;
  corrupt?: CorruptReadback;
};

/**
 * The Solana kernel's self-check for a kernel configuration (batch, comb window, workgroup size). Bases: all
 * zeros, all 0xff, one byte set at each end, and the rest from the CSPRNG (a candidate's scalar is a SHA-512
 * output of its base, so bases, not scalars, are what can be chosen).
 */
export async function solanaSelfCheck(device: GPUDevice, config: SolanaSelfCheckConfig): Promise<SelfCheckResult> {
  const began = performance.now();
  const n = config.invocations ?? 32;
  const random = config.random ?? cryptoRandom;
  const batches = Math.max(1, Math.ceil(32 / config.batch));
  const per = batches * config.batch;
  const bases = new Uint8Array(32 * n);
  random(bases);
  const edges = [
    new Uint8Array(32),
    new Uint8Array(32).fill(255),
    Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0)),
    Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0)),
  ];
  edges.slice(0, n).forEach((e, t) => bases.set(e, 32 * t));
  const base = (t: number) => bases.subarray(32 * t, 32 * t + 32);
  const make = (pattern: PatternSpec) =>
    SolanaGpuGrinder.create(device, {
      pattern,
      invocations: n,
      batch: config.batch,
      windowBits: config.windowBits,
      ...(config.workgroupSize === undefined ? {} : { workgroupSize: config.workgroupSize }),
      sharedInversion: config.sharedInversion ?? false,
      maxHits: n,
      // this dispatch's bases, then the next dispatch's (drawn while it runs, never used)
      random: replayBytes([bases, new Uint8Array(32 * n)]),
      corrupt: config.corrupt,
    });

  // noble's public key of every candidate, from its seed SHA-512(base || j)
  const keys = Array.from({ length: n }, (_, t) => Array.from({ length: per }, (_, j) => ed25519.getPublicKey(candidateSeed(base(t), j))));

  // 1. the known-answer dispatch (a suffix of eight 'z': 58^-8 per candidate)
  const traced = await runOnce(await make({ network: "solana", prefix: "", suffix: "zzzzzzzz", caseSensitive: true }), true, batches);
  if (!traced.trace) throw new GpuSelfCheckError("the known-answer dispatch returned no trace");
  if (traced.hits.length)
    throw new GpuSelfCheckError(`the known-answer dispatch reported ${traced.hits.length} hit(s) for a pattern none of its candidates matches`);
  const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  for (let t = 0; t < n; t++) {
    for (let j = 0; j < per; j++) {
      const got = new Uint8Array(32);
      const view = new DataView(got.buffer);
      for (let k = 0; k < 8; k++) view.setUint32(4 * k, traced.trace[(t * per + j) * 8 + k], true);
      const want = keys[t][j];
      if (hex(got) !== hex(want))
        throw new GpuSelfCheckError(
          `known answer: invocation ${t} (base ${hex(base(t)).slice(0, 16)}…), candidate ${j}: the GPU computed public key ${hex(got)}, @noble/curves ${hex(want)}`,
        );
    }
  }

  // 2. a short grind per pattern against a CPU scan in the kernel's order (batch by batch, each from its last
  // candidate down); patterns of about one match in 30-60 candidates, so about half the invocations find one
  const order = Array.from({ length: batches }, (_, b) => Array.from({ length: config.batch }, (_, k) => b * config.batch + config.batch - 1 - k)).flat();
  const addresses = keys.map((row) => row.map((k) => base58.encode(k)));
  const specs: PatternSpec[] = [
    { network: "solana", prefix: "H", suffix: "", caseSensitive: true },
    { network: "solana", prefix: "", suffix: "z", caseSensitive: true },
    { network: "solana", prefix: "", suffix: "x", caseSensitive: false },
    { network: "solana", prefix: "a", suffix: "", caseSensitive: false },
  ];
  const patterns: SelfCheckResult["patterns"] = [];
  for (const spec of specs) {
    const r = await runOnce(await make(spec), false, batches);
    const what = describeSpec(spec);
    if (r.dropped) throw new GpuSelfCheckError(`${what}: the hit buffer overflowed (${r.dropped} hit(s) dropped) with one slot per invocation`);
    for (let t = 0; t < n; t++) {
      const first = order.find((j) => matchesAddress(spec, addresses[t][j]));
      const hit = r.hits.find((h) => h.invocation === t);
      if (!hit && first === undefined) continue;
      if (!hit) throw new GpuSelfCheckError(`${what}: invocation ${t}: the GPU missed a match a CPU scan finds (candidate ${first}, ${addresses[t][first!]})`);
      if (first === undefined)
        throw new GpuSelfCheckError(
          `${what}: invocation ${t}: the GPU reported candidate ${hit.candidate} (${base58.encode(hit.publicKey)}), which a CPU scan does not match`,
        );
      if (hit.candidate !== first)
        throw new GpuSelfCheckError(`${what}: invocation ${t}: the GPU reported candidate ${hit.candidate}, a CPU scan finds candidate ${first} first`);
      if (hex(hit.publicKey) !== hex(keys[t][first]))
        throw new GpuSelfCheckError(`${what}: invocation ${t}: the GPU's hit carries public key ${hex(hit.publicKey)}, @noble/curves ${hex(keys[t][first])}`);
    }
    patterns.push({ pattern: what, hits: r.hits.length });
  }
  return { traced: n * per, patterns, ms: performance.now() - began };
}

/** One line for a log: what the self-check compared. */
export function describeSelfCheck(r: SelfCheckResult): string {
  return `GPU self-check passed in ${(r.ms / 1000).toFixed(1)}s: ${r.traced.toLocaleString("en-US")} candidates equal @noble/curves', and ${r.patterns
    .map((p) => `${p.pattern}: ${p.hits} hit(s)`)
    .join(", ")} equal a CPU scan of the same candidates`;
}
