// The specification's two rarity scales, side by side (docs/rarity.md#two-scales): the card's tier and the
// marketplace table's label. They share words ("RARE" is 8+ on a card and 7 in the table), so a screen never
// shows a table label without its score, and every screen, the analytics and the tests take the words from here.
// Each scale is its lower bounds from the highest; the last step takes every lower score.

/** The rarity tier on cards. */
export const CARD_TIERS = [
  { label: "ULTRA RARE", min: 9 },
  { label: "RARE", min: 8 },
  { label: "UNCOMMON", min: 7 },
  { label: "NOTABLE", min: 6 },
  { label: "COMMON", min: 4 },
  { label: "BASIC", min: Number.NEGATIVE_INFINITY },
] as const;

/** The rarity label in the marketplace table, shown with its score. */
export const TABLE_LABELS = [
  { label: "GOLD", min: 9 },
  { label: "EPIC", min: 8 },
  { label: "RARE", min: 7 },
  { label: "HIGH", min: 6 },
  { label: "PLUS", min: 5 },
  { label: "BASE", min: Number.NEGATIVE_INFINITY },
] as const;

export type CardTierLabel = (typeof CARD_TIERS)[number]["label"];
export type TableLabel = (typeof TABLE_LABELS)[number]["label"];

type Step<L extends string> = { readonly label: L; readonly min: number };

/** The step of `scale` a score falls in (an unreadable score reads as 0). */
function stepOf<L extends string>(scale: readonly Step<L>[], score: number): L {
  const s = Number.isFinite(score) ? score : 0;
  // The last step's bound is -Infinity, so a step is always found.
  return (scale.find((step) => s >= step.min) ?? scale[scale.length - 1]).label;
}

export const cardTierOf = (score: number): CardTierLabel => stepOf(CARD_TIERS, score);
export const tableLabelOf = (score: number): TableLabel => stepOf(TABLE_LABELS, score);
