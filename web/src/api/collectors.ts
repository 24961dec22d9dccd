// The collectors' tools (docs/collectors.md): the watchlist, saved searches and notifications. Every read is the
// signed-in wallet's own and keyed by it, except a listing's watcher count (public). Listing reads are untouched:
// which listings the wallet watches is its own call, so listing answers stay the same for everyone.
import { mutationOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import { UNREAD_POLL_MS, type SavedFilters, type WatchAnswer } from "../../../schema/collectors";
import { api, idParam, read } from "./http";

export const WATCHLIST_KEY = "/api/watchlist";
export const SAVED_SEARCHES_KEY = "/api/saved-searches";
export const NOTIFICATIONS_KEY = "/api/notifications";

const watch = api.watchlist[":id"];

/** GET /api/watchlist/ids: the stars on cards, rows and the listing page. */
export const watchedIdsQuery = (wallet: string) =>
  queryOptions({ queryKey: [WATCHLIST_KEY, "ids", wallet], queryFn: () => read(api.watchlist.ids.$get()), staleTime: 30_000 });

/** GET /api/watchlist: Profile > Watchlist. */
export const watchlistQuery = (wallet: string) =>
  queryOptions({ queryKey: [WATCHLIST_KEY, "list", wallet], queryFn: () => read(api.watchlist.$get()), staleTime: 30_000 });

/** GET /api/watchlist/{id}/watchers: how many wallets watch a listing (anyone may ask). */
export const watchersQuery = (listingId: string) =>
  queryOptions({
    queryKey: [WATCHLIST_KEY, "watchers", listingId],
    queryFn: () => {
      if (!/^[1-9]\d{0,15}$/.test(listingId)) return Promise.reject(new Error("Address not found"));
      return read(watch.watchers.$get(idParam(listingId)));
    },
    staleTime: 30_000,
  });

export type WatchChange = { listingId: number; watch: boolean };

/** PUT or DELETE /api/watchlist/{id}. The answer updates the star and the count at once; the list follows. */
export const watchMutation = (queryClient: QueryClient, wallet: string) =>
  mutationOptions({
    mutationFn: async ({ listingId, watch: on }: WatchChange): Promise<WatchAnswer> => {
      const param = { param: { id: String(listingId) } };
      return on ? read(watch.$put(param)) : read(watch.$delete(param));
    },
    onSuccess: (answer) => {
      queryClient.setQueryData(watchedIdsQuery(wallet).queryKey, (old) => {
        const ids = (old?.listingIds ?? []).filter((id) => id !== answer.listingId);
        return { listingIds: answer.watching ? [answer.listingId, ...ids] : ids };
      });
      queryClient.setQueryData(watchersQuery(String(answer.listingId)).queryKey, { listingId: answer.listingId, watchers: answer.watchers });
      void queryClient.invalidateQueries({ queryKey: [WATCHLIST_KEY, "list", wallet] });
    },
  });

/** GET /api/saved-searches. */
export const savedSearchesQuery = (wallet: string) =>
  queryOptions({ queryKey: [SAVED_SEARCHES_KEY, wallet], queryFn: () => read(api["saved-searches"].$get()), staleTime: 30_000 });

/** POST /api/saved-searches. */
export const saveSearchMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (body: { name: string; filters: SavedFilters }) => read(api["saved-searches"].$post({ json: body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [SAVED_SEARCHES_KEY] }),
  });

/** DELETE /api/saved-searches/{id}. */
export const deleteSavedSearchMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (id: number) => read(api["saved-searches"][":id"].$delete({ param: { id: String(id) } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [SAVED_SEARCHES_KEY] }),
  });

/**
 * The bell's poll: every UNREAD_POLL_MS while the page is visible, none while it is hidden (a background tab
 * costs the server nothing). `visibility` is document.visibilityState; without a document (the prerender) no
 * poll.
 */
export function unreadPollInterval(visibility: DocumentVisibilityState | undefined): number | false {
  return visibility === "visible" ? UNREAD_POLL_MS : false;
}

/**
 * GET /api/notifications/unread-count: the bell's number (an index count on the server,
 * docs/collectors.md#notifications). Polled by unreadPollInterval; a tab shown again asks at once (never fresh
 * enough to skip that, staleTime 0), and that answer restarts the poll the hidden tab stopped.
 */
export const unreadCountQuery = (wallet: string) =>
  queryOptions({
    queryKey: [NOTIFICATIONS_KEY, "unread", wallet],
    queryFn: () => read(api.notifications["unread-count"].$get()),
    refetchInterval: () => unreadPollInterval(globalThis.document?.visibilityState),
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    staleTime: 0,
  });

/** GET /api/notifications: one page, newest first; `before` is the previous page's nextCursor. */
export const notificationsPage = (before: string | null) => read(api.notifications.$get({ query: before ? { before, limit: "20" } : { limit: "20" } }));

/** POST /api/notifications/{id}/read and /read-all; the bell and the page are read again. */
export const markReadMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (id: number | "all") =>
      id === "all" ? read(api.notifications["read-all"].$post()) : read(api.notifications[":id"].read.$post({ param: { id: String(id) } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [NOTIFICATIONS_KEY] }),
  });
