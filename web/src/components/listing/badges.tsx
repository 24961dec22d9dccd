// Small pieces every listing view shares: the rarity score in its colour, the card's tier badge, and the
// NEW / HOT / SOLD badges. The rules themselves are in lib/listing-state.ts and lib/rarity-display.ts.
import { formatRarity, isHot, type RarityColour, rarityColour, rarityLabel, rarityTier, tableGradeTitle } from "../../lib/rarity-display";
import { isNew } from "../../lib/listing-state";

export const RARITY_TEXT: Record<RarityColour, string> = {
  purple: "text-purple-300",
  blue: "text-sky-300",
  green: "text-emerald-300",
  grey: "text-slate-400",
};

export const RARITY_CHIP: Record<RarityColour, string> = {
  purple: "bg-purple-500/15 text-purple-200 ring-purple-500/40",
  blue: "bg-sky-500/15 text-sky-200 ring-sky-500/40",
  green: "bg-emerald-500/15 text-emerald-200 ring-emerald-500/40",
  grey: "bg-slate-500/15 text-slate-300 ring-slate-500/40",
};

/** "7.3/10" in the rarity colour. */
export function RarityScore({ score, className = "" }: { score: string | number; className?: string }) {
  return <span className={`font-semibold tabular-nums ${RARITY_TEXT[rarityColour(score)]} ${className}`}>{formatRarity(score)}</span>;
}

/** The rarity as a badge ("Rarity 7.3/10"), coloured by score: the detail page's header. */
export function RarityBadge({ score }: { score: string | number }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${RARITY_CHIP[rarityColour(score)]}`}>
      Rarity {formatRarity(score)}
    </span>
  );
}

const TIER_CLASSES: Record<string, string> = {
  "ULTRA RARE": "bg-gradient-to-r from-amber-300 via-yellow-400 to-amber-500 text-slate-950 shadow shadow-amber-500/30",
  RARE: "bg-purple-500/20 text-purple-200",
  UNCOMMON: "bg-sky-500/20 text-sky-200",
  NOTABLE: "bg-cyan-500/15 text-cyan-200",
  COMMON: "bg-emerald-500/15 text-emerald-200",
  BASIC: "bg-slate-600/30 text-slate-300",
};

/** The card's tier: ULTRA RARE (gold gradient), RARE, UNCOMMON, NOTABLE, COMMON, BASIC. */
export function TierBadge({ score }: { score: string | number }) {
  const tier = rarityTier(score);
  return <span className={`rounded-md px-2 py-0.5 text-xs font-extrabold tracking-wider ${TIER_CLASSES[tier.label]}`}>{tier.label}</span>;
}

/**
 * The marketplace table's Type cell: the specification's table grade beside its score ("RARE 7.8"), never alone, with
 * the card's tier for the same score on hover and for screen readers; the legend under the table maps both scales.
 */
export function TableGrade({ score, className = "" }: { score: string | number; className?: string }) {
  const shown = Math.min(10, Math.max(0, Number(score) || 0)).toFixed(1);
  return (
    <span
      className={`text-xs font-bold tracking-wider ${RARITY_TEXT[rarityColour(score)]} ${className}`}
      title={tableGradeTitle(score)}
      data-testid="type-label"
    >
      {rarityLabel(score)} <span className="font-semibold tracking-normal text-slate-300 tabular-nums">{shown}</span>
    </span>
  );
}

/** NEW (created within 7 days), HOT (8.5+), SOLD. */
export function StatusBadges({ createdAt, score, status }: { createdAt: string; score: string | number; status: string }) {
  return (
    <>
      {isNew(createdAt) && <span className="rounded-md bg-emerald-500/20 px-1.5 py-0.5 text-xs font-bold text-emerald-300">NEW</span>}
      {isHot(score) && <span className="rounded-md bg-rose-500/20 px-1.5 py-0.5 text-xs font-bold text-rose-300">HOT</span>}
      {status === "sold" && <span className="rounded-md bg-slate-200 px-1.5 py-0.5 text-xs font-bold text-slate-900">SOLD</span>}
    </>
  );
}
