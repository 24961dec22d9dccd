// The transactions table (public-side.md §2, §4, §9): Address, Type, Price, Rarity, optional Buyer and
// Seller, Time, Status; a 5-row skeleton while loading; "No transactions found" when empty. Each row links to
// /transaction/{id}. USD uses the live rate when the server has one, else this table's fallback rates.
import { useQuery } from "@tanstack/react-query";
import type { RecentTransaction } from "../../../../schema/browse";
import { livePricesQuery } from "../../api/market";
import { approxUsd, formatPrice, formatUsd, relativeTime, shortAddress, TRANSACTIONS_TABLE_USD_RATES, transactionDisplay, type UsdRates } from "../../lib/display";
import { RarityScore } from "../listing/badges";

const STATUS_CLASSES = {
  Active: "bg-sky-500/15 text-sky-300",
  Completed: "bg-emerald-500/15 text-emerald-300",
  Cancelled: "bg-slate-500/20 text-slate-300",
};

const SKELETON_ROWS = 5;

type Props = { transactions: RecentTransaction[] | undefined; isLoading: boolean; showBuyer?: boolean; showSeller?: boolean };

/** The transaction page's path. Its route arrives with the purchase issue, so the link is a plain anchor. */
const transactionHref = (id: string) => `/transaction/${encodeURIComponent(id)}`;

export function TransactionsTable({ transactions, isLoading, showBuyer = false, showSeller = false }: Props) {
  const prices = useQuery(livePricesQuery());
  const rates: UsdRates = prices.data?.source === "feed" ? { ETH: prices.data.ethPrice, SOL: prices.data.solPrice } : TRANSACTIONS_TABLE_USD_RATES;
  const columns = 6 + (showBuyer ? 1 : 0) + (showSeller ? 1 : 0);
  const th = "px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-400 uppercase";
  const td = "px-3 py-3 align-middle";
  const now = Date.now();

  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-800 bg-slate-900/60">
      <table className="w-full min-w-[36rem] text-sm" data-testid="transactions-table">
        <thead className="border-b border-slate-800">
          <tr>
            <th scope="col" className={th}>Address</th>
            <th scope="col" className={th}>Type</th>
            <th scope="col" className={th}>Price</th>
            <th scope="col" className={th}>Rarity</th>
            {showBuyer && <th scope="col" className={`${th} hidden md:table-cell`}>Buyer</th>}
            {showSeller && <th scope="col" className={`${th} hidden md:table-cell`}>Seller</th>}
            <th scope="col" className={th}>Time</th>
            <th scope="col" className={th}>Status</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-800">
          {isLoading &&
            Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <tr key={i} aria-hidden data-testid="transaction-skeleton">
                {Array.from({ length: columns }, (_, j) => (
                  <td key={j} className={`${td} ${j >= 4 && j < columns - 2 ? "hidden md:table-cell" : ""}`}>
                    <div className="h-4 animate-pulse rounded bg-slate-800" />
                  </td>
                ))}
              </tr>
            ))}
          {!isLoading && (transactions ?? []).length === 0 && (
            <tr>
              <td colSpan={columns} className="px-3 py-10 text-center text-slate-400">
                No transactions found
              </td>
            </tr>
          )}
          {!isLoading &&
            (transactions ?? []).map((t) => {
              const shown = transactionDisplay(t.status);
              const href = transactionHref(t.id);
              return (
                <tr
                  key={t.id}
                  className="cursor-pointer hover:bg-slate-800/40"
                  onClick={(e) => {
                    // The address cell is the row's link for keyboards and screen readers; a click anywhere else follows it too.
                    if (!(e.target as HTMLElement).closest("a")) window.location.assign(href);
                  }}
                  data-testid="transaction-row"
                >
                  <td className={td}>
                    <a href={href} className="rounded font-mono text-slate-100 hover:text-violet-300 focus-visible:outline-2 focus-visible:outline-violet-400" title={t.address.address}>
                      {shortAddress(t.address.address)}
                    </a>
                  </td>
                  <td className={`${td} text-slate-300`}>{shown.type}</td>
                  <td className={td}>
                    <div className="font-semibold whitespace-nowrap text-white tabular-nums">
                      {formatPrice(t.price)} {t.currency}
                    </div>
                    <div className="text-xs text-slate-400">≈ {formatUsd(approxUsd(t.price, t.currency, rates))}</div>
                  </td>
                  <td className={td}>
                    <RarityScore score={t.address.rarityScore} />
                  </td>
                  {showBuyer && <td className={`${td} hidden text-slate-300 md:table-cell`}>{t.buyer?.username ?? "—"}</td>}
                  {showSeller && <td className={`${td} hidden text-slate-300 md:table-cell`}>{t.seller?.username ?? "—"}</td>}
                  <td className={`${td} whitespace-nowrap text-slate-400`}>
                    <time dateTime={t.createdAt}>{relativeTime(t.createdAt, now)}</time>
                  </td>
                  <td className={td}>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_CLASSES[shown.status]}`}>{shown.status}</span>
                  </td>
                </tr>
              );
            })}
        </tbody>
      </table>
    </div>
  );
}
