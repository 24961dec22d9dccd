// Vanity pattern validation and plain string-level matching. The searchers compile patterns
// into their own fast matchers; this module is the reference semantics (used for verifying
// every row before it is written) and computes the expected search effort.

import { describeChar, isAsciiChar, nonAsciiChars } from "./pattern-chars.ts";

export type Network = "ethereum" | "solana";
export type PatternType = "prefix" | "suffix" | "prefix+suffix";

export interface PatternSpec {
  network: Network;
  /** Ethereum: hex without 0x. Solana: base58 characters. */
  prefix: string;
  suffix: string;
  caseSensitive: boolean;
  /**
   * Mirror (palindrome) shape instead of a fixed pattern: the last `mirror` characters of the address
   * body are the first `mirror` reversed, whatever they are. 0 = off; excludes prefix/suffix.
   */
  mirror?: number;
}

export const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const HEX = "0123456789abcdefABCDEF";
export const MAX_PATTERN_LENGTH: Record<Network, number> = { ethereum: 40, solana: 44 };

/** Strips an optional 0x from an Ethereum prefix ("0xdead" means "dead"). */
export function normalizePrefix(network: Network, prefix: string): string {
  return network === "ethereum" && /^0[xX]/.test(prefix) ? prefix.slice(2) : prefix;
}

/** Characters that may stand at one position of a Solana pattern (case variants in base58). */
export function solanaVariants(ch: string, caseSensitive: boolean): string[] {
  // case folding maps some non-ASCII characters onto base58 letters (ſ to S, the Kelvin sign to k): never a variant
  if (!isAsciiChar(ch)) return [];
  const forms = caseSensitive ? [ch] : [...new Set([ch, ch.toLowerCase(), ch.toUpperCase()])];
  return forms.filter((c) => c.length === 1 && BASE58_ALPHABET.includes(c));
}

function badChars(s: string, ok: (c: string) => boolean): string[] {
  return [...new Set([...s].filter((c) => !ok(c)))];
}

const show = (cs: string[]) => cs.map(describeChar).join(", ");

/** Returns human-readable problems; an empty list means the pattern is valid. */
export function validatePattern(spec: PatternSpec): string[] {
  const errors: string[] = [];
  const { network, prefix, suffix, caseSensitive } = spec;
  if (network !== "ethereum" && network !== "solana") {
    return [`unknown network ${JSON.stringify(network)} (expected ethereum or solana)`];
  }
  const mirror = spec.mirror ?? 0;
  if (mirror !== 0) {
    if (prefix || suffix) errors.push("--mirror cannot be combined with --prefix/--suffix");
    const half = MAX_PATTERN_LENGTH[network] >> 1;
    if (!Number.isInteger(mirror) || mirror < 1 || mirror > half) errors.push(`--mirror must be between 1 and ${half} for ${network}, got ${mirror}`);
    return errors;
  }
  if (prefix.length === 0 && suffix.length === 0) errors.push("give --prefix and/or --suffix (or --mirror K)");
  for (const [name, value] of [
    ["prefix", prefix],
    ["suffix", suffix],
  ] as const) {
    const foreign = nonAsciiChars(value);
    if (foreign.length) {
      errors.push(
        `${name} ${JSON.stringify(value)} has ${show(foreign)}, not ASCII: a ${network} pattern is ASCII ${network === "ethereum" ? "hex" : "base58"} only`,
      );
    }
    if (network === "ethereum") {
      const bad = badChars(value, (c) => !isAsciiChar(c) || HEX.includes(c));
      if (bad.length) errors.push(`${name} ${JSON.stringify(value)} has non-hex characters: ${show(bad)} (allowed: 0-9 a-f A-F)`);
    } else {
      const bad = badChars(value, (c) => !isAsciiChar(c) || solanaVariants(c, caseSensitive).length > 0);
      if (bad.length) {
        const hint = caseSensitive ? " (base58 has no 0, O, I or l; drop --case-sensitive to match O/I/l as o/i/L)" : " (base58 has no 0)";
        errors.push(`${name} ${JSON.stringify(value)} has characters outside the base58 alphabet ${BASE58_ALPHABET}: ${show(bad)}${hint}`);
      }
    }
  }
  const max = MAX_PATTERN_LENGTH[network];
  if (prefix.length + suffix.length > max) {
    errors.push(`pattern too long: prefix + suffix is ${prefix.length + suffix.length} characters, a ${network} address has at most ${max}`);
  }
  return errors;
}

export function patternType(spec: PatternSpec): PatternType {
  if ((spec.prefix && spec.suffix) || spec.mirror) return "prefix+suffix";
  return spec.prefix ? "prefix" : "suffix";
}

/** The searchable part of an address: Ethereum without 0x, Solana as is. */
export function addressBody(network: Network, address: string): string {
  return network === "ethereum" ? address.slice(2) : address;
}

function fold(s: string, caseSensitive: boolean): string {
  return caseSensitive ? s : s.toLowerCase();
}

/** Reference matcher: does `address` (0x-checksummed for Ethereum, base58 for Solana) match? */
export function matchesAddress(spec: PatternSpec, address: string): boolean {
  const body = fold(addressBody(spec.network, address), spec.caseSensitive);
  const k = spec.mirror ?? 0;
  if (k > 0) {
    if (body.length < 2 * k) return false;
    for (let i = 0; i < k; i++) if (body[i] !== body[body.length - 1 - i]) return false;
    return true;
  }
  if (body.length < spec.prefix.length + spec.suffix.length) return false;
  return body.startsWith(fold(spec.prefix, spec.caseSensitive)) && body.endsWith(fold(spec.suffix, spec.caseSensitive));
}

/** pattern_matched column: the matched characters as they appear in the address, prefix then suffix. */
export function matchedChars(spec: PatternSpec, address: string): string {
  const body = addressBody(spec.network, address);
  if (spec.mirror) return body.slice(0, spec.mirror) + body.slice(body.length - spec.mirror);
  return body.slice(0, spec.prefix.length) + (spec.suffix ? body.slice(body.length - spec.suffix.length) : "");
}

/** Probability that one random candidate matches. */
export function matchProbability(spec: PatternSpec): number {
  if (spec.mirror) {
    // per mirrored pair: the trailing character equals the (free) leading one; the trailing side is
    // uniform for both networks, so 1 / alphabet size, more when case folding merges characters
    const perPair =
      spec.network === "ethereum"
        ? (1 / 16) * (spec.caseSensitive ? 10 / 16 + (6 / 16) * 0.5 : 1)
        : spec.caseSensitive
          ? 1 / 58
          : [...BASE58_ALPHABET].reduce((sum, c) => sum + solanaVariants(c, false).length, 0) / 58 / 58;
    return perPair ** spec.mirror;
  }
  if (spec.network === "ethereum") {
    const chars = spec.prefix + spec.suffix;
    const letters = [...chars].filter((c) => /[a-fA-F]/.test(c)).length;
    // each nibble 1/16; with --case-sensitive every letter's case is one checksum bit: 1/2
    return 16 ** -chars.length * (spec.caseSensitive ? 2 ** -letters : 1);
  }
  let p = solanaPrefixProbability(spec.prefix, spec.caseSensitive);
  for (const c of spec.suffix) p *= solanaVariants(c, spec.caseSensitive).length / 58;
  return p;
}

export function expectedAttempts(spec: PatternSpec): number {
  return 1 / matchProbability(spec);
}

/**
 * Probability that base58(random 32 bytes) starts with `prefix`. Leading '1's stand for zero
 * bytes (1/256 each, not 1/58), and the first real digit is skewed because 2^256 is not a power
 * of 58; counted exactly with a digit DP over the possible address lengths.
 */
export function solanaPrefixProbability(prefix: string, caseSensitive: boolean): number {
  let ones = 0;
  while (ones < prefix.length && prefix[ones] === "1") ones++;
  const rest = [...prefix.slice(ones)].map((c) =>
    solanaVariants(c, caseSensitive)
      .map((v) => BASE58_ALPHABET.indexOf(v))
      .sort((a, b) => a - b),
  );
  const zeroBytes = 256 ** -ones;
  if (rest.length === 0) return zeroBytes;
  if (ones >= 32) return 0;
  // exactly `ones` leading zero bytes, then v is uniform in [256^(31-ones), 256^(32-ones))
  const lo = 256n ** BigInt(31 - ones);
  const hi = 256n ** BigInt(32 - ones);
  const k = rest.length;
  let hits = 0n;
  for (let L = k; L <= 45; L++) {
    const rlo = bigMax(lo, 58n ** BigInt(L - 1));
    const rhi = bigMin(hi, 58n ** BigInt(L));
    if (rlo >= rhi) continue;
    const s = 58n ** BigInt(L - k);
    const dmin = rlo / s;
    const dmax = (rhi - 1n) / s;
    let n = (countDigitStrings(rest, dmax) - countDigitStrings(rest, dmin - 1n)) * s;
    if (isDigitString(rest, dmin)) n -= rlo - dmin * s;
    if (isDigitString(rest, dmax)) n -= (dmax + 1n) * s - rhi;
    hits += n;
  }
  return zeroBytes * (255 / 256) * (Number(hits) / Number(hi - lo));
}

const bigMax = (a: bigint, b: bigint) => (a > b ? a : b);
const bigMin = (a: bigint, b: bigint) => (a < b ? a : b);

function digitsOf(x: bigint, k: number): number[] | null {
  const d: number[] = new Array(k).fill(0);
  for (let i = k - 1; i >= 0; i--) {
    d[i] = Number(x % 58n);
    x /= 58n;
  }
  return x === 0n ? d : null; // null: x has more than k digits
}

function isDigitString(sets: number[][], x: bigint): boolean {
  const d = x >= 0n ? digitsOf(x, sets.length) : null;
  return d?.every((v, i) => sets[i].includes(v)) ?? false;
}

/** How many k-digit strings with digit i in sets[i] have value <= x. */
function countDigitStrings(sets: number[][], x: bigint): bigint {
  if (x < 0n) return 0n;
  const k = sets.length;
  const suffixProduct: bigint[] = new Array(k + 1).fill(1n);
  for (let i = k - 1; i >= 0; i--) suffixProduct[i] = suffixProduct[i + 1] * BigInt(sets[i].length);
  const d = digitsOf(x, k);
  if (d === null) return suffixProduct[0];
  let count = 0n;
  for (let i = 0; i < k; i++) {
    count += BigInt(sets[i].filter((v) => v < d[i]).length) * suffixProduct[i + 1];
    if (!sets[i].includes(d[i])) return count;
  }
  return count + 1n;
}
