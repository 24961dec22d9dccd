// A listing's rarity score in the words and colours of the screens: the card tier and the table label (both scales
// are declared in schema/rarity-scales.ts), the colour elsewhere, the score text, and the HOT and ring thresholds.
import { CARD_TIERS, type CardTierLabel, cardTierOf, type TableLabel, tableLabelOf } from "../../../schema/rarity-scales";

type Rarity = number | string;
const score = (r: Rarity): number => {
  const n = typeof r === "number" ? r : Number(r);
  return Number.isFinite(n) ? n : 0;
};

export type RarityColour = "purple" | "blue" | "green" | "grey";
export type CardTier = { label: CardTierLabel; gold: boolean };

/** Card badge (schema/rarity-scales.ts): the top tier, ULTRA RARE, wears the gold gradient. */
export function rarityTier(r: Rarity): CardTier {
  const label = cardTierOf(score(r));
  return { label, gold: label === CARD_TIERS[0].label };
}

/** Marketplace table Type column (schema/rarity-scales.ts); always shown beside the score. */
export function rarityLabel(r: Rarity): TableLabel {
  return tableLabelOf(score(r));
}

/** Rarity colour everywhere else: 8+ purple, 6+ blue, 4+ green, else grey. */
export function rarityColour(r: Rarity): RarityColour {
  const s = score(r);
  if (s >= 8) return "purple";
  if (s >= 6) return "blue";
  if (s >= 4) return "green";
  return "grey";
}

/** "7.3/10": the score with one decimal. */
export function formatRarity(r: Rarity): string {
  return `${Math.min(10, Math.max(0, score(r))).toFixed(1)}/10`;
}

/** HOT: rarity 8.5 or more. */
export const isHot = (r: Rarity): boolean => score(r) >= 8.5;

/** Highlight ring: rarity 9 or more. */
export const hasRarityRing = (r: Rarity): boolean => score(r) >= 9;
