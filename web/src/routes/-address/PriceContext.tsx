// The price in context: the asking price beside the rarity engine's estimate, the listing's price history as
// a small chart, and a few comparable listings and recent sales of the same category and length.
import { Link } from "@tanstack/react-router";
import type { ListingView } from "../../../../schema/browse";
import type { ListingContext, PricePoint, RecentSale } from "../../../../schema/listing-context";
import { HighlightedAddress } from "../../components/HighlightedAddress";
import { RarityScore } from "../../components/listing/badges";
import { formatDay, formatSaleDay } from "../../lib/date-format";
import { formatPriceTrimmed, formatUsd } from "../../lib/number-format";
import { shortAddress } from "../../lib/short-address";
import { patternRanges } from "../../lib/pattern-ranges";
import { priceChart } from "./price-chart";
import { priceVerdict } from "./price-verdict";

const VERDICT_TONE = { below: "text-emerald-300", "in-line": "text-sky-300", above: "text-amber-300" } as const;

export function PriceContext({ listing, context }: { listing: ListingView; context: ListingContext }) {
  const estimate = context.estimatedValue;
  const verdict = priceVerdict(listing.price, estimate.amount);
  return (
    <section aria-labelledby="context-title" className="space-y-5 rounded-2xl border border-slate-800 bg-slate-900/60 p-5 sm:p-6">
      <h2 id="context-title" className="text-lg font-bold text-white">
        Is the price fair?
      </h2>
      <dl className="grid grid-cols-2 gap-3 text-sm" data-testid="price-vs-estimate">
        <div className="rounded-lg bg-slate-950/60 p-3">
          <dt className="text-xs tracking-wide text-slate-400 uppercase">Asking price</dt>
          <dd className="mt-1 font-semibold text-white tabular-nums">
            {formatPriceTrimmed(listing.price)} {listing.currency}
            <span className="block text-xs font-normal text-slate-400">{listing.formattedUsd}</span>
          </dd>
        </div>
        <div className="rounded-lg bg-slate-950/60 p-3">
          <dt className="text-xs tracking-wide text-slate-400 uppercase">Estimated value</dt>
          <dd className="mt-1 font-semibold text-white tabular-nums">
            {formatPriceTrimmed(estimate.amount)} {estimate.currency}
            <span className="block text-xs font-normal text-slate-400">{estimate.formattedUsd}</span>
            <span className="block text-xs font-normal text-slate-400" data-testid="estimate-basis">
              {estimate.basedOnSales > 0
                ? `Calibrated on ${estimate.basedOnSales} recorded ${estimate.basedOnSales === 1 ? "sale" : "sales"}`
                : "Model estimate: no recorded sales to calibrate on yet"}
            </span>
          </dd>
        </div>
      </dl>
      {verdict && (
        <p className="text-sm text-slate-300">
          The asking price is <strong className={VERDICT_TONE[verdict.tone]}>{verdict.text}</strong>, which the marketplace derives from the compute it would
          take to generate the pattern.
        </p>
      )}
      <PriceHistory points={context.priceHistory} currency={listing.currency} />
      <div className="grid gap-5 md:grid-cols-2">
        <Comparables listings={context.comparables} />
        <RecentSales sales={context.recentSales} />
      </div>
    </section>
  );
}

const CHART_W = 320;
const CHART_H = 96;

function PriceHistory({ points, currency }: { points: PricePoint[]; currency: string }) {
  const chart = priceChart(points, Date.now(), CHART_W, CHART_H);
  return (
    <figure className="space-y-2" data-testid="price-history">
      <figcaption className="text-xs font-semibold tracking-wide text-slate-400 uppercase">Price history</figcaption>
      {chart ? (
        <>
          <svg viewBox={`0 0 ${CHART_W} ${CHART_H}`} className="h-24 w-full" preserveAspectRatio="none" aria-hidden>
            <path d={chart.path} fill="none" stroke="currentColor" strokeWidth={2} vectorEffect="non-scaling-stroke" className="text-violet-400" />
            {chart.dots.map((d, i) => (
              <circle key={i} cx={d.x} cy={d.y} r={3} className="fill-violet-300" vectorEffect="non-scaling-stroke" />
            ))}
          </svg>
          <ol className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-300">
            {points.map((p, i) => (
              <li key={i}>
                <time dateTime={p.at}>{formatDay(p.at)}</time>: {formatPriceTrimmed(p.price)} {currency}{" "}
                <span className="text-slate-400">({formatUsd(p.usd)})</span>
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p className="flex h-24 items-center text-sm text-slate-400">No price changes recorded yet.</p>
      )}
    </figure>
  );
}

function Comparables({ listings }: { listings: ListingView[] }) {
  return (
    <div>
      <h3 className="text-xs font-semibold tracking-wide text-slate-400 uppercase">Comparable listings</h3>
      {listings.length === 0 ? (
        <p className="mt-2 text-sm text-slate-400">No other listing of this category and length is for sale.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-800 text-sm" data-testid="comparables">
          {listings.map((l) => (
            <li key={l.id} className="flex items-center justify-between gap-3 py-2">
              <Link
                to="/address/$id"
                params={{ id: String(l.id) }}
                className="min-w-0 rounded text-xs text-slate-200 underline decoration-slate-600 underline-offset-2 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400"
              >
                {/* Compact, on one line: a full address beside its price left a character or two on a line of their own. */}
                <HighlightedAddress address={l.address} ranges={patternRanges(l.address, l.network, l.pattern)} compact />
              </Link>
              <span className="shrink-0 text-right tabular-nums">
                <span className="block font-semibold text-white">
                  {formatPriceTrimmed(l.price)} {l.currency}
                </span>
                <RarityScore score={l.rarityScore} className="text-xs" />
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function RecentSales({ sales }: { sales: RecentSale[] }) {
  const now = Date.now();
  return (
    <div>
      <h3 className="text-xs font-semibold tracking-wide text-slate-400 uppercase">Recent sales of this kind</h3>
      {sales.length === 0 ? (
        <p className="mt-2 text-sm text-slate-400">No address of this category and length has sold yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-800 text-sm" data-testid="recent-sales">
          {sales.map((s, i) => (
            <li key={i} className="flex items-center justify-between gap-3 py-2">
              <span className="min-w-0">
                <span className="block font-mono text-xs text-slate-200">{shortAddress(s.address)}</span>
                <time dateTime={s.soldAt} className="text-xs text-slate-400">
                  {formatSaleDay(s.soldAt, now)}
                </time>
              </span>
              <span className="shrink-0 text-right tabular-nums">
                <span className="block font-semibold text-white">
                  {formatPriceTrimmed(s.price)} {s.currency}
                </span>
                <span className="text-xs text-slate-400">{s.formattedUsd}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
