// How the asking price compares with the rarity engine's estimate, in words a buyer can act on.

/** Within this fraction of the estimate, a price reads "in line with". */
const IN_LINE = 0.1;

export type PriceVerdict = { tone: "below" | "in-line" | "above"; text: string };

/** `price` and `estimate` are decimal strings in the same currency. Null when no comparison makes sense. */
export function priceVerdict(price: string, estimate: string): PriceVerdict | null {
  const p = Number(price);
  const e = Number(estimate);
  if (!(p > 0) || !(e > 0) || !Number.isFinite(p) || !Number.isFinite(e)) return null;
  const ratio = p / e;
  // Compared in tenths of a percent, so 1.1 / 1 (0.10000000000000009 in floating point) counts as 10%.
  if (Math.round(Math.abs(ratio - 1) * 1000) <= IN_LINE * 1000) return { tone: "in-line", text: "in line with the estimated value" };
  if (ratio >= 2) return { tone: "above", text: `${ratio >= 10 ? Math.round(ratio) : ratio.toFixed(1)}× the estimated value` };
  const percent = Math.round(Math.abs(ratio - 1) * 100);
  return ratio > 1 ? { tone: "above", text: `${percent}% above the estimated value` } : { tone: "below", text: `${percent}% below the estimated value` };
}
