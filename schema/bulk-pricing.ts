// The spec's fixed bulk-upload tables, by the number of matched characters
// (the CSV's pattern_matched column). docs/rarity.md: bulk uploads use these tables for price AND rarity, so a bulk
// listing's rarityScore is the table's figure, not the rarity engine's; the engine still fills the category,
// pattern and pattern fields, so bulk listings search and filter like any other.
//
// The spec lists every bulk row as ETH. Solana rows are listed in SOL with the same numbers (the spec has no
// Solana table, and converting at a live rate would make re-uploads price differently).

/** Price by matched length; 8 or more is not listed (the spec marks those SOLD and skips them). */
export function bulkPrice(matchedLength: number): string | null {
  if (matchedLength >= 8) return null;
  if (matchedLength === 7) return "0.002";
  if (matchedLength === 6) return "0.0002";
  if (matchedLength === 5) return "0.00002";
  return "0.00001";
}

/** Rarity by matched length: 1 = 0.5, 4 = 1, 5 = 1.5, 6 = 2, 7 = 2.5, 8+ = 3, any other length 0.5. */
export function bulkRarity(matchedLength: number): number {
  if (matchedLength >= 8) return 3;
  return { 4: 1, 5: 1.5, 6: 2, 7: 2.5 }[matchedLength] ?? 0.5;
}
