// Difficulty arithmetic: log2 of the expected number of random keys, the score, and the exact odds of a
// Solana prefix (base58 of a 32-byte key is not uniform in its first character).
import { BASE58_ALPHABET } from "../../../schema/address";

/** log2 of the odds of one fixed hex character (Ethereum addresses are keccak output: uniform). */
export const LOG2_HEX_CHAR = 4;
/** log2 of the odds of one fixed base58 character away from the start of a Solana address. */
export const LOG2_BASE58_CHAR = Math.log2(58);
/** log2 of the odds of one leading zero byte (one leading "1" of a Solana address). */
export const LOG2_ZERO_BYTE = 8;

/** The difficulty in fixed hex characters: log2(D) / 4, unrounded and unclamped. */
export function hexCharacters(log2: number): number {
  return log2 / LOG2_HEX_CHAR;
}

/** rarityScore = clamp(log2(D) / 4, 0, 10), one decimal: one point per fixed hex character of difficulty. */
export function scoreFromLog2(log2: number): number {
  const raw = hexCharacters(log2);
  const clamped = raw > 10 ? 10 : raw > 0 ? raw : 0;
  return Math.round(clamped * 10) / 10;
}

/** The difficulty object for a log2 value. */
export function difficultyFromLog2(log2: number): { attempts: number; log2: number } {
  return { attempts: 2 ** log2, log2 };
}

const B58_DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE58_ALPHABET.length; i++) B58_DIGIT[BASE58_ALPHABET.charCodeAt(i)] = i;

const POW58: bigint[] = [1n];
for (let i = 1; i <= 46; i++) POW58.push(POW58[i - 1] * 58n);

function log2Big(x: bigint): number {
  const bits = x.toString(16).length * 4;
  const shift = bits > 60 ? bits - 60 : 0;
  return Math.log2(Number(x >> BigInt(shift))) + shift;
}

/**
 * log2(1 / P(a uniformly random 32-byte public key's base58 encoding starts with `prefix`)), exactly.
 *
 * A key is a value V in [0, 2^256). Its encoding is one "1" per leading zero byte, then the base58 digits
 * of V. A prefix of k "1"s then digits Q (Q not starting with "1") therefore means: exactly k leading zero
 * bytes, so V lies in [256^(31-k), 256^(32-k)), and for some digit count L the value lies in
 * [q x 58^(L-n), (q+1) x 58^(L-n)) where q is Q's value and n its length, within [58^(L-1), 58^L).
 * Summing those interval lengths over L and dividing by 2^256 gives the probability. A prefix of only
 * "1"s needs at least k zero bytes: 256^-k. Returns Infinity for a prefix no key can produce and falls
 * back to 58 per character for characters outside base58.
 */
export function solanaPrefixLog2(prefix: string): number {
  let k = 0;
  while (k < prefix.length && prefix.charCodeAt(k) === 49) k++;
  if (k === prefix.length) return LOG2_ZERO_BYTE * k;
  if (k >= 32) return Infinity;
  const n = prefix.length - k;
  let q = 0n;
  for (let i = k; i < prefix.length; i++) {
    const c = prefix.charCodeAt(i);
    const d = c < 128 ? B58_DIGIT[c] : -1;
    if (d < 0) return prefix.length * LOG2_BASE58_CHAR;
    q = q * 58n + BigInt(d);
  }
  const m = 32 - k;
  const lo = 1n << BigInt(8 * (m - 1));
  const hi = 1n << BigInt(8 * m);
  let count = 0n;
  for (let L = n; L < POW58.length && POW58[L - 1] < hi; L++) {
    const scale = POW58[L - n];
    const from = max(q * scale, max(lo, POW58[L - 1]));
    const to = min((q + 1n) * scale, min(hi, POW58[L]));
    if (to > from) count += to - from;
  }
  if (count === 0n) return Infinity;
  return 256 - log2Big(count);
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** P(first character of a random Solana address = c), from solanaPrefixLog2. Used by the docs and tests. */
export function solanaFirstCharProbability(c: string): number {
  return 2 ** -solanaPrefixLog2(c);
}
