// /sale/{id}: one completed sale, public. A sale is a public fact: the address, the price, when,
// the network and the listing. Never the buyer (docs/public-surface.md#what-a-public-sale-shows): no wallet, and not the payment's transaction, whose
// sender is the buyer's wallet one explorer lookup away. The purchase page (/transaction/{id}) stays private to
// buyer, seller and admins.
import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { HttpError } from "../api/http";
import { saleQuery } from "../api/market";
import { NetworkBadge } from "../components/NetworkBadge";
import { pageTitle } from "../server-rendered/page-title";
import { useUsdRates } from "../components/use-usd-rates";
import { formatPriceTrimmed, usdText } from "../lib/number-format";
import { formatRarity } from "../lib/rarity-display";
import { formatSaleDay } from "../lib/date-format";

export const Route = createFileRoute("/sale/$id")({
  head: () => pageTitle("Sale"),
  component: SalePage,
});

function SalePage() {
  const { id } = Route.useParams();
  const sale = useQuery({ ...saleQuery(id), retry: (n, err) => !(err instanceof HttpError && err.status < 500) && n < 2 });
  const rates = useUsdRates();
  if (sale.isPending) {
    return (
      <p className="mx-auto max-w-3xl px-4 py-16 text-slate-400" role="status">
        Loading the sale…
      </p>
    );
  }
  if (sale.isError) {
    const missing = sale.error instanceof HttpError && (sale.error.status === 404 || sale.error.status === 400);
    return (
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold text-white">{missing ? "Sale not found" : "The sale could not be loaded"}</h1>
        <p className="mt-3 text-slate-400">{missing ? "Only completed sales have a public page." : "Try again in a moment."}</p>
        <Link to="/activity" className="mt-6 inline-block rounded-lg bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-500">
          See all sales
        </Link>
      </section>
    );
  }
  const s = sale.data;
  const rows: [string, React.ReactNode][] = [
    [
      "Address",
      <span key="address" className="font-mono break-all">
        {s.address}
      </span>,
    ],
    ["Network", <NetworkBadge key="network" network={s.network} />],
    [
      "Price",
      <>
        {formatPriceTrimmed(s.price)} {s.currency} <span className="text-slate-400">≈ {usdText(s.price, s.currency, rates)} today</span>
      </>,
    ],
    ["Rarity", formatRarity(s.rarityScore)],
    [
      "Sold",
      // The day, never the time (docs/public-surface.md#what-a-public-sale-shows): the API sends no more.
      <time key="sold" dateTime={s.soldOn}>
        {formatSaleDay(s.soldOn)}
      </time>,
    ],
  ];
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10">
      <Link
        to="/activity"
        className="inline-flex items-center gap-1 rounded text-sm font-semibold text-violet-300 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        <span aria-hidden>←</span> All sales
      </Link>
      <header>
        <h1 className="text-2xl font-bold text-white sm:text-3xl">Sale</h1>
        <p className="mt-1 text-slate-400">A completed sale on the marketplace. The buyer is not shown.</p>
      </header>
      <dl className="space-y-3 rounded-2xl border border-slate-800 bg-slate-900/60 p-5 text-sm" data-testid="sale-details">
        {rows.map(([label, value]) => (
          <div key={label} className="grid gap-1 sm:grid-cols-[7rem_1fr] sm:gap-3">
            <dt className="text-slate-400">{label}</dt>
            <dd className="min-w-0 text-slate-100">{value}</dd>
          </div>
        ))}
      </dl>
      <Link
        to="/address/$id"
        params={{ id: String(s.listingId) }}
        className="inline-block rounded-lg border border-slate-700 px-4 py-2 text-sm font-semibold text-slate-200 hover:border-violet-500"
      >
        View the listing
      </Link>
    </div>
  );
}
