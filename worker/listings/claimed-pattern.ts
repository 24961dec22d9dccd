// A bulk row names the characters its address was ground for (pattern_matched: a prefix, a suffix, or both).
// The rarity engine only recognises notable shapes (zero runs, words, sequences, mirrors); an arbitrary
// ground prefix such as "7a3f9b1" is invisible to it, and the listing would show "custom", length 0, while
// its price and score come from the matched length. Once the row's claim is checked against the address,
// the listing's pattern fields describe the claim whenever the engine saw less.
import type { Network } from "../../schema/db";
import type { MatchRange, PatternPosition, RarityAnalysis } from "../../schema/rarity";
import { difficultyFromLog2, LOG2_BASE58_CHAR, LOG2_HEX_CHAR, solanaPrefixLog2 } from "../domain/rarity/difficulty";

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

/**
 * log2 of the work a grinder does to produce the claimed characters: 16 per hex character (the claim is
 * compared case-folded), for Solana the exact odds of the prefix and 58 per suffix character.
 */
export function claimedLog2(network: Network, matched: string, prefixLength: number): number {
  if (network === "ethereum") return matched.length * LOG2_HEX_CHAR;
  const prefix = matched.slice(0, prefixLength);
  return (prefix ? solanaPrefixLog2(prefix) : 0) + (matched.length - prefixLength) * LOG2_BASE58_CHAR;
}

/**
 * The analysis with the claim's difficulty when the engine saw less, so the listing page's estimated value (and
 * the bulk preview's, which is the same figure) counts the work the row was ground with: an arbitrary prefix
 * "abc" is 2^12 keys to grind, though the engine, which only knows words and shapes, sees nothing. The score is
 * left alone (bulk rows take the specification's table).
 */
export function withClaimedDifficulty(analysis: RarityAnalysis, network: Network, matched: string, prefixLength: number): RarityAnalysis {
  const log2 = claimedLog2(network, matched, prefixLength);
  return log2 > analysis.difficulty.log2 && Number.isFinite(log2) ? { ...analysis, difficulty: difficultyFromLog2(log2) } : analysis;
}
