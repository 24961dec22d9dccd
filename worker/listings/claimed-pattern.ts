// A bulk row names the characters its address was ground for (pattern_matched: a prefix, a suffix, or both).
// The rarity engine only recognises notable shapes (zero runs, words, sequences, mirrors); an arbitrary
// ground prefix such as "7a3f9b1" is invisible to it, and the listing would show "custom", length 0, while
// its price and score come from the matched length. Once the row's claim is checked against the address,
// the listing's pattern fields describe the claim whenever the engine saw less.
import type { Network } from "../../schema/db";
import type { MatchRange, PatternPosition, RarityAnalysis } from "../../schema/rarity";

/**
 * How many of `matched`'s characters the address starts with (the rest it ends with), or null when the
 * address neither starts nor ends that way. `preferSuffix` picks the suffix reading when both hold.
 */
export function claimedSplit(address: string, network: Network, matched: string, preferSuffix = false): number | null {
  const fold = (s: string) => (network === "ethereum" ? s.toLowerCase() : s);
  const body = fold(network === "ethereum" ? address.slice(2) : address);
  const m = fold(matched);
  if (m.length === 0 || m.length > body.length) return null;
  const splits = Array.from({ length: m.length + 1 }, (_, i) => (preferSuffix ? i : m.length - i));
  for (const split of splits) {
    if (body.startsWith(m.slice(0, split)) && body.endsWith(m.slice(split))) return split;
  }
  return null;
}

/** The engine's analysis, with the claimed pattern in place of a shorter (or no) pattern the engine found. */
export function withClaimedPattern(analysis: RarityAnalysis, address: string, network: Network, matchedLength: number, prefixLength: number): RarityAnalysis {
  if (analysis.patternLength >= matchedLength) return analysis;
  const start = network === "ethereum" ? 2 : 0;
  const suffixLength = matchedLength - prefixLength;
  const ranges: MatchRange[] = [];
  if (prefixLength > 0) ranges.push([start, start + prefixLength]);
  if (suffixLength > 0) ranges.push([address.length - suffixLength, address.length]);
  const position: PatternPosition = prefixLength > 0 && suffixLength > 0 ? "prefix+suffix" : prefixLength > 0 ? "prefix" : "suffix";
  return {
    ...analysis,
    pattern: ranges.map(([from, to]) => address.slice(from, to)).join("..."),
    patternLength: matchedLength,
    patternPosition: position,
    matchRanges: ranges,
  };
}
