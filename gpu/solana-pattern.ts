// A Solana vanity pattern as the kernel's params, so that the GPU matches without encoding base58.
//
// An address is base58 of the 32-byte key: one '1' for each leading zero byte (z of them), then the base58
// digits of the key read as a big-endian number v (n digits, the first one not 0). So:
// - a prefix is a set of ranges of v: for each z and n the prefix allows, and each way its characters can be
//   read (case variants), the numbers whose first digits spell it (R·58^(n-j) .. (R+1)·58^(n-j) - 1 for a
//   j-digit reading R), cut to the numbers with exactly z zero bytes and n digits. A random key has z = 0 and
//   n = 43 or 44 (v below or above 58^43): most prefixes are two ranges per reading, one per length, and a
//   leading '1' in the pattern means a zero byte (z = 1), not a digit. The ranges also hold the address to at
//   least prefix + suffix characters, as the CPU matcher does.
// - a suffix is v's last k digits (v mod 58^k, read one digit at a time on the GPU): a mask of allowed digits
//   per position, counted from the end.
// Case-insensitive characters use the CPU grinder's rules (schema/grind-pattern.ts solanaVariants), so both
// grinders accept exactly the same addresses.
import { describeChar } from "../schema/pattern-chars.ts";
import { BASE58_ALPHABET, type PatternSpec, solanaVariants } from "../schema/grind-pattern.ts";

export type SolanaGpuPattern = {
  /** base58 characters (case kept: it matters when caseSensitive) */
  prefix: string;
  suffix: string;
  caseSensitive: boolean;
};

export type SolanaPatternParams = {
  /** sorted, disjoint, inclusive ranges of v; null: every v (no prefix, and no length to enforce); empty: none */
  ranges: [lo: bigint, hi: bigint][] | null;
  /** two words per suffix position from the end: bit d set when digit d may stand there */
  suffixMasks: Uint32Array;
  suffixLength: number;
};

/** The most ranges a pattern may need (a case-insensitive prefix doubles them per letter). */
export const MAX_RANGES = 4096;
export const MAX_ADDRESS_LENGTH = 44;
const ALL = (1n << 256n) - 1n;

const digitSets = (chars: string, caseSensitive: boolean) =>
  [...chars].map((c) =>
    solanaVariants(c, caseSensitive)
      .map((v) => BASE58_ALPHABET.indexOf(v))
      .sort((a, b) => a - b),
  );

/** Every reading of the digit sets as a number, ascending (at most `limit` of them). */
function readings(sets: number[][], limit: number): bigint[] {
  let out = [0n];
  for (const set of sets) {
    if (out.length * set.length > limit) throw new RangeError("this pattern has too many case variants for the GPU kernel; make it case-sensitive or shorter");
    out = out.flatMap((r) => set.map((d) => r * 58n + BigInt(d)));
  }
  return out;
}

function check(p: SolanaGpuPattern) {
  for (const [name, value] of [
    ["prefix", p.prefix],
    ["suffix", p.suffix],
  ] as const) {
    const bad = [...new Set([...value].filter((c) => solanaVariants(c, p.caseSensitive).length === 0))];
    if (bad.length) throw new RangeError(`${name} has characters outside base58 (ASCII only): ${bad.map(describeChar).join(", ")}`);
  }
  if (p.prefix.length + p.suffix.length > MAX_ADDRESS_LENGTH) throw new RangeError("prefix and suffix must be at most 44 base58 characters together");
}

/** The prefix's ranges of v, for addresses of at least minLength characters. */
export function prefixRanges(prefix: string, caseSensitive: boolean, minLength: number): [bigint, bigint][] {
  const sets = digitSets(prefix, caseSensitive);
  let ones = 0;
  while (ones < sets.length && sets[ones].length === 1 && sets[ones][0] === 0) ones++;
  const rest = sets.slice(ones);
  const reads = rest.length ? readings(rest, MAX_RANGES) : [];
  const out: [bigint, bigint][] = [];
  const push = (lo: bigint, hi: bigint) => {
    if (lo <= hi) out.push([lo, hi]);
  };
  for (let z = 0; z <= 32; z++) {
    // the address's first z characters are '1', then v's first digit (never 0)
    if (rest.length ? z !== ones : z < ones) continue;
    if (z === 32) {
      // the all-zero key: 32 '1's and no digits
      if (!rest.length && 32 >= minLength) push(0n, 0n);
      continue;
    }
    const zLo = 256n ** BigInt(31 - z);
    const zHi = 256n ** BigInt(32 - z) - 1n;
    for (let n = 1; n <= MAX_ADDRESS_LENGTH; n++) {
      const lo = zLo > 58n ** BigInt(n - 1) ? zLo : 58n ** BigInt(n - 1);
      const hi = zHi < 58n ** BigInt(n) - 1n ? zHi : 58n ** BigInt(n) - 1n;
      if (lo > hi || z + n < minLength) continue;
      if (!rest.length) {
        push(lo, hi);
        continue;
      }
      if (n < rest.length) continue;
      const scale = 58n ** BigInt(n - rest.length);
      for (const r of reads) {
        const rlo = r * scale;
        const rhi = (r + 1n) * scale - 1n;
        push(rlo > lo ? rlo : lo, rhi < hi ? rhi : hi);
      }
    }
  }
  out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const merged: [bigint, bigint][] = [];
  for (const [lo, hi] of out) {
    const last = merged[merged.length - 1];
    if (last && lo <= last[1] + 1n) {
      if (hi > last[1]) last[1] = hi;
    } else merged.push([lo, hi]);
  }
  if (merged.length > MAX_RANGES) throw new RangeError("this pattern has too many case variants for the GPU kernel; make it case-sensitive or shorter");
  return merged;
}

export function solanaPatternParams(p: SolanaGpuPattern): SolanaPatternParams {
  check(p);
  const minLength = p.prefix.length + p.suffix.length;
  // every address has at least 32 characters: without a prefix, a shorter minimum constrains nothing
  let ranges = p.prefix || minLength > 32 ? prefixRanges(p.prefix, p.caseSensitive, minLength) : null;
  if (ranges?.length === 1 && ranges[0][0] === 0n && ranges[0][1] === ALL) ranges = null;
  const suffixMasks = new Uint32Array(2 * MAX_ADDRESS_LENGTH);
  digitSets(p.suffix, p.caseSensitive)
    .reverse()
    .forEach((set, pos) => {
      for (const d of set) suffixMasks[2 * pos + (d >> 5)] |= 1 << (d & 31);
    });
  return { ranges, suffixMasks, suffixLength: p.suffix.length };
}

/** The ranges as the kernel reads them: per range, lo then hi, each 8 big-endian 32-bit words. */
export function rangeWords(ranges: [bigint, bigint][] | null): Uint32Array<ArrayBuffer> {
  ranges ??= [];
  const out = new Uint32Array(Math.max(1, ranges.length) * 16);
  ranges.forEach(([lo, hi], i) => {
    for (let k = 0; k < 8; k++) {
      out[i * 16 + k] = Number((lo >> BigInt(32 * (7 - k))) & 0xffffffffn);
      out[i * 16 + 8 + k] = Number((hi >> BigInt(32 * (7 - k))) & 0xffffffffn);
    }
  });
  return out;
}

/**
 * Why the GPU kernels cannot grind a pattern, or null when they can: the Solana kernel matches prefixes as
 * numeric ranges and suffixes as residues, which leaves out --mirror (it needs both ends' digits), and a
 * case-insensitive prefix with more case variants than it takes ranges. (Ethereum: every pattern.)
 */
export function gpuUnsupported(spec: PatternSpec): string | null {
  if (spec.network !== "solana") return null;
  if (spec.mirror) return "the GPU kernel does not grind Solana --mirror patterns";
  try {
    solanaPatternParams(spec);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}
