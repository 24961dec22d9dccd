// The listing page's first screen: the summary (badges, the address, category and pattern, Copy and Explorer)
// and the price with its availability. The route renders them, and so does the Worker (worker/landing/listing-page.ts,
// react-dom/server) into the page it serves for /address/{id}, so the address, the page's largest element,
// paints from the HTML and stays exactly where it is when the app renders over it. Hence: props only, no
// router or query-client hooks, and nothing that depends on where it runs (the listed date is in UTC).
import type { ListingView } from "../../../schema/browse";
import { HighlightedAddress } from "../components/HighlightedAddress";
import { RarityBadge, StatusBadges } from "../components/listing/badges";
import { NetworkBadge } from "../components/NetworkBadge";
import { useCopy } from "../components/use-copy";
import { categoryLabel } from "../lib/category-words";
import { availabilityText } from "../lib/listing-state";
import { formatDay } from "../lib/date-format";
import { formatPriceTrimmed } from "../lib/number-format";
import { type ChainConfig, explorerName, explorerUrl } from "../../../schema/explorer";
import { patternRanges, patternText } from "../lib/pattern-ranges";

/** `chainConfig` is GET /api/config's answer, undefined while it loads (Explorer is then disabled). */
export function ListingSummary({ listing, chainConfig }: { listing: ListingView; chainConfig: ChainConfig | undefined }) {
  return (
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
          <dd className="mt-1 font-semibold text-slate-100">{categoryLabel(listing.category)}</dd>
        </div>
        <div>
          <dt className="text-xs tracking-wide text-slate-400 uppercase">Pattern</dt>
          <dd className="mt-1 font-mono font-semibold break-all text-slate-100">{patternText(listing.pattern)}</dd>
        </div>
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <CopyAddressButton address={listing.address} />
        <ExplorerButton listing={listing} config={chainConfig} />
      </div>
    </section>
  );
}

// UTC, so the Worker's render and the browser's agree on the day whatever the visitor's time zone.

export function ListingPrice({ listing }: { listing: ListingView }) {
  const availability = availabilityText(listing);
  return (
    <section aria-labelledby="price-title" className="space-y-4 rounded-2xl border border-slate-800 bg-slate-900/60 p-5 sm:p-6">
      <h2 id="price-title" className="text-xs font-semibold tracking-wide text-slate-400 uppercase">
        Price
      </h2>
      <div>
        <div className="text-3xl font-extrabold text-white tabular-nums" data-testid="detail-price">
          {formatPriceTrimmed(listing.price)} {listing.currency}
        </div>
        <div className="mt-1 text-slate-400" data-testid="detail-price-usd">
          {listing.formattedUsd}
        </div>
      </div>
      <dl className="space-y-2 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-slate-400">Status</dt>
          <dd className={availability === "Available for Purchase" ? "font-semibold text-emerald-300" : "font-semibold text-amber-300"}>{availability}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-400">Listed</dt>
          <dd className="text-slate-200">
            <time dateTime={listing.createdAt}>{formatDay(listing.createdAt, { utc: true })}</time>
          </dd>
        </div>
      </dl>
    </section>
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

function ExplorerButton({ listing, config }: { listing: ListingView; config: ChainConfig | undefined }) {
  const url = config ? explorerUrl(listing.network, listing.address, config) : null;
  const className = "rounded-lg border border-slate-700 px-3 py-1.5 text-sm font-semibold text-slate-200";
  if (!url) {
    // Loading, or a local development chain that no public explorer indexes.
    return (
      <>
        <button type="button" disabled aria-describedby={config ? "explorer-note" : undefined} className={`${className} cursor-not-allowed opacity-50`}>
          View on Explorer
        </button>
        {config && (
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
