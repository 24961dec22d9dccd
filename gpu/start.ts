// Where each GPU run starts, and the point tables the kernels read. All of it is computed with @noble/curves.
//
// Entropy (the Profanity lesson: its 32-bit seed made every key recoverable): every start scalar is 32
// fresh bytes from the platform's CSPRNG (crypto.getRandomValues in the browser and in Node), used as the
// scalar itself; nothing is expanded from a smaller seed, and no two runs share bytes. Runs cannot meet:
// a run covers at most MAX_RUN_POINTS + 2·HALF + 1 consecutive scalars from a uniform start, so two runs
// overlap with probability below 2·(2^48 + 2^10) / n < 2^-206, and S runs pairwise below S²·2^-207: even
// 2^40 runs (a GPU restarting a thousand runs a second for 35 years) stay below 2^-127. Keys inside one run
// are related (k + i, λk), so a run yields at most one key: the kernel stops an invocation at its first hit.
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { toLimbs } from "./field.wgsl.ts";
import { COMB_ENTRY, COMB_WINDOWS, TABLE_ENTRY } from "./grind.wgsl.ts";

const Point = secp256k1.Point;
export const CURVE_N = Point.Fn.ORDER;
/** The longest run an invocation walks before the host restarts it from a fresh scalar. */
export const MAX_RUN_POINTS = 2n ** 48n;

export type RandomSource = (bytes: Uint8Array) => void;
export const cryptoRandom: RandomSource = (bytes) => {
  crypto.getRandomValues(bytes);
};

/**
 * A start scalar: 32 bytes from `random`, big-endian, taken as they are when they fall in
 * [halfBatch + 1, n - MAX_RUN_POINTS - halfBatch - 1] (so no key of the run is 0 or wraps past n), else
 * drawn again (a chance of about 2^-127).
 */
export function randomStartScalar(halfBatch: number, random: RandomSource = cryptoRandom): bigint {
  const bytes = new Uint8Array(32);
  const min = BigInt(halfBatch) + 1n;
  const max = CURVE_N - MAX_RUN_POINTS - BigInt(halfBatch) - 1n;
  for (;;) {
    random(bytes);
    let k = 0n;
    for (const b of bytes) k = (k << 8n) | BigInt(b);
    bytes.fill(0);
    if (k >= min && k <= max) return k;
  }
}

const walkTables = new Map<number, Int32Array<ArrayBuffer>>();

/** Walk table: entry i < half is (i+1)·G, entry half is (2·half+1)·G; each as x, y, -y limbs. */
export function walkTable(half: number): Int32Array<ArrayBuffer> {
  let table = walkTables.get(half);
  if (table) return table;
  table = new Int32Array((half + 1) * TABLE_ENTRY);
  const p = Point.Fp.ORDER;
  let pt = Point.BASE;
  for (let i = 0; i <= half; i++) {
    const { x, y } = (i === half ? Point.BASE.multiply(BigInt(2 * half + 1)) : pt).toAffine();
    toLimbs(x, table, i * TABLE_ENTRY);
    toLimbs(y, table, i * TABLE_ENTRY + 20);
    toLimbs(p - y, table, i * TABLE_ENTRY + 40);
    pt = pt.add(Point.BASE);
  }
  walkTables.set(half, table);
  return table;
}

let combTable: Int32Array<ArrayBuffer> | null = null;

/** Comb table: window w (0..63), digit d (1..15) holds d·16^w·G as x, y limbs. */
export function comb(): Int32Array<ArrayBuffer> {
  if (combTable) return combTable;
  const table = new Int32Array(COMB_WINDOWS * 15 * COMB_ENTRY);
  let windowBase = Point.BASE;
  for (let w = 0; w < COMB_WINDOWS; w++) {
    let pt = windowBase;
    for (let d = 1; d <= 15; d++) {
      const { x, y } = pt.toAffine();
      const o = (w * 15 + d - 1) * COMB_ENTRY;
      toLimbs(x, table, o);
      toLimbs(y, table, o + 20);
      pt = pt.add(windowBase);
    }
    windowBase = pt; // 16 · windowBase
  }
  combTable = table;
  return table;
}
