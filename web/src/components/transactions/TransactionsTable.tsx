// The transactions table: Address, Type, Price, Rarity, optional Buyer and
// Seller, Time, Status; a 5-row skeleton while loading; "No transactions found" when empty. Each row links to
// the sale's public page /sale/{id} (the private purchase page was a dead end to everyone else). USD
// at the one rate (useUsdRates).
import { Link, useNavigate } from "@tanstack/react-router";
import type { RecentTransaction } from "../../../../schema/browse";
import { formatPrice, usdText } from "../../lib/number-format";
import { formatSaleDay, relativeTime } from "../../lib/date-format";
import { shortAddress } from "../../lib/short-address";
import { transactionDisplay } from "../../lib/listing-state";
import { useUsdRates } from "../use-usd-rates";
import { type Column, DataTable } from "../DataTable";
import { RarityScore } from "../listing/badges";

const STATUS_CLASSES = {
  Active: "bg-sky-500/15 text-sky-300",
  Completed: "bg-emerald-500/15 text-emerald-300",
  Cancelled: "bg-slate-500/20 text-slate-300",
};

const SKELETON_ROWS = 5;

/** A day without a time: what the public feed sends of a sale (YYYY-MM-DD). */
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

type Props = { transactions: RecentTransaction[] | undefined; isLoading: boolean; showBuyer?: boolean; showSeller?: boolean; caption?: string };

export function TransactionsTable({ transactions, isLoading, showBuyer = false, showSeller = false, caption = "Transactions" }: Props) {
  const rates = useUsdRates();
  const navigate = useNavigate();
  const now = Date.now();
  const columns: Column<RecentTransaction>[] = [
    {
      key: "address",
      header: "Address",
      cell: (t) => (
        <Link
          to="/sale/$id"
          params={{ id: t.id }}
          className="rounded font-mono text-slate-100 hover:text-violet-300 focus-visible:outline-2 focus-visible:outline-violet-400"
          title={t.address.address}
        >
          {shortAddress(t.address.address)}
        </Link>
      ),
    },
    { key: "type", header: "Type", className: "text-slate-300", cell: (t) => transactionDisplay(t.status).type },
    {
      key: "price",
      header: "Price",
      cell: (t) => (
        <>
          <div className="font-semibold whitespace-nowrap text-white tabular-nums">
            {formatPrice(t.price)} {t.currency}
          </div>
          <div className="text-xs text-slate-400">≈ {usdText(t.price, t.currency, rates)}</div>
        </>
      ),
    },
    { key: "rarity", header: "Rarity", cell: (t) => <RarityScore score={t.address.rarityScore} /> },
    ...(showBuyer
      ? [
          {
            key: "buyer",
            header: "Buyer",
            hideBelow: "md",
            className: "text-slate-300",
            cell: (t) => t.buyer?.username ?? "—",
          } satisfies Column<RecentTransaction>,
        ]
      : []),
    ...(showSeller
      ? [
          {
            key: "seller",
            header: "Seller",
            hideBelow: "md",
            className: "text-slate-300",
            cell: (t) => t.seller?.username ?? "—",
          } satisfies Column<RecentTransaction>,
        ]
      : []),
    {
      key: "time",
      header: "Time",
      className: "whitespace-nowrap text-slate-400",
      // The public feed sends a sale's day alone (YYYY-MM-DD, docs/public-surface.md#what-a-public-sale-shows); a
      // profile's own history sends times.
      cell: (t) => {
        const when = t.completedAt ?? t.createdAt;
        return <time dateTime={when}>{DAY_ONLY.test(when) ? formatSaleDay(when, now) : relativeTime(when, now)}</time>;
      },
    },
    {
      key: "status",
      header: "Status",
      cell: (t) => {
        const shown = transactionDisplay(t.status).status;
        return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_CLASSES[shown]}`}>{shown}</span>;
      },
    },
  ];

  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-800 bg-slate-900/60">
      <DataTable
        columns={columns}
        rows={transactions ?? []}
        rowKey={(t) => t.id}
        caption={caption}
        loading={isLoading}
        skeletonRows={SKELETON_ROWS}
        empty="No transactions found"
        testId="transactions-table"
        tableClassName="min-w-[36rem]"
        rowProps={(t) => ({
          className: "cursor-pointer hover:bg-slate-800/40",
          // The address cell is the row's link for keyboards and screen readers; a click anywhere else follows it too.
          onClick: (e) => {
            if (!(e.target as HTMLElement).closest("a")) void navigate({ to: "/sale/$id", params: { id: t.id } });
          },
          "data-testid": "transaction-row",
        })}
      />
    </div>
  );
}
