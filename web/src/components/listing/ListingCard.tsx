// A listing as a card: tier, network, NEW / HOT / SOLD, the
// rarity ring at 9+, the featured (purple) or promoted (orange) tint, the address with its pattern
// highlighted, pattern, score, matched length and price. Non-owners get Buy Now; owners get their controls.
import { Link } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import type { ListingView } from "../../../../schema/browse";
import { buyButton, promotionTint } from "../../lib/listing-state";
import { formatPrice } from "../../lib/number-format";
import { hasRarityRing } from "../../lib/rarity-display";
import { patternRanges, patternText } from "../../lib/pattern-ranges";
import { WatchStar } from "../collectors/WatchStar";
import { HighlightedAddress } from "../HighlightedAddress";
import { NetworkBadge } from "../NetworkBadge";
import { RarityScore, StatusBadges, TierBadge } from "./badges";
import { ReservationNotice, useReservation } from "./Reservation";
import { buyPhaseLabel, useBuyFlow } from "./use-buy-flow";

// Only the listing's owner (an admin) sees these: a visitor's landing page does not carry their code.
const OwnerControls = lazy(() => import("./OwnerControls").then((m) => ({ default: m.OwnerControls })));

const TINT = {
  purple: "border-purple-500/60 bg-purple-950/30",
  orange: "border-orange-500/60 bg-orange-950/25",
  none: "border-slate-800 bg-slate-900/60",
};

// Cards and their placeholders share one minimum height, so swapping one for the other moves nothing. In the
// phone strip (compactOnPhone) the pattern / rarity / length details are left to the listing's own page. The
// compact heights are what a card measures (248 px in the phone strip, 266 px from sm up): at 12.5rem the
// placeholders were 48 px shorter, and everything below the strip moved down when the cards arrived.
const CARD_MIN_H = "min-h-[16.5rem]";
const COMPACT_MIN_H = "min-h-[15.5rem] sm:min-h-[16.625rem]";

export function ListingCard({ listing, compactOnPhone = false }: { listing: ListingView; compactOnPhone?: boolean }) {
  const tint = promotionTint(listing.promotionType);
  const ring = hasRarityRing(listing.rarityScore) ? "ring-2 ring-amber-400/80 ring-offset-2 ring-offset-slate-950" : "";
  // The Worker's figure at the rate GET /api/prices/live answers (the one rate source).
  const usd = listing.formattedUsd;
  return (
    <article
      className={`flex w-full flex-col gap-3 rounded-2xl border p-4 transition-colors ${compactOnPhone ? COMPACT_MIN_H : CARD_MIN_H} ${TINT[tint ?? "none"]} ${ring}`}
      data-testid="listing-card"
      data-promotion={listing.promotionType}
    >
      {tint && <span className="sr-only">{tint === "purple" ? "Featured listing" : "Promoted listing"}</span>}
      <div className="flex flex-wrap items-center gap-1.5">
        <TierBadge score={listing.rarityScore} />
        <StatusBadges createdAt={listing.createdAt} score={listing.rarityScore} status={listing.status} />
        <span className="ml-auto">
          <NetworkBadge network={listing.network} short />
        </span>
      </div>
      <Link
        to="/address/$id"
        params={{ id: String(listing.id) }}
        className="rounded text-sm leading-relaxed text-slate-200 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        <HighlightedAddress address={listing.address} ranges={patternRanges(listing.address, listing.network, listing.pattern)} />
      </Link>
      <dl className={`${compactOnPhone ? "hidden sm:grid" : "grid"} grid-cols-3 gap-2 text-xs`}>
        <div>
          <dt className="text-slate-400">Pattern</dt>
          <dd className="truncate font-mono text-slate-200" title={patternText(listing.pattern)}>
            {patternText(listing.pattern)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-400">Rarity</dt>
          <dd>
            <RarityScore score={listing.rarityScore} />
          </dd>
        </div>
        <div>
          <dt className="text-slate-400" title="Characters in the matched pattern">
            Length
          </dt>
          <dd className="text-slate-200">
            {listing.patternLength} {listing.patternLength === 1 ? "character" : "characters"}
          </dd>
        </div>
      </dl>
      <div className="mt-auto flex items-end justify-between gap-2">
        <div>
          <div className="text-lg font-bold text-white tabular-nums">
            {formatPrice(listing.price)} <span className="text-sm font-semibold text-slate-300">{listing.currency}</span>
          </div>
          <div className="text-xs text-slate-400" data-testid="card-usd">
            {usd}
          </div>
        </div>
        {/* Beside the price, not among the badges: there it wrapped their row on a phone's narrow card. */}
        <WatchStar listingId={listing.id} address={listing.address} size="sm" />
      </div>
      {listing.isOwner ? (
        <Suspense fallback={<p className="text-sm text-slate-400">Loading your listing's controls…</p>}>
          <OwnerControls listing={listing} />
        </Suspense>
      ) : (
        <CardBuyButton listing={listing} />
      )}
    </article>
  );
}

function CardBuyButton({ listing }: { listing: ListingView }) {
  const flow = useBuyFlow(listing, "card");
  const state = buyButton(listing);
  const reservation = useReservation(listing);
  const base = "w-full rounded-lg px-4 py-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400";
  if (state.enabled && reservation.kind !== "free") return <ReservationNotice state={reservation} />;
  if (!state.enabled) {
    return (
      <button type="button" disabled className={`${base} cursor-not-allowed bg-slate-800 text-slate-400`}>
        {state.label}
      </button>
    );
  }
  return (
    <button
      type="button"
      onClick={flow.start}
      aria-busy={flow.phase !== "idle"}
      disabled={flow.phase !== "idle"}
      className={`${base} bg-violet-600 text-white hover:bg-violet-500 disabled:cursor-wait disabled:opacity-80`}
    >
      {buyPhaseLabel(flow.phase, "Buy Now")}
    </button>
  );
}

/** A card-shaped loading placeholder. */
export function ListingCardSkeleton({ compactOnPhone = false }: { compactOnPhone?: boolean }) {
  return (
    <div
      className={`flex flex-col gap-3 rounded-2xl border border-slate-800 bg-slate-900/60 p-4 ${compactOnPhone ? COMPACT_MIN_H : CARD_MIN_H}`}
      aria-hidden
      data-testid="listing-card-skeleton"
    >
      <div className="flex gap-2">
        <div className="h-5 w-20 rounded bg-slate-800" />
        <div className="ml-auto h-5 w-12 rounded-full bg-slate-800" />
      </div>
      <div className="h-4 w-full rounded bg-slate-800" />
      <div className="h-4 w-2/3 rounded bg-slate-800" />
      <div className={`${compactOnPhone ? "hidden sm:grid" : "grid"} grid-cols-3 gap-2`}>
        <div className="h-8 rounded bg-slate-800" />
        <div className="h-8 rounded bg-slate-800" />
        <div className="h-8 rounded bg-slate-800" />
      </div>
      <div className="mt-auto h-6 w-1/2 rounded bg-slate-800" />
      <div className="h-9 w-full rounded-lg bg-slate-800" />
    </div>
  );
}
