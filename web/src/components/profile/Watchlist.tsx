// Profile > Watchlist (docs/collectors.md#watchlist): each starred address with its price now and when it was
// starred, the change since, when it was starred, and where it stands (for sale, reserved until, sold, no longer
// listed); Remove takes it off after a confirmation.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import type { WatchedListing } from "../../../../schema/collectors";
import { watchlistQuery, watchMutation } from "../../api/collectors";
import { errorMessage } from "../../api/error-message";
import { formatPriceTrimmed } from "../../lib/number-format";
import { formatTime, relativeTime } from "../../lib/date-format";
import { shortAddress } from "../../lib/short-address";
import { ConfirmDialog } from "../ConfirmDialog";
import { NetworkBadge } from "../NetworkBadge";
import { toast } from "../toast-store";
import { EmptyList, ListStates } from "./ListStates";

const STATE: Record<WatchedListing["state"], { label: string; className: string }> = {
  "for-sale": { label: "For sale", className: "bg-emerald-500/15 text-emerald-300" },
  reserved: { label: "Reserved", className: "bg-amber-500/15 text-amber-300" },
  sold: { label: "Sold", className: "bg-slate-700 text-slate-200" },
  unlisted: { label: "Not listed", className: "bg-slate-800 text-slate-300" },
};

/** "until 2:05 PM" in the visitor's locale and time zone. */
const until = (iso: string) => `until ${formatTime(iso)}`;

/** "−20%" (cheaper, good news for a collector), "+5%", or "no change". */
function change(item: WatchedListing): { text: string; className: string } {
  const pct = item.changePercent === null ? null : Number(item.changePercent);
  if (pct === null || pct === 0) return { text: "no change", className: "text-slate-400" };
  const text = `${pct < 0 ? "−" : "+"}${item.changePercent!.replace("-", "").replace(/\.?0+$/, "")}%`;
  return { text, className: pct < 0 ? "text-emerald-300" : "text-amber-300" };
}

export function Watchlist({ wallet }: { wallet: string }) {
  const queryClient = useQueryClient();
  const list = useQuery(watchlistQuery(wallet));
  const remove = useMutation({
    ...watchMutation(queryClient, wallet),
    onError: (err) => toast({ title: "The watchlist could not be changed", description: errorMessage(err), variant: "destructive" }),
  });
  const items = list.data?.items ?? [];
  const now = Date.now();
  return (
    <section id="watchlist" aria-labelledby="watchlist-title" className="mt-10 scroll-mt-20">
      <div className="flex flex-wrap items-baseline gap-3">
        <h2 id="watchlist-title" className="text-2xl font-semibold text-white">
          Watchlist
        </h2>
        {list.data && (
          <span className="text-sm text-slate-400">
            {items.length} of {list.data.limit}
          </span>
        )}
      </div>
      <ListStates
        query={list}
        loading="Loading your watchlist…"
        failed="Your watchlist could not be loaded"
        empty={
          items.length === 0 ? (
            <EmptyList testId="watchlist-empty" title="No watched addresses yet">
              <p className="mt-2 text-slate-400">Star an address in the marketplace to follow its price and hear when it is reserved or sold.</p>
              <Link to="/marketplace" className="mt-4 inline-block rounded-lg bg-violet-600 px-4 py-2 text-sm font-semibold text-white hover:bg-violet-500">
                Browse the marketplace
              </Link>
            </EmptyList>
          ) : null
        }
      >
        <ul className="mt-6 divide-y divide-slate-800 rounded-2xl border border-slate-800" data-testid="watchlist">
          {items.map((item) => {
            const state = STATE[item.state];
            const delta = change(item);
            return (
              <li
                key={item.listingId}
                className="flex flex-wrap items-center gap-x-4 gap-y-2 p-4"
                data-testid="watchlist-item"
                data-listing-id={item.listingId}
              >
                <div className="min-w-0 flex-1 basis-56">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link
                      to="/address/$id"
                      params={{ id: String(item.listingId) }}
                      className="rounded font-mono text-sm text-slate-100 hover:text-violet-300 focus-visible:outline-2 focus-visible:outline-violet-400"
                      title={item.address}
                    >
                      {shortAddress(item.address)}
                    </Link>
                    <NetworkBadge network={item.network} short />
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${state.className}`} data-testid="watch-state">
                      {state.label}
                      {item.state === "reserved" && item.reservedUntil ? ` ${until(item.reservedUntil)}` : ""}
                    </span>
                  </div>
                  <p className="mt-1 text-xs text-slate-400">
                    Starred <time dateTime={item.starredAt}>{relativeTime(item.starredAt, now)}</time> at {formatPriceTrimmed(item.priceAtStar)} {item.currency}
                  </p>
                </div>
                <div className="text-right">
                  <div className="font-semibold text-white tabular-nums" data-testid="watch-price">
                    {formatPriceTrimmed(item.price)} {item.currency}
                  </div>
                  <div className="text-xs">
                    <span className={delta.className} data-testid="watch-change">
                      {delta.text}
                    </span>{" "}
                    <span className="text-slate-400">{item.formattedUsd}</span>
                  </div>
                </div>
                <RemoveWatched
                  address={item.address}
                  pending={remove.isPending}
                  onRemove={(done) => remove.mutate({ listingId: item.listingId, watch: false }, { onSettled: done })}
                />
              </li>
            );
          })}
        </ul>
      </ListStates>
    </section>
  );
}

/**
 * A row's Remove: it asks first (ConfirmDialog), for the star's price and date are lost with it. `onRemove` is called
 * only from the dialog's confirming button, and closes it once the change has settled.
 */
export function RemoveWatched({ address, pending, onRemove }: { address: string; pending: boolean; onRemove: (done: () => void) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      title="Remove this address from your watchlist?"
      confirmLabel="Remove from watchlist"
      pendingLabel="Removing..."
      pending={pending}
      onConfirm={() => onRemove(() => setOpen(false))}
      trigger={
        <button
          type="button"
          disabled={pending}
          aria-label={`Remove ${shortAddress(address)} from the watchlist`}
          className="rounded-md border border-slate-700 px-2.5 py-1 text-xs font-semibold text-slate-300 hover:border-red-500 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-wait"
        >
          Remove
        </button>
      }
    >
      <p>
        <span className="font-mono break-all">{address}</span> leaves your watchlist: you are no longer told when its price changes or it is reserved or sold,
        and the price you starred it at is forgotten. You can star it again from its page.
      </p>
    </ConfirmDialog>
  );
}
