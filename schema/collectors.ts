// Collectors' tools (docs/collectors.md): the watchlist, saved searches and notifications, as the Worker
// (worker/collectors/, worker/routes/watchlist.ts, saved-searches.ts, notifications.ts) and the web app share them.
import * as v from "valibot";
import type { Network } from "./db";
import type { NotificationKind } from "./notifications";

// ---- bounds (docs/collectors.md#bounds) -----------------------------------------------------------------------

/**
 * What one wallet may keep, and what all the wallets one client network (an IPv4 address or an IPv6 /64) signed in
 * together may keep: a wallet costs nothing to make, so a per-wallet bound alone bounds nothing. The network's
 * bound is a few dozen wallets' worth, room for a household or an office behind one address.
 */
export const WATCHLIST_LIMITS = { perWallet: 200, perClient: 2_000 } as const;
export const SAVED_SEARCH_LIMITS = { perWallet: 20, perClient: 200 } as const;
/** Notifications kept per wallet: past it the oldest are dropped. */
export const NOTIFICATIONS_PER_WALLET = 200;
/** Notifications are deleted this many days after they were written (or last brought up to date). */
export const NOTIFICATION_RETENTION_DAYS = 90;
/** Writes (star, unstar, save, delete, mark as read) a wallet and a client network may make per minute. */
export const COLLECTOR_WRITE_LIMIT = { perWallet: 60, perClient: 300, windowMs: 60_000, what: "watchlist, saved-search and notification changes" } as const;
/**
 * How often the header's bell asks for the unread count while a wallet is connected and the page is visible:
 * often enough that a notification reaches an open page within 10 s, and far from a request a second per
 * visitor (10 a minute per visible tab; none while the tab is hidden, one at once when it is shown again).
 */
export const UNREAD_POLL_MS = 6_000;

// ---- the watchlist ----------------------------------------------------------------------------------------

/** A watched listing's state now: for sale, reserved (until), sold, or no longer listed (inactive, deleted). */
export type WatchState = "for-sale" | "reserved" | "sold" | "unlisted";

/** One row of Profile > Watchlist: the listing now, and its price when it was starred. */
export type WatchedListing = {
  listingId: number;
  address: string;
  network: Network;
  pattern: string;
  rarityScore: string;
  price: string;
  currency: "ETH" | "SOL";
  formattedUsd: string;
  priceAtStar: string;
  /** Percent change since starred ("-20.00", "0.00"); null when the starred price was 0. */
  changePercent: string | null;
  starredAt: string;
  state: WatchState;
  /** While reserved: when the reservation ends (a reported payment holds it until settled or failed). */
  reservedUntil: string | null;
};

export type WatchlistResponse = { items: WatchedListing[]; limit: number };
/** GET /api/watchlist/ids: the caller's watched listing ids, for the stars on cards and rows. */
export type WatchedIdsResponse = { listingIds: number[] };
/** PUT and DELETE /api/watchlist/{id}, and GET /api/watchlist/{id}/watchers. */
export type WatchAnswer = { listingId: number; watching: boolean; watchers: number };
export type WatchersResponse = { listingId: number; watchers: number };

// ---- saved searches -----------------------------------------------------------------------------------------

export const SAVED_SEARCH_NAME_MAX = 60;

const filterText = v.optional(v.pipe(v.string("must be text"), v.maxLength(200, "must be at most 200 characters")));

/**
 * The marketplace URL's filter fields a saved search keeps (sorts too, so opening it looks the same), each as the
 * URL's text. Only their form is checked here; their values by the search's own rules
 * (worker/listings/search-params.ts).
 */
const savedFilters = v.strictObject(
  {
    search: filterText,
    minCharLength: filterText,
    maxCharLength: filterText,
    patternFilter: filterText,
    patternValue: filterText,
    category: filterText,
    network: filterText,
    excludeSold: filterText,
    sortBy: filterText,
    sortOrder: filterText,
  },
  "must hold only marketplace filters (search, minCharLength, maxCharLength, patternFilter, patternValue, category, network, excludeSold, sortBy, sortOrder)",
);
export type SavedFilters = v.InferOutput<typeof savedFilters>;
export type SavedFilterField = keyof SavedFilters;
export const SAVED_FILTER_FIELDS = Object.keys(savedFilters.entries) as SavedFilterField[];

/** POST /api/saved-searches. */
export const SaveSearchRequest = v.object({
  name: v.pipe(
    v.string("name must be text"),
    v.trim(),
    v.minLength(1, "name must not be empty"),
    v.maxLength(SAVED_SEARCH_NAME_MAX, `name must be at most ${SAVED_SEARCH_NAME_MAX} characters`),
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
    v.check((name) => !/[\u0000-\u001f\u007f]/.test(name), "name must not contain control characters"),
  ),
  // An array is an object to valibot's object schemas: refused first, as the JSON shape it is not.
  filters: v.pipe(
    v.custom<unknown>((x) => typeof x === "object" && x !== null && !Array.isArray(x), "filters must be an object of marketplace filters"),
    savedFilters,
  ),
});

export type SavedSearchView = {
  id: number;
  name: string;
  /** The filters as the marketplace's URL holds them (defaults left out). */
  filters: SavedFilters;
  createdAt: string;
  lastMatchAt: string | null;
};
export type SavedSearchesResponse = { searches: SavedSearchView[]; limit: number };

// ---- notifications ------------------------------------------------------------------------------------------

export const NOTIFICATIONS_PAGE_MAX = 50;
export const NOTIFICATIONS_PAGE_DEFAULT = 20;

export type NotificationView = {
  id: number;
  kind: NotificationKind;
  title: string;
  body: string;
  /** Where it leads in the app (a path), or null. */
  href: string | null;
  createdAt: string;
  read: boolean;
};
export type NotificationsResponse = { notifications: NotificationView[]; unread: number; nextCursor: string | null };
export type UnreadCountResponse = { unread: number };
export type MarkReadResponse = { success: true; unread: number };
