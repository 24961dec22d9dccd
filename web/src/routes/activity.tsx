// /activity: every completed sale, newest first, paged, filtered by network (Recent Transactions'
// "View All"). Each row opens the sale's public page. Open reservations are not activity; custom orders are
// private; the buyer is never shown.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { salesQuery } from "../api/market";
import { NetworkBadge } from "../components/NetworkBadge";
import { pageTitle } from "../server-rendered/page-title";
import { useUsdRates } from "../components/use-usd-rates";
import { formatPriceTrimmed, usdText } from "../lib/number-format";
import { formatRarity } from "../lib/rarity-display";
import { formatSaleDay } from "../lib/date-format";
import { shortAddress } from "../lib/short-address";
import { networkName } from "../../../schema/network";

type ActivitySearch = { network?: "ethereum" | "solana"; page?: number };

export const Route = createFileRoute("/activity")({
  head: () => pageTitle("Sales Activity"),
  validateSearch: (raw: Record<string, unknown>): ActivitySearch => {
    const network = raw.network === "ethereum" || raw.network === "solana" ? raw.network : undefined;
    const page = Number(raw.page);
    return { ...(network ? { network } : {}), ...(Number.isInteger(page) && page > 1 && page <= 100_000 ? { page } : {}) };
  },
  component: ActivityPage,
});

const FILTERS = [
  { label: "All networks", network: undefined },
  { label: "Ethereum", network: "ethereum" },
  { label: "Solana", network: "solana" },
] as const;

function ActivityPage() {
  const { network, page = 1 } = Route.useSearch();
  const sales = useQuery({ ...salesQuery(page, network), placeholderData: keepPreviousData });
  const rates = useUsdRates();
  const now = Date.now();
  const data = sales.data;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold text-white">Sales Activity</h1>
      <p className="mt-2 text-slate-400">Completed sales, newest first. A sale is public, as it is on chain; the buyer is not shown.</p>
      <nav aria-label="Filter by network" className="mt-6 flex flex-wrap gap-2">
        {FILTERS.map((f) => {
          const active = f.network === network;
          return (
            <Link
              key={f.label}
              to="/activity"
              search={f.network ? { network: f.network } : {}}
              aria-current={active ? "page" : undefined}
              className={`rounded-full border px-3 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-violet-400 ${active ? "border-violet-500 bg-violet-600/20 text-white" : "border-slate-700 text-slate-300 hover:border-violet-500"}`}
            >
              {f.label}
            </Link>
          );
        })}
      </nav>
      {sales.isPending ? (
        <p className="mt-8 text-slate-400" role="status">
          Loading sales…
        </p>
      ) : sales.isError ? (
        <p className="mt-8 text-slate-400" role="alert">
          Sales could not be loaded. Try again in a moment.
        </p>
      ) : data!.sales.length === 0 ? (
        <div className="mt-8 rounded-2xl border border-dashed border-slate-700 p-10 text-center">
          <p className="text-lg font-semibold text-white">No sales yet</p>
          <p className="mt-2 text-slate-400">Completed sales{network ? ` on ${networkName(network)}` : ""} appear here.</p>
        </div>
      ) : (
        <>
          <ul
            className={`mt-6 divide-y divide-slate-800 rounded-2xl border border-slate-800 bg-slate-900/60 ${sales.isPlaceholderData ? "opacity-60" : ""}`}
            data-testid="sales-list"
          >
            {data!.sales.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3" data-testid="sale-row">
                <Link
                  to="/sale/$id"
                  params={{ id: s.id }}
                  className="min-w-0 flex-1 basis-40 rounded font-mono text-slate-100 hover:text-violet-300 focus-visible:outline-2 focus-visible:outline-violet-400"
                  title={s.address}
                >
                  {shortAddress(s.address)}
                </Link>
                <NetworkBadge network={s.network} short />
                <span className="text-sm text-slate-300">Rarity {formatRarity(s.rarityScore)}</span>
                <span className="text-right tabular-nums">
                  <span className="font-semibold text-white">
                    {formatPriceTrimmed(s.price)} {s.currency}
                  </span>{" "}
                  <span className="text-xs text-slate-400">≈ {usdText(s.price, s.currency, rates)}</span>
                </span>
                <time dateTime={s.soldOn} className="text-sm whitespace-nowrap text-slate-400">
                  {formatSaleDay(s.soldOn, now)}
                </time>
              </li>
            ))}
          </ul>
          <nav aria-label="Sales pages" className="mt-4 flex items-center justify-between gap-3 text-sm">
            {data!.pagination.hasPrevPage ? (
              <Link
                to="/activity"
                search={{ ...(network ? { network } : {}), ...(page > 2 ? { page: page - 1 } : {}) }}
                className="rounded-lg border border-slate-700 px-3 py-1.5 text-slate-200 hover:border-violet-500"
              >
                Previous
              </Link>
            ) : (
              <span />
            )}
            <span className="text-slate-400">
              Page {data!.pagination.page} of {data!.pagination.totalPages}
            </span>
            {data!.pagination.hasNextPage ? (
              <Link
                to="/activity"
                search={{ ...(network ? { network } : {}), page: page + 1 }}
                className="rounded-lg border border-slate-700 px-3 py-1.5 text-slate-200 hover:border-violet-500"
              >
                Next
              </Link>
            ) : (
              <span />
            )}
          </nav>
        </>
      )}
    </div>
  );
}
