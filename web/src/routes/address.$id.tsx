// The listing page (transactions-profile-admin.md, "Address detail page"): network and rarity badges, the
// address with its pattern, category and pattern, Copy Address, View on Explorer, the price, availability,
// the listed date and the Purchase Breakdown from calculate-fees. Buy Now only when the listing can be bought.
import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { useEffect } from "react";
import type { ListingView } from "../../../schema/browse";
import { listingQuery } from "../api/listings";
import { chainConfigQuery, feesQuery, livePricesQuery } from "../api/market";
import { HighlightedAddress } from "../components/HighlightedAddress";
import { RarityBadge, StatusBadges } from "../components/listing/badges";
import { buyPhaseLabel, useBuyFlow } from "../components/listing/use-buy-flow";
import { currentViewer, useViewer } from "../components/listing/use-viewer";
import { NetworkBadge } from "../components/NetworkBadge";
import { pageTitle } from "../components/page-title";
import { useCopy } from "../components/use-copy";
import { availabilityText, buyButton, formatPriceTrimmed, formatUsd } from "../lib/display";
import { explorerName, explorerUrl } from "../lib/explorer";
import { patternRanges } from "../lib/pattern-ranges";
import { ListingExplanation } from "./-address/ListingExplanation";

/** How long "Copied!" stays on the button (transactions-profile-admin.md §9). */

export const Route = createFileRoute("/address/$id")({
  head: ({ params }) => pageTitle(`Listing #${params.id}`),
  // Starts the read as soon as a link to the page is hovered or followed; the page shows its own skeleton.
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(listingQuery(params.id, currentViewer()));
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

function BackLink() {
  return (
    <Link to="/marketplace" className="inline-flex items-center gap-1 rounded text-sm font-semibold text-violet-300 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-violet-400">
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

function DetailSkeleton() {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10" aria-busy="true" data-testid="detail-skeleton">
      <span className="sr-only">Loading address details</span>
      <div className="animate-pulse space-y-6" aria-hidden>
        <div className="h-4 w-40 rounded bg-slate-800" />
        <div className="space-y-4 rounded-2xl border border-slate-800 bg-slate-900/60 p-6">
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
          <div className="h-48 rounded-2xl bg-slate-800/60" />
          <div className="h-48 rounded-2xl bg-slate-800/60" />
        </div>
      </div>
    </div>
  );
}

const listedDate = new Intl.DateTimeFormat("en-US", { dateStyle: "long" });

function ListingDetail({ listing }: { listing: ListingView }) {
  const available = availabilityText(listing) === "Available for Purchase";
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10">
      <BackLink />
      <section className="space-y-5 rounded-2xl border border-slate-800 bg-slate-900/60 p-5 sm:p-6" aria-labelledby="listing-address">
        <div className="flex flex-wrap items-center gap-2">
          <NetworkBadge network={listing.network} />
          <RarityBadge score={listing.rarityScore} />
          <StatusBadges createdAt={listing.createdAt} score={listing.rarityScore} status={listing.status} />
        </div>
        <h1 id="listing-address" className="text-lg leading-relaxed text-white sm:text-2xl">
          <HighlightedAddress address={listing.address} ranges={patternRanges(listing.address, listing.network, listing.pattern)} />
        </h1>
        <dl className="grid grid-cols-2 gap-4 text-sm">
          <div>
            <dt className="text-xs tracking-wide text-slate-400 uppercase">Category</dt>
            <dd className="mt-1 font-semibold text-slate-100">{listing.category}</dd>
          </div>
          <div>
            <dt className="text-xs tracking-wide text-slate-400 uppercase">Pattern</dt>
            <dd className="mt-1 font-mono font-semibold break-all text-slate-100">{listing.pattern}</dd>
          </div>
        </dl>
        <div className="flex flex-wrap items-center gap-2">
          <CopyAddressButton address={listing.address} />
          <ExplorerButton listing={listing} />
        </div>
      </section>

      <div className="grid gap-6 md:grid-cols-2">
        <section aria-labelledby="price-title" className="space-y-4 rounded-2xl border border-slate-800 bg-slate-900/60 p-5 sm:p-6">
          <h2 id="price-title" className="text-xs font-semibold tracking-wide text-slate-400 uppercase">
            Price
          </h2>
          <div>
            <div className="text-3xl font-extrabold text-white tabular-nums" data-testid="detail-price">
              {formatPriceTrimmed(listing.price)} {listing.currency}
            </div>
            <div className="mt-1 text-slate-400">{listing.formattedUsd}</div>
          </div>
          <dl className="space-y-2 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-slate-400">Status</dt>
              <dd className={available ? "font-semibold text-emerald-300" : "font-semibold text-amber-300"}>{availabilityText(listing)}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-400">Listed</dt>
              <dd className="text-slate-200">
                <time dateTime={listing.createdAt}>{listedDate.format(new Date(listing.createdAt))}</time>
              </dd>
            </div>
          </dl>
        </section>
        <PurchaseBreakdown listing={listing} />
      </div>
      <ListingExplanation listing={listing} />
    </div>
  );
}

function CopyAddressButton({ address }: { address: string }) {
  const { copied, copy } = useCopy(address, "Address");
  return (
    <button
      type="button"
      onClick={() => void copy()}
      className="rounded-lg border border-slate-700 px-3 py-1.5 text-sm font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
    >
      {copied ? "Copied!" : "Copy Address"}
    </button>
  );
}

function ExplorerButton({ listing }: { listing: ListingView }) {
  const config = useQuery(chainConfigQuery());
  const url = config.data ? explorerUrl(listing.network, listing.address, config.data) : null;
  const className = "rounded-lg border border-slate-700 px-3 py-1.5 text-sm font-semibold text-slate-200";
  if (!url) {
    // Loading, or a local development chain that no public explorer indexes.
    return (
      <>
        <button type="button" disabled aria-describedby={config.data ? "explorer-note" : undefined} className={`${className} cursor-not-allowed opacity-50`}>
          View on Explorer
        </button>
        {config.data && (
          <span id="explorer-note" className="text-xs text-slate-400">
            This marketplace runs on a local development chain, which no public explorer shows.
          </span>
        )}
      </>
    );
  }
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      className={`${className} hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400`}
    >
      View on Explorer <span aria-hidden>↗</span>
      <span className="sr-only"> (opens {explorerName(listing.network)} in a new tab)</span>
    </a>
  );
}

function PurchaseBreakdown({ listing }: { listing: ListingView }) {
  const fees = useQuery(feesQuery(listing.price, listing.currency));
  const prices = useQuery(livePricesQuery());
  // The spec: a failed fee calculation is only logged; the rows then show what is known.
  useEffect(() => {
    if (fees.isError) console.error("Fee calculation failed:", fees.error.message);
  }, [fees.isError, fees.error]);
  const rate = prices.data ? (listing.currency === "ETH" ? prices.data.ethPrice : prices.data.solPrice) : null;
  const amount = (value: string) => `${formatPriceTrimmed(value)} ${listing.currency}`;
  const pendingText = fees.isPending ? "Calculating..." : "Not available";
  const canBuy = buyButton(listing).enabled;

  return (
    <section aria-labelledby="breakdown-title" className="flex flex-col gap-4 rounded-2xl border border-slate-800 bg-slate-900/60 p-5 sm:p-6">
      <h2 id="breakdown-title" className="text-xs font-semibold tracking-wide text-slate-400 uppercase">
        Purchase Breakdown
      </h2>
      <dl className="space-y-2 text-sm" data-testid="purchase-breakdown">
        <div className="flex justify-between gap-4">
          <dt className="text-slate-400">Listing Price</dt>
          <dd className="text-slate-100 tabular-nums">{amount(fees.data?.listingPrice ?? listing.price)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-400">Gas Fee (est.)</dt>
          <dd className="text-slate-100 tabular-nums">{fees.data ? amount(fees.data.gasFee) : pendingText}</dd>
        </div>
        <div className="flex justify-between gap-4 border-t border-slate-800 pt-2">
          <dt className="font-semibold text-slate-200">Total Amount</dt>
          <dd className="text-right">
            <div className="font-bold text-white tabular-nums">{fees.data ? amount(fees.data.totalAmount) : pendingText}</div>
            {fees.data && rate !== null && <div className="text-xs text-slate-400">{formatUsd(Number(fees.data.totalAmount) * rate)}</div>}
          </dd>
        </div>
      </dl>
      <div className="mt-auto">
        {listing.isOwner ? (
          <p className="text-sm text-slate-400">You own this listing.</p>
        ) : canBuy ? (
          <DetailBuyButton listing={listing} label={`Buy Now - ${fees.data ? amount(fees.data.totalAmount) : amount(listing.price)}`} />
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
