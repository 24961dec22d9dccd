// The star on a listing card, a marketplace row and the listing page (docs/collectors.md#watchlist). Which listings
// the wallet watches comes from GET /api/watchlist/ids (its own, uncached), never from the listing answers, which
// stay the same for everyone. A visitor without a wallet is asked to connect; the star they asked for is kept for
// when they come back (sessionStorage) and made then.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { watchedIdsQuery, watchersQuery, watchMutation } from "../../api/collectors";
import { errorMessage } from "../../api/error-message";
import { formatCount } from "../../lib/number-format";
import { useViewer } from "../listing/use-viewer";
import { toast } from "../toast-store";
import { useConnectFirst } from "./use-connect-first";

const PENDING_KEY = "pendingWatch";

function takePending(listingId: number): boolean {
  try {
    if (sessionStorage.getItem(PENDING_KEY) !== String(listingId)) return false;
    sessionStorage.removeItem(PENDING_KEY);
    return true;
  } catch {
    return false;
  }
}

function rememberPending(listingId: number) {
  try {
    sessionStorage.setItem(PENDING_KEY, String(listingId));
  } catch {
    /* private mode: they star it again once back */
  }
}

/** Whether the signed-in wallet watches the listing, and the toggle (which asks a visitor to connect first). */
export function useWatch(listingId: number) {
  const viewer = useViewer();
  const queryClient = useQueryClient();
  const ids = useQuery({ ...watchedIdsQuery(viewer ?? ""), enabled: viewer !== null });
  const change = useMutation({
    ...watchMutation(queryClient, viewer ?? ""),
    onError: (err) => toast({ title: "The watchlist could not be changed", description: errorMessage(err), variant: "destructive" }),
  });
  const connectFirst = useConnectFirst();
  const watching = viewer !== null && (ids.data?.listingIds.includes(listingId) ?? false);
  useEffect(() => {
    if (viewer && ids.isSuccess && takePending(listingId) && !watching) change.mutate({ listingId, watch: true });
  }, [viewer, ids.isSuccess]);
  const toggle = () => {
    if (!viewer) {
      rememberPending(listingId);
      connectFirst("watch this address");
      return;
    }
    if (!change.isPending) change.mutate({ listingId, watch: !watching });
  };
  return { watching, busy: change.isPending, toggle };
}

/** The listing page's watch control's height: its skeleton reserves it (the Watch button, 36 px, and the count's line). */
export const WATCH_CONTROL_HEIGHT = "h-[3.75rem]";

/** The icon star of cards and table rows. */
export function WatchStar({ listingId, address, size = "md" }: { listingId: number; address: string; size?: "row" | "sm" | "md" }) {
  const { watching, busy, toggle } = useWatch(listingId);
  return (
    <button
      type="button"
      aria-pressed={watching}
      aria-label={`Watch ${address}`}
      title={watching ? "Watching: remove from your watchlist" : "Add to your watchlist"}
      onClick={toggle}
      disabled={busy}
      data-testid="watch-star"
      className={`inline-flex items-center justify-center rounded leading-none focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-wait ${
        // A table row's is as narrow as its glyph: the marketplace table fits 360 px with every address whole. A
        // card's is no taller than its badges: the card keeps the height its placeholder reserves.
        size === "row" ? "h-7 w-5 text-lg" : size === "sm" ? "h-6 w-7 text-lg" : "h-8 w-8 text-xl"
      } ${watching ? "text-amber-300 hover:text-amber-200" : "text-slate-400 hover:text-slate-200"}`}
    >
      <span aria-hidden>{watching ? "★" : "☆"}</span>
    </button>
  );
}

/**
 * The listing page's control: Watch / Watching, and under it how many wallets watch the listing (a count, never
 * who). Stacked, 60 px tall at every width, so the page's top row never wraps on a phone and its skeleton keeps the
 * same height (WATCH_CONTROL_HEIGHT).
 */
export function WatchControl({ listingId, address }: { listingId: number; address: string }) {
  const { watching, busy, toggle } = useWatch(listingId);
  const count = useQuery(watchersQuery(String(listingId)));
  const n = count.data?.watchers;
  return (
    <div className={`flex flex-col items-end gap-1 ${WATCH_CONTROL_HEIGHT}`} data-testid="watch-control">
      <button
        type="button"
        aria-pressed={watching}
        onClick={toggle}
        disabled={busy}
        title={`${watching ? "Stop watching" : "Watch"} ${address}`}
        data-testid="watch-button"
        className={`inline-flex h-9 items-center gap-1.5 rounded-lg border px-3 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-wait ${
          watching ? "border-amber-400/60 text-amber-200 hover:border-amber-300" : "border-slate-700 text-slate-200 hover:border-violet-500"
        }`}
      >
        <span aria-hidden>{watching ? "★" : "☆"}</span>
        {watching ? "Watching" : "Watch"}
      </button>
      <span className="h-5 text-xs leading-5 whitespace-nowrap text-slate-400" data-testid="watcher-count" aria-live="polite">
        {n === undefined ? "" : n === 0 ? "No one watches it yet" : `${formatCount(n)} ${n === 1 ? "wallet watches" : "wallets watch"} it`}
      </span>
    </div>
  );
}
