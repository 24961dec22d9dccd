// Browsing: the constants and response shapes of the public listing calls, shared
// by the Worker (which builds them) and the web app (which reads them).
import type { LISTING_STATUSES, Network, PROMOTION_TYPES } from "./db";
import type { UsdRates } from "./prices";

export const PAGE_SIZES = [20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
/**
 * Only the first this-many results of a search can be paged through (offset + limit must not exceed it), the
 * way large search engines bound deep paging: every page stays fast, and a longer list is narrowed by filters.
 */
export const MAX_RESULT_WINDOW = 10_000;
export const MAX_SEARCH_LENGTH = 100;
export const CHAR_LENGTH_MIN = 1;
export const CHAR_LENGTH_MAX = 100;
export const PATTERN_FILTERS = ["prefix", "suffix", "either"] as const;
export const SORT_FIELDS = ["rarity", "price", "createdAt"] as const;
export const SORT_ORDERS = ["asc", "desc"] as const;
export const FEATURED_LIMIT = 12;
export const RECENT_TRANSACTIONS_LIMIT = 10;

export type PatternFilter = (typeof PATTERN_FILTERS)[number];
export type SortField = (typeof SORT_FIELDS)[number];
export type SortOrder = (typeof SORT_ORDERS)[number];

/** A listing as every public call returns it. Never carries key material or the seller's wallet. */
export type ListingView = {
  id: number;
  address: string;
  network: Network;
  pattern: string;
  /** One of CATEGORIES for listings the rarity engine scored; stored as free text, so typed as string. */
  category: string;
  /** Number of matched (highlighted) characters: what the character-count filters compare. */
  patternLength: number;
  /** 0.0 to 10.0, one decimal, as a string (spec: numeric string). */
  rarityScore: string;
  /** Decimal string, at most 8 decimals. */
  price: string;
  currency: "ETH" | "SOL";
  /** price x the latest USD rate, rounded to cents. */
  usdPrice: number;
  /** usdPrice as "$1,234.56" ("<$0.01" for a positive amount below a cent). */
  formattedUsd: string;
  status: (typeof LISTING_STATUSES)[number];
  isListed: boolean;
  promotionType: (typeof PROMOTION_TYPES)[number];
  isFeatured: boolean;
  /** True only when the signed-in session's user is the seller. */
  isOwner: boolean;
  /**
   * An open purchase holds the listing, the same for every viewer (it is in cached answers): never
   * whose it is. The signed-in buyer learns which reservations are theirs from GET /api/transactions/open.
   */
  reservation: ListingReservation | null;
  /** ISO 8601. */
  createdAt: string;
};

/**
 * `until`: when an unpaid reservation lapses (ISO 8601); `paymentReported`: a payment was reported and is being
 * confirmed (pending or verified), so the listing stays held whatever `until` says.
 */
export type ListingReservation = { until: string; paymentReported: boolean };

export type Pagination = {
  page: number;
  totalPages: number;
  total: number;
  hasPrevPage: boolean;
  hasNextPage: boolean;
  /**
   * False when a search too common to list (a one-character text or pattern, or a text in more listings than
   * the search checks one by one) was answered from a bounded scan of the chosen order: `total` then counts
   * the matches the scan saw, at least that many exist ("850+"), and pages stop there.
   */
  totalIsExact: boolean;
};

export type SearchResponse = { addresses: ListingView[]; pagination: Pagination };

/** GET /api/market-stats; docs/listings.md#market-stats defines each figure. */
export type MarketStats = { totalAddresses: number; totalVolume: number; activeUsers: number; avgPrice: number };

/** GET /api/prices/live: USD per coin. */
export type LivePrices = UsdRates & { source: "feed" | "fallback"; updatedAt: string | null };

/**
 * A completed sale as the public sees it (GET /api/transactions/sales and /sales/{id}): the listing
 * sold, its price, the day and on which network. The day, never the time: with the platform address and the
 * price, a time to the second would point at the buyer's transfer (docs/public-surface.md#what-a-public-sale-shows). Never the buyer (docs/public-surface.md#what-a-public-sale-shows): no wallet, no username, and not the
 * payment's transaction, whose sender is the buyer's wallet.
 */
export type PublicSale = {
  /** The purchase's id (the sale page's address, /sale/{id}). */
  id: string;
  listingId: number;
  address: string;
  network: Network;
  price: string;
  currency: "ETH" | "SOL";
  rarityScore: string;
  /** The UTC day the sale settled (YYYY-MM-DD), rounded on the server. */
  soldOn: string;
};

export const SALES_PAGE_DEFAULT = 20;
export const SALES_PAGE_MAX = 50;

/** GET /api/transactions/sales?network=&page=&limit= */
export type SalesResponse = {
  sales: PublicSale[];
  pagination: { page: number; totalPages: number; total: number; hasPrevPage: boolean; hasNextPage: boolean };
};

/**
 * One row of GET /api/transactions/recent (a completed sale; `buyer` is always null there, docs/public-surface.md#what-a-public-sale-shows) or of a profile history.
 * In the public feed `createdAt` and `completedAt` are both the sale's UTC day (YYYY-MM-DD), never a time; in a
 * profile history (the caller's own purchases and sales) they are ISO 8601 times.
 */
export type RecentTransaction = {
  id: string;
  status: string;
  price: string;
  currency: "ETH" | "SOL";
  network: Network;
  createdAt: string;
  completedAt: string | null;
  address: { id: number; address: string; network: Network; rarityScore: string };
  buyer: { username: string } | null;
  seller: { username: string } | null;
};
