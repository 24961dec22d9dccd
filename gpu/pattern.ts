// A vanity pattern as the kernel's params: nibble masks on the keccak digest words, the mirror mask, and
// which letters must have which EIP-55 case. The CPU grinder's PatternSpec (schema/grind-pattern.ts) and the
// custom-order pattern (schema/custom-order-pattern.ts) both fit GpuPattern.

import { describeChar } from "../schema/pattern-chars.ts";

export type GpuPattern = {
  /** hex after 0x (case kept: it matters when caseSensitive) */
  prefix: string;
  suffix: string;
  caseSensitive: boolean;
  /** mirror shape: the last K characters are the first K reversed (excludes prefix/suffix) */
  mirror?: number;
};

export type PatternParams = {
  /** masks and values on digest words 3..7 (the address is digest bytes 12..31) */
  mask: Uint32Array;
  value: Uint32Array;
  /** the top 4K bits of the address's five words in address order */
  mirrorMask: Uint32Array;
  mirror: number;
  /** 0 any case, 1 the pattern's letters keep their case, 2 mirrored letters share their case */
  caseMode: 0 | 1 | 2;
  /** bit i (i < 40, two words) set where address character i is a pattern letter / must be upper case */
  caseMask: Uint32Array;
  caseUpper: Uint32Array;
};

/** Where address character n (0..39) sits in the digest: word index (3..7) and shift. */
export function addressNibble(n: number): { word: number; shift: number } {
  const hashByte = 12 + (n >> 1);
  return { word: hashByte >> 2, shift: 8 * (hashByte & 3) + (n % 2 === 0 ? 4 : 0) };
}

export function patternParams(p: GpuPattern): PatternParams {
  const mirror = p.mirror ?? 0;
  if (mirror && (p.prefix || p.suffix)) throw new RangeError("a mirror pattern has no prefix or suffix");
  const bad = [...new Set([...(p.prefix + p.suffix)].filter((c) => !/^[0-9a-fA-F]$/.test(c)))];
  if (bad.length) throw new RangeError(`prefix and suffix must be hex (ASCII 0-9 a-f A-F); remove ${bad.map(describeChar).join(", ")}`);
  if (p.prefix.length + p.suffix.length > 40) throw new RangeError("prefix and suffix must be at most 40 hex characters together");
  if (!Number.isInteger(mirror) || mirror < 0 || mirror > 20) throw new RangeError("mirror must be 0..20");
  const mask = new Uint32Array(5);
  const value = new Uint32Array(5);
  const caseMask = new Uint32Array(2);
  const caseUpper = new Uint32Array(2);
  const chars: [number, string][] = [...p.prefix].map((c, i) => [i, c]);
  for (const [i, c] of [...p.suffix].entries()) chars.push([40 - p.suffix.length + i, c]);
  for (const [n, c] of chars) {
    const { word, shift } = addressNibble(n);
    mask[word - 3] |= 0xf << shift;
    value[word - 3] |= parseInt(c, 16) << shift;
    if (/[a-fA-F]/.test(c)) {
      caseMask[n >> 5] |= 1 << (n & 31);
      if (c !== c.toLowerCase()) caseUpper[n >> 5] |= 1 << (n & 31);
    }
  }
  const mirrorMask = new Uint32Array(5);
  for (let n = 0; n < mirror; n++) mirrorMask[n >> 3] |= 0xf << (28 - 4 * (n & 7));
  const caseMode = !p.caseSensitive ? 0 : mirror ? 2 : caseMask[0] | caseMask[1] ? 1 : 0;
  return { mask, value, mirrorMask, mirror, caseMode, caseMask, caseUpper };
}
