// The profile's admin view: "My Listings" (GET
// /api/addresses/user) with Create New Listing, and "Transaction History" (GET /api/transactions/user:
// sales and purchases merged, newest first by createdAt).
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect } from "react";
import { userListingsQuery, userTransactionsQuery } from "../../api/listings-admin";
import { formatPriceTrimmed } from "../../lib/number-format";
import { relativeTime } from "../../lib/date-format";
import { shortAddress } from "../../lib/short-address";
import type { UserTransaction } from "../../../../schema/listings";
import { type Column, DataTable } from "../DataTable";
import { ListingCard } from "../listing/ListingCard";
import { toast } from "../toast-store";
import { newestFirst } from "./history";

function useFailureToast(isError: boolean, at: number, title: string) {
  useEffect(() => {
    if (isError) toast({ title, description: "Try again in a moment.", variant: "destructive" });
  }, [isError, at, title]);
}

export function AdminSections({ wallet }: { wallet: string }) {
  return (
    <div className="mt-10 space-y-10">
      <MyListings wallet={wallet} />
      <TransactionHistory wallet={wallet} />
    </div>
  );
}

function MyListings({ wallet }: { wallet: string }) {
  const listings = useInfiniteQuery(userListingsQuery(wallet));
  useFailureToast(listings.isError, listings.errorUpdatedAt, "Failed to fetch user listings");
  const rows = listings.data?.pages.flat() ?? [];
  return (
    <section aria-labelledby="my-listings-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="my-listings-title" className="text-2xl font-semibold text-white">
          My Listings
        </h2>
        <Link to="/create-listing" className="rounded-lg bg-violet-600 px-4 py-2 text-sm font-semibold text-white hover:bg-violet-500">
          Create New Listing
        </Link>
      </div>
      {listings.isLoading ? (
        <p className="mt-6 text-slate-400" role="status">
          Loading your listings…
        </p>
      ) : listings.isError ? (
        <p className="mt-6 text-slate-400">Your listings could not be loaded.</p>
      ) : rows.length === 0 ? (
        <div className="mt-6 rounded-2xl border border-dashed border-slate-700 p-10 text-center">
          <p className="text-slate-400">You have no listings yet.</p>
          <Link
            to="/create-listing"
            className="mt-4 inline-block rounded-lg border border-violet-500 px-4 py-2 text-sm font-semibold text-violet-200 hover:bg-violet-500/10"
          >
            Create Your First Listing
          </Link>
        </div>
      ) : (
        <>
          <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="my-listings">
            {rows.map((l) => (
              <ListingCard key={l.id} listing={l} />
            ))}
          </div>
          <div className="mt-6 flex flex-wrap items-center justify-center gap-4 text-sm text-slate-400">
            <span aria-live="polite" data-testid="my-listings-count">
              {rows.length} listing{rows.length === 1 ? "" : "s"} shown{listings.hasNextPage ? "" : " (all)"}
            </span>
            {listings.hasNextPage && (
              <button
                type="button"
                onClick={() => void listings.fetchNextPage()}
                disabled={listings.isFetchingNextPage}
                className="rounded-lg border border-slate-700 px-4 py-2 font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:opacity-60"
              >
                {listings.isFetchingNextPage ? "Loading…" : "Show more"}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}

const HISTORY_COLUMNS: Column<UserTransaction>[] = [
  {
    key: "type",
    header: "Type",
    cell: (t) => (
      <span
        className={`rounded-full px-2 py-0.5 text-xs font-semibold ${t.role === "sale" ? "bg-emerald-500/15 text-emerald-200" : "bg-sky-500/15 text-sky-200"}`}
      >
        {t.role === "sale" ? "Sale" : "Purchase"}
      </span>
    ),
  },
  {
    key: "address",
    header: "Address",
    cell: (t) => (
      <Link to="/address/$id" params={{ id: String(t.address.id) }} className="font-mono text-slate-100 hover:text-violet-300" title={t.address.address}>
        {shortAddress(t.address.address)}
      </Link>
    ),
  },
  {
    key: "price",
    header: "Price",
    className: "tabular-nums text-white",
    cell: (t) => (
      <>
        {formatPriceTrimmed(t.price)} {t.currency}
      </>
    ),
  },
  { key: "with", header: "With", className: "text-slate-300", cell: (t) => (t.role === "sale" ? t.buyer?.username : t.seller?.username) ?? "—" },
  { key: "status", header: "Status", className: "capitalize text-slate-300", cell: (t) => t.status },
  {
    key: "date",
    header: "Date",
    className: "text-slate-400",
    cell: (t) => <time dateTime={t.createdAt}>{relativeTime(t.createdAt)}</time>,
  },
];

function TransactionHistory({ wallet }: { wallet: string }) {
  const history = useQuery(userTransactionsQuery(wallet));
  useFailureToast(history.isError, history.errorUpdatedAt, "Failed to fetch user transactions");
  const rows = newestFirst(history.data ?? []);
  return (
    <section aria-labelledby="tx-history-title">
      <h2 id="tx-history-title" className="text-2xl font-semibold text-white">
        Transaction History
      </h2>
      {history.isLoading ? (
        <p className="mt-6 text-slate-400" role="status">
          Loading transactions…
        </p>
      ) : history.isError ? (
        <p className="mt-6 text-slate-400">Your transactions could not be loaded.</p>
      ) : rows.length === 0 ? (
        <div className="mt-6 rounded-2xl border border-dashed border-slate-700 p-10 text-center">
          <p className="text-slate-400">No transactions found.</p>
          <Link to="/marketplace" className="mt-4 inline-block text-sm font-semibold text-violet-300 hover:text-violet-200">
            Browse the marketplace
          </Link>
        </div>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-2xl border border-slate-800">
          <DataTable
            columns={HISTORY_COLUMNS}
            rows={rows}
            rowKey={(t) => t.id}
            caption="Your sales and purchases"
            testId="transaction-history"
            tableClassName="min-w-[40rem]"
            theadClassName="bg-slate-900"
          />
        </div>
      )}
    </section>
  );
}
