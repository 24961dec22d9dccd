// Where a listing's pattern sits in its address, as [start, end) ranges for HighlightedAddress.
// Listings store the pattern the rarity engine found as text: "custom" (none), one run at an end ("0000",
// "dead"), or a prefix and a suffix joined by "..." ("dead...beef"). Ethereum's body starts after "0x" and
// its hex compares in any letter case; Solana's base58 is case-sensitive.
import type { Network } from "../../../schema/db";

export type Range = readonly [number, number];

const SEPARATOR = "...";

/** The pattern as a reader sees it: "None" for an address with no notable pattern (the engine's "custom"). */
export const patternText = (pattern: string): string => (pattern.trim().toLowerCase() === "custom" ? "None" : pattern);

export function patternRanges(address: string, network: Network, pattern: string | null | undefined): Range[] {
  const text = (pattern ?? "").trim();
  if (!text || text.toLowerCase() === "custom") return [];
  const eth = network === "ethereum";
  const fold = (s: string) => (eth ? s.toLowerCase() : s);
  const bodyStart = eth && /^0x/i.test(address) ? 2 : 0;
  const body = fold(address.slice(bodyStart));
  const part = (s: string) => fold(eth ? s.replace(/^0x/i, "") : s);

  const prefixAt = (p: string): Range | null => (p && body.startsWith(p) ? [bodyStart, bodyStart + p.length] : null);
  const suffixAt = (p: string): Range | null => (p && p.length <= body.length && body.endsWith(p) ? [address.length - p.length, address.length] : null);

  const cut = text.indexOf(SEPARATOR);
  if (cut >= 0) {
    const prefix = prefixAt(part(text.slice(0, cut)));
    const suffix = suffixAt(part(text.slice(cut + SEPARATOR.length)));
    const ranges = [prefix, suffix].filter((r): r is Range => r !== null);
    // A prefix and a suffix that overlap (a short address, a long pattern) are one highlighted run.
    if (ranges.length === 2 && ranges[0][1] > ranges[1][0]) return [[ranges[0][0], ranges[1][1]]];
    return ranges;
  }

  const p = part(text);
  const end = prefixAt(p) ?? suffixAt(p);
  if (end) return [end];
  // Not at an end (a pattern written by hand): highlight its first occurrence, if any.
  const at = body.indexOf(p);
  return at >= 0 ? [[bodyStart + at, bodyStart + at + p.length]] : [];
}
