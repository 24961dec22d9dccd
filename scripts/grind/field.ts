// secp256k1 base-field helpers around the generated mul/sqr kernels (field.gen.ts).
// An element is 11 float64 limbs of 24 bits stored at an offset of a Float64Array.
export { mul, sqr } from "./field.gen.ts";

export const LIMBS = 11;
export const P = 2n ** 256n - 2n ** 32n - 977n;
const W = 2 ** 24;
const IW = 2 ** -24;

export function fromBigInt(r: Float64Array, ro: number, v: bigint): void {
  let x = ((v % P) + P) % P;
  for (let i = 0; i < LIMBS; i++) {
    r[ro + i] = Number(x & 0xffffffn);
    x >>= 24n;
  }
}

export function toBigInt(a: Float64Array, ao: number): bigint {
  let v = 0n;
  for (let i = LIMBS - 1; i >= 0; i--) v = (v << 24n) + BigInt(a[ao + i]);
  return ((v % P) + P) % P;
}

/** r = a - b limbwise (no carry): the result is a valid loose input for mul/sqr. */
export function sub(r: Float64Array, ro: number, a: Float64Array, ao: number, b: Float64Array, bo: number): void {
  for (let i = 0; i < LIMBS; i++) r[ro + i] = a[ao + i] - b[bo + i];
}

/**
 * Reduces a loose element (|limb| < 2^30) in place to its canonical form: limbs in
 * [0, 2^24), value in [0, p). Needed before serialising (hashing) a coordinate.
 */
export function canon(a: Float64Array, ao: number): void {
  let a0 = a[ao], a1 = a[ao + 1], a2 = a[ao + 2], a3 = a[ao + 3], a4 = a[ao + 4], a5 = a[ao + 5];
  let a6 = a[ao + 6], a7 = a[ao + 7], a8 = a[ao + 8], a9 = a[ao + 9], a10 = a[ao + 10];
  let c = 0;
  for (;;) {
    // floor carries: limbs 0..9 into [0, 2^24), everything above goes to a10
    c = Math.floor(a0 * IW); a0 -= c * W; a1 += c;
    c = Math.floor(a1 * IW); a1 -= c * W; a2 += c;
    c = Math.floor(a2 * IW); a2 -= c * W; a3 += c;
    c = Math.floor(a3 * IW); a3 -= c * W; a4 += c;
    c = Math.floor(a4 * IW); a4 -= c * W; a5 += c;
    c = Math.floor(a5 * IW); a5 -= c * W; a6 += c;
    c = Math.floor(a6 * IW); a6 -= c * W; a7 += c;
    c = Math.floor(a7 * IW); a7 -= c * W; a8 += c;
    c = Math.floor(a8 * IW); a8 -= c * W; a9 += c;
    c = Math.floor(a9 * IW); a9 -= c * W; a10 += c;
    // bits >= 256 (and the sign) are what a10 holds above its low 16 bits (a10 weighs 2^240)
    const h = Math.floor(a10 * 2 ** -16);
    if (h === 0) break;
    a10 -= h * 65536;
    // 2^256 ≡ 2^32 + 977 = 2^24 * 2^8 + 977
    a0 += h * 977;
    a1 += h * 256;
  }
  // now 0 <= value < 2^256; subtract p once if value >= p, i.e. value + 2^32 + 977 >= 2^256
  if (a10 === 65535 && a9 === W - 1 && a8 === W - 1 && a7 === W - 1 && a6 === W - 1 && a5 === W - 1 && a4 === W - 1 && a3 === W - 1 && a2 === W - 1) {
    let t0 = a0 + 977, t1 = a1 + 256;
    c = Math.floor(t0 * IW); t0 -= c * W; t1 += c;
    if (t1 >= W) {
      // value >= p: value - p = value + 2^32 + 977 - 2^256, all upper limbs wrap to zero
      a0 = t0; a1 = t1 - W; a2 = a3 = a4 = a5 = a6 = a7 = a8 = a9 = a10 = 0;
    }
  }
  a[ao] = a0; a[ao + 1] = a1; a[ao + 2] = a2; a[ao + 3] = a3; a[ao + 4] = a4; a[ao + 5] = a5;
  a[ao + 6] = a6; a[ao + 7] = a7; a[ao + 8] = a8; a[ao + 9] = a9; a[ao + 10] = a10;
}

/**
 * Writes a canonical element as 32 big-endian bytes into keccak input words
 * (little-endian uint32) w[wo .. wo+7]: word j holds big-endian bytes 4j..4j+3.
 */
export function toWords(a: Float64Array, ao: number, w: Uint32Array, wo: number): void {
  // little-endian byte m of the value is byte (m % 3) of limb floor(m / 3)
  const l0 = a[ao] | 0, l1 = a[ao + 1] | 0, l2 = a[ao + 2] | 0, l3 = a[ao + 3] | 0, l4 = a[ao + 4] | 0;
  const l5 = a[ao + 5] | 0, l6 = a[ao + 6] | 0, l7 = a[ao + 7] | 0, l8 = a[ao + 8] | 0, l9 = a[ao + 9] | 0;
  const l10 = a[ao + 10] | 0;
  // LE bytes 31..0 are BE bytes 0..31. Word j = BE[4j] | BE[4j+1]<<8 | BE[4j+2]<<16 | BE[4j+3]<<24
  // = LE[31-4j] | LE[30-4j]<<8 | LE[29-4j]<<16 | LE[28-4j]<<24: a byte swap of LE word 7-j.
  // LE 32-bit words from 24-bit limbs:
  const e0 = l0 | (l1 << 24);
  const e1 = (l1 >>> 8) | (l2 << 16);
  const e2 = (l2 >>> 16) | (l3 << 8);
  const e3 = l4 | (l5 << 24);
  const e4 = (l5 >>> 8) | (l6 << 16);
  const e5 = (l6 >>> 16) | (l7 << 8);
  const e6 = l8 | (l9 << 24);
  const e7 = (l9 >>> 8) | (l10 << 16);
  w[wo] = bswap(e7);
  w[wo + 1] = bswap(e6);
  w[wo + 2] = bswap(e5);
  w[wo + 3] = bswap(e4);
  w[wo + 4] = bswap(e3);
  w[wo + 5] = bswap(e2);
  w[wo + 6] = bswap(e1);
  w[wo + 7] = bswap(e0);
}

function bswap(x: number): number {
  return ((x >>> 24) | ((x >>> 8) & 0xff00) | ((x & 0xff00) << 8) | (x << 24)) >>> 0;
}
