// "My Purchases", the profile's buyer view: Address,
// Price (approximate USD), Rarity x/10, Purchased (relative), Status (the purchase page's badge, the same words
// for every state: lib/purchase-status.ts) and the Private Key column (Destroyed, Access Key + Destroy, "Available after
// completion" while awaiting or confirming payment, "No key" for a purchase that ended unpaid, and for a paid custom
// order "You hold this key", since the buyer's browser made it and the store never held it), paged; rows open the
// purchase page.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import type { PurchaseListItem } from "../../../../schema/purchases";
import { myPurchasesQuery } from "../../api/purchases";
import { formatPriceTrimmed, usdText } from "../../lib/number-format";
import { formatRarity } from "../../lib/rarity-display";
import { relativeTime } from "../../lib/date-format";
import { shortAddress } from "../../lib/short-address";
import { keyAvailability } from "../../lib/purchase-status";
import { DestroyKeyDialog } from "../purchase/DestroyKeyDialog";
import { FireIcon } from "../purchase/FireIcon";
import { StatusBadge } from "../purchase/StatusBadge";
import { toast } from "../toast-store";
import { useUsdRates } from "../use-usd-rates";

export const PURCHASES_PAGE_SIZE = 20;

/** The Private Key column: what the buyer can do with the key of this purchase. */
export const privateKeyCell = (p: Pick<PurchaseListItem, "status" | "privateKeyDestroyed" | "customOrderId">) =>
  keyAvailability(p.status, p.privateKeyDestroyed, p.customOrderId !== null);

export function MyPurchases({ wallet }: { wallet: string }) {
  const [page, setPage] = useState(1);
  const purchases = useQuery({ ...myPurchasesQuery(wallet, page, PURCHASES_PAGE_SIZE), placeholderData: keepPreviousData });
  const rates = useUsdRates();

  useEffect(() => {
    if (purchases.isError) toast({ title: "Failed to fetch user purchases", description: "Try again in a moment.", variant: "destructive" });
  }, [purchases.isError, purchases.errorUpdatedAt]);

  const rows = purchases.data?.purchases ?? [];
  const pagination = purchases.data?.pagination;
  const th = "px-3 py-3 text-left text-xs font-semibold tracking-wide text-slate-400 uppercase";
  const now = Date.now();

  return (
    <section aria-labelledby="my-purchases-title" className="mt-10">
      <h2 id="my-purchases-title" className="text-2xl font-semibold text-white">
        My Purchases
      </h2>
      {purchases.isPending ? (
        <p className="mt-6 text-slate-400" role="status">
          Loading your purchases…
        </p>
      ) : purchases.isError ? (
        <p className="mt-6 text-slate-400">Your purchases could not be loaded.</p>
      ) : rows.length === 0 ? (
        <div className="mt-6 rounded-2xl border border-dashed border-slate-700 p-10 text-center">
          <p className="text-lg font-semibold text-white">No Purchases Yet</p>
          <p className="mt-2 text-slate-400">Addresses you buy appear here, with their private keys.</p>
          <Link to="/marketplace" className="mt-4 inline-block rounded-lg bg-violet-600 px-4 py-2 text-sm font-semibold text-white hover:bg-violet-500">
            Browse the marketplace
          </Link>
        </div>
      ) : (
        <>
          <div className={`mt-6 overflow-x-auto rounded-2xl border border-slate-800 transition-opacity ${purchases.isPlaceholderData ? "opacity-60" : ""}`}>
            <table className="w-full text-sm max-sm:block" data-testid="my-purchases">
              <thead className="bg-slate-900 max-sm:hidden">
                <tr>
                  <th scope="col" className={th}>
                    Address
                  </th>
                  <th scope="col" className={th}>
                    Price
                  </th>
                  <th scope="col" className={th}>
                    Rarity
                  </th>
                  <th scope="col" className={th}>
                    Purchased
                  </th>
                  <th scope="col" className={th}>
                    Status
                  </th>
                  <th scope="col" className={th}>
                    Private Key
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-800 max-sm:block">
                {rows.map((p) => (
                  <tr key={p.id} data-testid="purchase-row" data-transaction-id={p.id} className="max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:py-2">
                    <td className="px-3 py-3 max-sm:col-span-2">
                      <span className="block text-xs text-slate-500 sm:hidden">Address</span>
                      <Link
                        to="/secure-transaction/$transactionId"
                        params={{ transactionId: p.id }}
                        className="rounded font-mono text-slate-100 hover:text-violet-300 focus-visible:outline-2 focus-visible:outline-violet-400"
                        title={p.address.address}
                      >
                        {shortAddress(p.address.address)}
                      </Link>
                    </td>
                    <td className="px-3 py-3 whitespace-nowrap">
                      <span className="block text-xs text-slate-500 sm:hidden">Price</span>
                      <div className="font-semibold text-white tabular-nums">
                        {formatPriceTrimmed(p.price)} {p.currency}
                      </div>
                      <div className="text-xs text-slate-400" data-testid="purchase-usd">
                        ≈ {usdText(p.price, p.currency, rates)}
                      </div>
                    </td>
                    <td className="px-3 py-3 text-slate-200">
                      <span className="block text-xs text-slate-500 sm:hidden">Rarity</span>
                      {formatRarity(p.address.rarityScore)}
                    </td>
                    <td className="px-3 py-3 whitespace-nowrap text-slate-400">
                      <span className="block text-xs text-slate-500 sm:hidden">Purchased</span>
                      <time dateTime={p.createdAt}>{relativeTime(p.completedAt ?? p.createdAt, now)}</time>
                    </td>
                    <td className="px-3 py-3">
                      <span className="block text-xs text-slate-500 sm:hidden">Status</span>
                      <StatusBadge status={p.status} failureReason={p.failureReason} size="sm" />
                    </td>
                    <td className="px-3 py-3 max-sm:col-span-2">
                      <span className="block text-xs text-slate-500 sm:hidden">Private Key</span>
                      <KeyCell purchase={p} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pagination && pagination.totalPages > 1 && (
            <nav aria-label="My purchases pages" className="mt-4 flex items-center justify-between gap-3 text-sm">
              <button
                type="button"
                disabled={!pagination.hasPrevPage}
                onClick={() => setPage((n) => Math.max(1, n - 1))}
                className="rounded-lg border border-slate-700 px-3 py-1.5 text-slate-200 hover:border-violet-500 disabled:opacity-40"
              >
                Previous
              </button>
              <span className="text-slate-400">
                Page {pagination.page} of {pagination.totalPages}
              </span>
              <button
                type="button"
                disabled={!pagination.hasNextPage}
                onClick={() => setPage((n) => n + 1)}
                className="rounded-lg border border-slate-700 px-3 py-1.5 text-slate-200 hover:border-violet-500 disabled:opacity-40"
              >
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}

export function KeyCell({ purchase }: { purchase: PurchaseListItem }) {
  const cell = privateKeyCell(purchase);
  if (cell === "buyer")
    return (
      <span className="text-xs text-slate-300" data-testid="buyer-held-key">
        You hold this key (made in your browser)
      </span>
    );
  if (cell === "destroyed")
    return (
      <span className="inline-flex items-center gap-1 text-sm font-semibold text-orange-300">
        <FireIcon /> Destroyed
      </span>
    );
  if (cell === "later") return <span className="text-xs text-slate-400">Available after completion</span>;
  if (cell === "none") return <span className="text-xs text-slate-400">No key (not paid)</span>;
  return (
    <div className="flex flex-wrap gap-2">
      <Link
        to="/secure-transaction/$transactionId"
        params={{ transactionId: purchase.id }}
        className="rounded-md bg-emerald-700 px-2.5 py-1 text-xs font-semibold text-white hover:bg-emerald-600 focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        Access Key
      </Link>
      <DestroyKeyDialog
        transactionId={purchase.id}
        trigger={
          <button
            type="button"
            className="rounded-md border border-red-700 px-2.5 py-1 text-xs font-semibold text-red-200 hover:bg-red-950 focus-visible:outline-2 focus-visible:outline-red-400"
          >
            Destroy
          </button>
        }
      />
    </div>
  );
}
