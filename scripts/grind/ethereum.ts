// Ethereum vanity search: incremental affine point addition with batched inversion.
//
// A chain starts at a random key k (crypto.randomBytes) and C = k·G. A batch checks C and
// C ± i·G for i = 1..B (private keys k and k ± i) using a precomputed table of i·G, then moves on
// to C + (2B+1)·G. All 2B+1 candidates (and the step to the next C) share ONE modular inversion
// (Montgomery's trick over x(i·G) - x(C)), so a candidate costs ~4.5 field multiplications plus
// one keccak-f. Field arithmetic runs on 11×24-bit float64 limbs (field.gen.ts); keccak of the
// 64-byte x||y is a hand-assembled WebAssembly kernel (keccak-wasm.gen.ts; the unrolled 32-bit JS
// kernel keccak.gen.ts does the same ~4.5x slower). The pattern is compared on the raw digest
// words (nibbles); only nibble matches get an EIP-55 checksum.
//
// Each computed point P = (x, y) also yields five more candidates for almost nothing: -P = (x, -y)
// (key -K) and the secp256k1 endomorphism λ·P = (β·x, y), λ²·P = (β²·x, y) (keys λK, λ²K) and their
// negations: 6 keccak-checked addresses per point for one extra field multiplication.
//
// Split-key orders (the `publicKey` option, docs/custom-orders.md): the chain starts at C = A + k·G for the buyer's public
// key A instead of k·G; everything else is identical, so the split-key search runs at the plain search's
// speed. A match reports the offset k and which of the six variants matched (schema/split-key.ts maps it
// back to the buyer's key); the grinder never learns a key.
//
// Keys sold separately must not be related (whoever buys k+i could otherwise walk to k+j), so a
// chain yields at most one match: after a match the search restarts from a new random k.
import { randomBytes } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { invert } from "@noble/curves/abstract/modular.js";
import { canon, fromBigInt, LIMBS, mul, P, sqr, sub, toBigInt, toWords } from "./field.ts";
import { keccak64 } from "./keccak.gen.ts";
import { createWasmKeccak } from "./keccak-wasm.ts";
import { matchesAddress, type PatternSpec } from "../../schema/grind-pattern.ts";
import { toChecksumAddress } from "./verify.ts";
import { parsePublicKey, scalarToHex } from "../../schema/split-key.ts";
import type { Found, Searcher, StepResult } from "./types.ts";

export const N_ORDER = secp256k1.Point.Fn.ORDER;

/** Nibble constraints on the digest words 3..7 (address = digest bytes 12..31). */
export function compileNibbleMatcher(pattern: PatternSpec): { word: Int32Array; mask: Int32Array; value: Int32Array } {
  const masks = new Map<number, [number, number]>();
  const body = pattern.prefix.toLowerCase().padEnd(40 - pattern.suffix.length, "?") + pattern.suffix.toLowerCase();
  for (let n = 0; n < 40; n++) {
    if (body[n] === "?") continue;
    const v = parseInt(body[n], 16);
    const hashByte = 12 + (n >> 1);
    const w = hashByte >> 2;
    const shift = 8 * (hashByte & 3) + (n % 2 === 0 ? 4 : 0);
    const [m, val] = masks.get(w) ?? [0, 0];
    masks.set(w, [m | (0xf << shift), val | (v << shift)]);
  }
  if (masks.size === 0) masks.set(3, [0, 0]); // mirror mode: no fixed nibbles
  // most selective word first: the prefix's first word, else the last word
  const order = [...masks.keys()].sort((a, b) => (pattern.prefix ? a - b : b - a));
  return {
    word: Int32Array.from(order),
    mask: Int32Array.from(order.map((w) => masks.get(w)![0])),
    value: Int32Array.from(order.map((w) => masks.get(w)![1])),
  };
}

// secp256k1 endomorphism: λ·(x, y) = (β·x, y), with β^3 = 1 (mod p) and λ^3 = 1 (mod n)
const BETA = 0x7ae96a2b657c07106e64479eac3434e99cf0497512f58995c1396c28719501een;
const LAMBDA = 0x5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72n;
{
  const g = secp256k1.Point.BASE.toAffine();
  const lg = secp256k1.Point.BASE.multiply(LAMBDA).toAffine();
  if (lg.x !== (BETA * g.x) % P || lg.y !== g.y) throw new Error("secp256k1 endomorphism constants do not pair");
}
/** Key factor of each variant: (x,y), (x,-y), (βx,y), (βx,-y), (β²x,y), (β²x,-y). */
const VARIANT_FACTOR = [1n, N_ORDER - 1n, LAMBDA, N_ORDER - LAMBDA, (LAMBDA * LAMBDA) % N_ORDER, N_ORDER - ((LAMBDA * LAMBDA) % N_ORDER)];

/** Digest word and bit shift of address nibble n (0..39). */
const NIBBLE_WORD = new Int32Array(40);
const NIBBLE_SHIFT = new Int32Array(40);
for (let n = 0; n < 40; n++) {
  const hashByte = 12 + (n >> 1);
  NIBBLE_WORD[n] = hashByte >> 2;
  NIBBLE_SHIFT[n] = 8 * (hashByte & 3) + (n % 2 === 0 ? 4 : 0);
}

/** Nibble n (0..39) of the address in a keccak digest (as the searcher's digest words hold it). */
export function addressNibble(digest: Uint32Array, n: number): number {
  return (digest[NIBBLE_WORD[n]] >>> NIBBLE_SHIFT[n]) & 15;
}

function randomScalar(min: bigint, max: bigint): bigint {
  for (;;) {
    const k = BigInt("0x" + randomBytes(32).toString("hex"));
    if (k >= min && k <= max) return k;
  }
}

export class EthereumSearcher implements Searcher {
  readonly batch: number;
  /** candidates per point: 6 with the endomorphism and negation, else 1 */
  readonly variants: number;
  /** candidates per step() when nothing matches */
  readonly perBatch: number;
  private readonly tx: Float64Array;
  private readonly ty: Float64Array;
  private readonly dx: Float64Array;
  private readonly acc: Float64Array;
  private readonly s = new Float64Array(LIMBS * 14);
  /** keccak input (x || y as 16 words) and digest (8 words): wasm memory views or plain arrays */
  private readonly inp: Uint32Array;
  private readonly out: Uint32Array;
  private readonly hash: () => void;
  /** keccak input words of y (0..7) and -y (8..15) of the current point */
  private readonly yw = new Uint32Array(16);
  private readonly mw: Int32Array;
  private readonly mm: Int32Array;
  private readonly mv: Int32Array;
  private readonly w0: number;
  private readonly m0: number;
  private readonly v0: number;
  private readonly mirror: number;
  private k = 0n;
  /** Split-key orders: the buyer's A; chains start at A + k·G and matches report (k, variant). */
  private readonly base: ReturnType<typeof parsePublicKey> | null;
  /**
   * Another matcher instead of the pattern's nibbles: sees each candidate's keccak digest (address = nibbles
   * read with addressNibble) and says whether it is a match. The demo's word-pair grind uses it to accept any of
   * hundreds of patterns at once (scripts/demo/word-pairs.ts).
   */
  accept: ((digest: Uint32Array) => boolean) | null = null;
  /** Test hook: sees every candidate's private key and lower-case address (slow; tests only). */
  trace: ((privateKey: bigint, addressLowerHex: string) => void) | null = null;

  constructor(
    readonly pattern: PatternSpec,
    {
      batch = 1024,
      keccak = "wasm",
      endomorphism = true,
      publicKey,
    }: { batch?: number; keccak?: "wasm" | "js"; endomorphism?: boolean; publicKey?: string } = {},
  ) {
    if (pattern.network !== "ethereum") throw new Error("EthereumSearcher needs an ethereum pattern");
    this.base = publicKey === undefined ? null : parsePublicKey(publicKey);
    if (keccak === "wasm") {
      const k = createWasmKeccak();
      this.inp = k.inp;
      this.out = k.out;
      this.hash = k.hash;
    } else {
      const inp = (this.inp = new Uint32Array(16));
      const out = (this.out = new Uint32Array(8));
      this.hash = () => keccak64(inp, out);
    }
    this.mirror = pattern.mirror ?? 0;
    this.batch = batch;
    this.variants = endomorphism ? 6 : 1;
    this.perBatch = (2 * batch + 1) * this.variants;
    const size = (batch + 1) * LIMBS;
    this.tx = new Float64Array(size);
    this.ty = new Float64Array(size);
    this.dx = new Float64Array(size);
    this.acc = new Float64Array(size);
    // table: entry i < batch is (i+1)·G, entry batch is the stride (2·batch+1)·G
    let pt = secp256k1.Point.BASE;
    for (let i = 0; i <= batch; i++) {
      if (i === batch) pt = secp256k1.Point.BASE.multiply(BigInt(2 * batch + 1));
      const { x, y } = pt.toAffine();
      fromBigInt(this.tx, i * LIMBS, x);
      fromBigInt(this.ty, i * LIMBS, y);
      pt = pt.add(secp256k1.Point.BASE);
    }
    fromBigInt(this.s, S.BETA, BETA);
    const m = compileNibbleMatcher(pattern);
    this.mw = m.word;
    this.mm = m.mask;
    this.mv = m.value;
    this.w0 = m.word[0];
    this.m0 = m.mask[0];
    this.v0 = m.value[0];
  }

  /** Starts a new independent chain: fresh random k, C = k·G. */
  private reseed(): void {
    const B = BigInt(this.batch);
    // k in [B+1, n-B-1]: k ± i never wraps and C never equals ±i·G, so no dx is zero
    for (;;) {
      try {
        this.startAt(randomScalar(B + 1n, N_ORDER - B - 1n));
        return;
      } catch {
        // A + k·G at infinity (k = -a): astronomically unlikely; any other k will do
      }
    }
  }

  /** Continues the search from key k (tests use it with a known k; step() picks random ones). */
  startAt(k: bigint): void {
    if (k <= BigInt(this.batch) || k >= N_ORDER - BigInt(this.batch)) throw new RangeError("start key too close to 0 or n");
    this.k = k;
    const kG = secp256k1.Point.BASE.multiply(this.k);
    const c = (this.base === null ? kG : this.base.add(kG)).toAffine();
    fromBigInt(this.s, S.CX, c.x);
    fromBigInt(this.s, S.CY, c.y);
  }

  /**
   * Searches one batch (C, C ± i·G, each with its variants) and moves C forward by (2B+1)·G;
   * stops at the first match and then restarts from a fresh random key.
   */
  step(): StepResult {
    const { tx, ty, dx, acc, s } = this;
    const B = this.batch;
    const V = this.variants;
    const L = LIMBS;
    const { CX, CY, INV, INVI, X3, Y3, T1, NX, NY } = S;

    if (this.k === 0n || this.k > N_ORDER - BigInt(3 * B + 2)) this.reseed();
    let attempts = 0;
    let v = this.checkPoint(CX, CY, 0);
    if (v >= 0) return this.hit(attempts + v + 1, 0, v);
    attempts += V;

    // prefix products of dx_i = x(table_i) - x(C); table_i = (i+1)·G for i < B, (2B+1)·G for i = B
    for (let i = 0; i <= B; i++) {
      const o = i * L;
      for (let j = 0; j < L; j++) dx[o + j] = tx[o + j] - s[CX + j];
      if (i === 0) for (let j = 0; j < L; j++) acc[j] = dx[j];
      else mul(acc, o, acc, o - L, dx, o);
    }
    const product = toBigInt(acc, B * L) % P;
    if (product === 0n) {
      // C = ±i·G for some table entry: only reachable from a crafted A (a = ±i - k); start elsewhere.
      this.k = 0n;
      return { attempts, found: null };
    }
    fromBigInt(s, INV, invert(product, P));

    for (let i = B; i >= 0; i--) {
      const o = i * L;
      // INVI = 1 / dx_i, then INV becomes 1 / (dx_0 ... dx_{i-1})
      if (i > 0) {
        mul(s, INVI, s, INV, acc, o - L);
        mul(s, INV, s, INV, dx, o);
      } else {
        for (let j = 0; j < L; j++) s[INVI + j] = s[INV + j];
      }
      for (let j = 0; j < L; j++) s[T1 + j] = ty[o + j] - s[CY + j];
      this.addFromSlope(o);
      if (i === B) {
        // next batch's C = C + (2B+1)·G
        for (let j = 0; j < L; j++) {
          s[NX + j] = s[X3 + j];
          s[NY + j] = s[Y3 + j];
        }
        continue;
      }
      // C + (i+1)·G
      v = this.checkPoint(X3, Y3, i + 1);
      if (v >= 0) return this.hit(attempts + v + 1, i + 1, v);
      attempts += V;
      // C - (i+1)·G: same x, negated y, same denominator
      for (let j = 0; j < L; j++) s[T1 + j] = -ty[o + j] - s[CY + j];
      this.addFromSlope(o);
      v = this.checkPoint(X3, Y3, -(i + 1));
      if (v >= 0) return this.hit(attempts + v + 1, -(i + 1), v);
      attempts += V;
    }
    for (let j = 0; j < L; j++) {
      s[CX + j] = s[NX + j];
      s[CY + j] = s[NY + j];
    }
    this.k += BigInt(2 * B + 1);
    return { attempts, found: null };
  }

  /** A match: report it and make sure no later key is related to it. */
  private hit(attempts: number, offset: number, variant: number): StepResult {
    const address = toChecksumAddress(this.lowerHex());
    const found: Found =
      this.base === null
        ? { address, privateKey: "0x" + this.keyAt(offset, variant).toString(16).padStart(64, "0") }
        : { address, offset: scalarToHex(this.keyAt(offset, 0)), variant };
    this.k = 0n; // forces a reseed on the next step
    return { attempts, found };
  }

  /** With T1 = y2 - y(C) and INVI = 1/(x2 - x(C)): X3, Y3 = canonical C + (x2, y2), x2 = tx[o..]. */
  private addFromSlope(o: number): void {
    const s = this.s;
    const tx = this.tx;
    const L = LIMBS;
    const { CX, CY, INVI, LAM, X3, Y3, T1 } = S;
    mul(s, LAM, s, T1, s, INVI);
    sqr(s, X3, s, LAM);
    for (let j = 0; j < L; j++) s[X3 + j] -= s[CX + j] + tx[o + j];
    canon(s, X3);
    sub(s, T1, s, CX, s, X3);
    mul(s, Y3, s, LAM, s, T1);
    for (let j = 0; j < L; j++) s[Y3 + j] -= s[CY + j];
    canon(s, Y3);
  }

  /**
   * Hashes the canonical point at s[xo], s[yo] (key k + offset) and, with the endomorphism, its
   * five related points. Returns the matching variant (see VARIANT_FACTOR) or -1.
   */
  private checkPoint(xo: number, yo: number, offset: number): number {
    const { s, inp, yw } = this;
    const L = LIMBS;
    const { NEGY, BX, B2X, BETA } = S;
    toWords(s, xo, inp, 0);
    toWords(s, yo, inp, 8);
    this.hash();
    if (this.trace !== null) this.trace(this.keyAt(offset, 0), this.lowerHex());
    if (this.matches()) return 0;
    if (this.variants === 1) return -1;
    for (let j = 0; j < 8; j++) yw[j] = inp[8 + j];
    for (let j = 0; j < L; j++) s[NEGY + j] = -s[yo + j];
    canon(s, NEGY);
    toWords(s, NEGY, yw, 8);
    if (this.tryY(1, offset)) return 1;
    mul(s, BX, s, BETA, s, xo);
    canon(s, BX);
    toWords(s, BX, inp, 0);
    if (this.tryY(2, offset)) return 2;
    if (this.tryY(3, offset)) return 3;
    // β² x = -x - β x, since 1 + β + β² = 0
    for (let j = 0; j < L; j++) s[B2X + j] = -s[xo + j] - s[BX + j];
    canon(s, B2X);
    toWords(s, B2X, inp, 0);
    if (this.tryY(4, offset)) return 4;
    if (this.tryY(5, offset)) return 5;
    return -1;
  }

  /** With the x words in place: hash with y (even variants) or -y (odd ones) and test. */
  private tryY(variant: number, offset: number): boolean {
    const { inp, yw } = this;
    const base = (variant & 1) * 8;
    for (let j = 0; j < 8; j++) inp[8 + j] = yw[base + j];
    this.hash();
    if (this.trace !== null) this.trace(this.keyAt(offset, variant), this.lowerHex());
    return this.matches();
  }

  /** Pattern test on the digest: nibbles first; the EIP-55 case test only for nibble matches. */
  private matches(): boolean {
    const out = this.out;
    if (this.accept !== null) return this.accept(out);
    if (((out[this.w0] ^ this.v0) & this.m0) !== 0) return false;
    const { mw, mm, mv } = this;
    for (let i = 1; i < mw.length; i++) if (((out[mw[i]] ^ mv[i]) & mm[i]) !== 0) return false;
    for (let i = 0; i < this.mirror; i++) {
      const j = 39 - i;
      if (((out[NIBBLE_WORD[i]] >>> NIBBLE_SHIFT[i]) & 15) !== ((out[NIBBLE_WORD[j]] >>> NIBBLE_SHIFT[j]) & 15)) return false;
    }
    return !this.pattern.caseSensitive || matchesAddress(this.pattern, toChecksumAddress(this.lowerHex()));
  }

  private lowerHex(): string {
    let hex = "";
    for (let b = 12; b < 32; b++) hex += ((this.out[b >> 2] >>> (8 * (b & 3))) & 255).toString(16).padStart(2, "0");
    return hex;
  }

  private keyAt(offset: number, variant: number): bigint {
    const k = (((this.k + BigInt(offset)) % N_ORDER) + N_ORDER) % N_ORDER;
    return (k * VARIANT_FACTOR[variant]) % N_ORDER;
  }
}

/** Offsets of the scratch field elements in EthereumSearcher.s. */
const S = (() => {
  const names = ["CX", "CY", "INV", "INVI", "LAM", "X3", "Y3", "T1", "NX", "NY", "NEGY", "BX", "B2X", "BETA"] as const;
  return Object.fromEntries(names.map((n, i) => [n, i * LIMBS])) as Record<(typeof names)[number], number>;
})();
