// The listing page: network and rarity badges, the
// address with its pattern, category and pattern, Copy Address, View on Explorer, the price, availability,
// the listed date and the Purchase Breakdown from calculate-fees. Buy Now only when the listing can be bought; a
// sold listing says when and for how much it sold, with a link to the sale.
import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { useEffect } from "react";
import type { ListingView } from "../../../schema/browse";
import { listingContextQuery } from "../api/listing-context";
import { listingQuery } from "../api/listings";
import { chainConfigQuery, feesQuery } from "../api/market";
import { watchersQuery } from "../api/collectors";
import { WATCH_CONTROL_HEIGHT, WatchControl } from "../components/collectors/WatchStar";
import { OfferPanel } from "../components/offers/OfferPanel";
import { ReservationNotice, useReservation } from "../components/listing/Reservation";
import { PriceBreakdown } from "../components/purchase/PriceBreakdown";
import { buyPhaseLabel, useBuyFlow } from "../components/listing/use-buy-flow";
import { currentViewer, useViewer } from "../components/listing/use-viewer";
import { pageTitle } from "../server-rendered/page-title";
import { buyButton } from "../lib/listing-state";
import { formatPriceTrimmed } from "../lib/number-format";
import { ListingExplanation } from "./-address/ListingExplanation";
import { OwnerPanel } from "./-address/OwnerPanel";
import { SoldNotice } from "./-address/SoldNotice";
import { ListingPrice, ListingSummary } from "../server-rendered/ListingSummary";

export const Route = createFileRoute("/address/$id")({
  head: ({ params }) => pageTitle(`Listing #${params.id}`),
  // Starts the read as soon as a link to the page is hovered or followed; the page shows its own skeleton.
  // With the listing at hand (the Worker embeds it in the page it serves), what the page shows beside it starts
  // too: a prerendered page then renders once with all of it (main.tsx waits for the reads in flight) instead
  // of once per answer. The live prices are left to the page: an outside feed, so it does not hold the render.
  loader: ({ context: { queryClient }, params }) => {
    const viewer = currentViewer();
    const read = listingQuery(params.id, viewer);
    void queryClient.prefetchQuery(read);
    void queryClient.prefetchQuery(chainConfigQuery());
    void queryClient.prefetchQuery(watchersQuery(params.id));
    const listing = queryClient.getQueryData(read.queryKey);
    if (!listing) return;
    void queryClient.prefetchQuery(listingContextQuery(params.id, viewer));
    void queryClient.prefetchQuery(feesQuery(listing.price, listing.currency));
  },
  component: ListingPage,
});

function ListingPage() {
  const { id } = Route.useParams();
  const listing = useQuery({
    ...listingQuery(id, useViewer()),
    // Signing in or out reads the listing again (isOwner); keep showing this listing meanwhile.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === id ? previous : undefined),
  });
  if (listing.isPending) return <DetailSkeleton />;
  if (listing.isError) return <AddressNotFound />;
  return <ListingDetail listing={listing.data} />;
}

/**
 * The row above the summary: Back to Marketplace, and the listing's watch control (Watch, and how many wallets watch
 * it). One row at every width, and the skeleton (and so the prerendered page) keeps it at the control's height, so
 * nothing moves when the listing arrives.
 */
function TopBar({ listing }: { listing?: ListingView }) {
  return (
    <div className={`flex items-start justify-between gap-x-4 ${WATCH_CONTROL_HEIGHT}`}>
      <div className="flex h-9 items-center">
        <BackLink />
      </div>
      {listing && <WatchControl listingId={listing.id} address={listing.address} />}
    </div>
  );
}

function BackLink() {
  return (
    <Link
      to="/marketplace"
      className="inline-flex items-center gap-1 rounded text-sm font-semibold text-violet-300 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-violet-400"
    >
      <span aria-hidden>←</span> Back to Marketplace
    </Link>
  );
}

function AddressNotFound() {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">Address Not Found</h1>
      <p className="mt-3 text-slate-400">This listing does not exist or is no longer available.</p>
      <div className="mt-6">
        <BackLink />
      </div>
    </section>
  );
}

/**
 * The page before its listing is read, laid out as ListingDetail is (same wrapper, the real back link), so the
 * summary and the price land in the same places when they arrive. The Worker puts the rendered summary and price
 * into the two `data-listing-slot` placeholders of the page it serves (worker/landing/listing-page.ts).
 */
function DetailSkeleton() {
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10" aria-busy="true" data-testid="detail-skeleton">
      <span className="sr-only">Loading address details</span>
      <TopBar />
      <div data-listing-slot="summary" className="space-y-5 rounded-2xl border border-slate-800 bg-slate-900/60 p-5 sm:p-6" aria-hidden>
        <div className="flex gap-2">
          <div className="h-6 w-24 rounded-full bg-slate-800" />
          <div className="h-6 w-28 rounded-full bg-slate-800" />
        </div>
        <div className="h-8 w-full rounded bg-slate-800" />
        <div className="grid grid-cols-2 gap-4">
          <div className="h-12 rounded bg-slate-800" />
          <div className="h-12 rounded bg-slate-800" />
        </div>
        <div className="flex gap-2">
          <div className="h-9 w-32 rounded-lg bg-slate-800" />
          <div className="h-9 w-40 rounded-lg bg-slate-800" />
        </div>
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <div data-listing-slot="price" className="h-48 rounded-2xl bg-slate-800/60" aria-hidden />
        <div className="h-48 rounded-2xl bg-slate-800/60" aria-hidden />
      </div>
    </div>
  );
}

function ListingDetail({ listing }: { listing: ListingView }) {
  const chainConfig = useQuery(chainConfigQuery());
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10">
      <TopBar listing={listing} />
      <ListingSummary listing={listing} chainConfig={chainConfig.data} />

      <div className="grid gap-6 md:grid-cols-2">
        <ListingPrice listing={listing} />
        <PurchaseBreakdown listing={listing} />
      </div>
      <OfferPanel listing={listing} />
      <ListingExplanation listing={listing} />
    </div>
  );
}

function PurchaseBreakdown({ listing }: { listing: ListingView }) {
  const fees = useQuery(feesQuery(listing.price, listing.currency));
  // The spec: a failed fee calculation is only logged; the rows then show what is known.
  useEffect(() => {
    if (fees.isError) console.error("Fee calculation failed:", fees.error.message);
  }, [fees.isError, fees.error]);
  const amount = (value: string) => `${formatPriceTrimmed(value)} ${listing.currency}`;
  const pendingText = fees.isPending ? "Calculating..." : "Not available";
  const canBuy = buyButton(listing).enabled;
  const reservation = useReservation(listing);

  return (
    <section aria-labelledby="breakdown-title" className="flex flex-col gap-4 rounded-2xl border border-slate-800 bg-slate-900/60 p-5 sm:p-6">
      <h2 id="breakdown-title" className="text-xs font-semibold tracking-wide text-slate-400 uppercase">
        Purchase Breakdown
      </h2>
      <PriceBreakdown
        currency={listing.currency}
        price={fees.data?.listingPrice ?? listing.price}
        fees={fees.data ?? null}
        networkFee={fees.data?.gasFee ?? null}
        pendingText={pendingText}
      />
      <div className="mt-auto">
        {listing.isOwner ? (
          <OwnerPanel listing={listing} reservation={reservation} />
        ) : canBuy && reservation.kind !== "free" ? (
          <ReservationNotice state={reservation} />
        ) : canBuy ? (
          <DetailBuyButton listing={listing} label={`Buy Now - ${fees.data ? amount(fees.data.totalAmount) : amount(listing.price)}`} />
        ) : listing.status === "sold" ? (
          <SoldNotice listing={listing} />
        ) : (
          <p className="text-sm text-amber-300">This address is currently not available for purchase.</p>
        )}
      </div>
    </section>
  );
}

function DetailBuyButton({ listing, label }: { listing: ListingView; label: string }) {
  const flow = useBuyFlow(listing, "detail");
  return (
    <button
      type="button"
      onClick={flow.start}
      disabled={flow.phase !== "idle"}
      aria-busy={flow.phase !== "idle"}
      className="w-full rounded-lg bg-violet-600 px-4 py-2.5 font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400 disabled:cursor-wait disabled:opacity-80"
    >
      {buyPhaseLabel(flow.phase, label)}
    </button>
  );
}
