// A listing's rarity score in the words and colours of the screens: the card tier and the table label (both scales
// are declared in schema/rarity-scales.ts), the colour elsewhere, the score text, and the HOT and ring thresholds.
import { CARD_TIERS, type CardTierLabel, cardTierOf, TABLE_LABELS, type TableLabel, tableLabelOf } from "../../../schema/rarity-scales";

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

/** The score as the screens print it beside a label: one decimal, within 0 to 10. */
const scoreText = (r: Rarity): string => Math.min(10, Math.max(0, score(r))).toFixed(1);

/**
 * The table's Type cell in words for a hover or a screen reader: the grade, its score and the card's tier for the
 * same score, so "RARE 7.8" in the table is never read as the card's RARE (docs/rarity.md#two-scales).
 */
export function tableGradeTitle(r: Rarity): string {
  return `Grade ${rarityLabel(r)} (rarity ${scoreText(r)}/10); its card shows the tier ${rarityTier(r).label}`;
}

type Range = { label: string; lo: number; hi: number };
/** A scale as score ranges [lo, hi), highest first (each step ends where the one above begins). */
const ranges = (scale: readonly { label: string; min: number }[]): Range[] =>
  scale.map((step, i) => ({ label: step.label, lo: step.min, hi: i === 0 ? Number.POSITIVE_INFINITY : scale[i - 1].min }));

/** "9+", "under 5", "4+" for a range's lower or upper bound. */
const bound = (r: Range) => (Number.isFinite(r.lo) ? `${r.lo}+` : `under ${r.hi}`);

/**
 * The legend under the marketplace table, built from both scales so it cannot drift from them: each table grade
 * with its scores and the card tier (or tiers) the same scores get.
 */
export const TYPE_LEGEND: string = (() => {
  const cards = ranges(CARD_TIERS);
  const parts = ranges(TABLE_LABELS).map((grade) => {
    const over = cards.filter((c) => c.lo < grade.hi && c.hi > grade.lo);
    const cardWords =
      over.length === 1
        ? over[0].label
        : over.map((c, i) => (i === over.length - 1 ? `${c.label} under ${over[i - 1].lo}` : `${c.label} from ${c.lo}`)).join(" and ");
    return `${grade.label} ${bound(grade)} is ${cardWords}`;
  });
  return `Type is the table's grade of the address's rarity score out of 10, shown with the score. Cards name the same scores by tier, so each grade here is a card tier there: ${parts.join("; ")}.`;
})();

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
