// What a custom order asks for: an Ethereum prefix and/or suffix, optionally with its EIP-55 letter case, and
// how hard that is to find. Shared by the order page (live validation), the Worker (the quote and the check
// of a submitted offset) and the grinder, so all three read a pattern the same way.

import { describeChar } from "./pattern-chars";

export type OrderPattern = {
  /** hex after 0x, as the buyer typed it (case kept: it matters when caseSensitive) */
  prefix: string;
  suffix: string;
  caseSensitive: boolean;
};

/** Together prefix and suffix may fix at most this many characters (the quote's difficulty cap refuses far fewer). */
export const MAX_ORDER_PATTERN_CHARS = 40;

/** Strips an optional 0x from a typed prefix ("0xdead" means "dead"). */
export function normalizeOrderPrefix(prefix: string): string {
  return /^0[xX]/.test(prefix) ? prefix.slice(2) : prefix;
}

/** Problems with a pattern, in words a buyer understands; empty when it is well formed. */
export function orderPatternProblems(p: OrderPattern): string[] {
  const problems: string[] = [];
  if (p.prefix.length === 0 && p.suffix.length === 0) problems.push("Enter a prefix, a suffix or both");
  for (const [name, value] of [
    ["prefix", p.prefix],
    ["suffix", p.suffix],
  ] as const) {
    const bad = [...new Set([...value].filter((c) => !/[0-9a-fA-F]/.test(c)))];
    if (bad.length) problems.push(`The ${name} may hold only 0-9 and a-f; remove ${bad.map(describeChar).join(", ")}`);
  }
  if (p.prefix.length + p.suffix.length > MAX_ORDER_PATTERN_CHARS) {
    problems.push(`Prefix and suffix together may have at most ${MAX_ORDER_PATTERN_CHARS} characters`);
  }
  return problems;
}

/** Letters (a-f) in the pattern: with case sensitivity each one's EIP-55 case halves the odds. */
export function patternLetters(p: OrderPattern): number {
  return [...(p.prefix + p.suffix)].filter((c) => /[a-fA-F]/.test(c)).length;
}

/**
 * log2 of the expected number of candidates: 4 per hex character, plus 1 per letter when the case must
 * match. Exact, because keccak output is uniform and each checksum bit is independent of the nibble.
 */
export function orderDifficultyBits(p: OrderPattern): number {
  return 4 * (p.prefix.length + p.suffix.length) + (p.caseSensitive ? patternLetters(p) : 0);
}

/** The expected number of candidates, exactly, as a bigint (2^bits). */
export function orderExpectedAttempts(p: OrderPattern): bigint {
  return 1n << BigInt(orderDifficultyBits(p));
}

/** Does a checksummed 0x address satisfy the pattern? The reference test the server and the grinder both use. */
export function addressMatchesOrder(p: OrderPattern, address: string): boolean {
  const body = address.slice(2);
  if (!/^0x[0-9a-fA-F]{40}$/.test(address) || p.prefix.length + p.suffix.length > 40) return false;
  const fold = (s: string) => (p.caseSensitive ? s : s.toLowerCase());
  return fold(body).startsWith(fold(p.prefix)) && fold(body).endsWith(fold(p.suffix));
}

/** How the pattern reads in the ordered address ("0xdead…beef"). */
export function describeOrderPattern(p: OrderPattern): string {
  return `0x${p.prefix}${p.suffix ? `…${p.suffix}` : "…"}`;
}
