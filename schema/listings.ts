// Listing management: the constants,
// messages and response shapes of the create, bulk, owner and admin calls, shared by the Worker (which
// builds them) and the web app (which reads them).
import type { ListingView, RecentTransaction } from "./browse";
import type { Network, PROMOTION_TYPES } from "./db";
import type { CustomOrderStatus } from "./db/custom-orders";
import {
  ADMIN_NETWORK_FILTERS,
  ADMIN_PAGE_SIZES,
  ADMIN_STATUS_FILTERS,
  BULK_CSV_COLUMNS,
  BULK_MAX_ROWS,
  MAX_BULK_IDS,
  OWNERSHIP_RATE_LIMIT,
  PROFILE_LIST_DEFAULT,
  PROFILE_LIST_MAX,
} from "./constants";

export {
  ADMIN_NETWORK_FILTERS,
  ADMIN_PAGE_SIZES,
  ADMIN_STATUS_FILTERS,
  BULK_CSV_COLUMNS,
  BULK_MAX_ROWS,
  MAX_BULK_IDS,
  OWNERSHIP_RATE_LIMIT,
  PROFILE_LIST_DEFAULT,
  PROFILE_LIST_MAX,
};

/**
 * An owner's (or admin's) changes to a listing (PATCH /api/addresses/{id}: price, promotion), counted per wallet
 * and per client network: every price change writes a price_history row, so a wallet may not write them without end.
 */
export const LISTING_CHANGE_LIMIT = { perWallet: 30, perClient: 120, windowMs: 60_000, what: "listing changes" } as const;

/** The specification's price messages, plus the two limits exact storage needs. */
export const PRICE_MESSAGES = {
  required: "Price is required",
  positive: "Price must be a positive number greater than 0",
  negative: "Negative prices are not allowed",
  decimals: "Price can have at most 8 decimal places",
  tooLarge: "Price must be at most 90000000",
} as const;

export const OWNERSHIP_MESSAGES = {
  missing: "Please enter both address and private key",
  keyRequired: "Private key is required for ownership verification",
  mismatch: "Private key does not match the address",
} as const;

export type PromotionType = (typeof PROMOTION_TYPES)[number];

/** POST /api/addresses/verify-ownership answer. `error` is null when verified. */
export type OwnershipResponse = { verified: boolean; error: string | null };

// ---- bulk upload -------------------------------------------------------------------------------------

export type BulkRow = Record<(typeof BULK_CSV_COLUMNS)[number], string>;
export const BULK_MESSAGES = {
  missingFields: "Missing required fields",
  skipped8: "Pattern matched 8+ characters marked as SOLD - skipped",
} as const;

export type BulkRowReason =
  | "missing-fields"
  | "invalid-field"
  | "invalid-platform"
  | "invalid-address"
  | "keyless-address"
  | "invalid-pattern"
  | "key-mismatch"
  | "invalid-key"
  | "duplicate"
  | "skipped"
  | "no-pattern"
  // sealed intake only (POST /api/admin/addresses/sealed)
  | "wrong-intake-key"
  | "unopenable"
  | "replayed"
  // a supply claim's row that is not of its target (POST /api/supply/claims/:id/sealed)
  | "off-target";

export type BulkRowResult =
  | { index: number; status: "success"; id: number; address: string; price: string; currency: "ETH" | "SOL"; rarityScore: string }
  | { index: number; status: "error"; reason: BulkRowReason; message: string };

/**
 * POST /api/admin/addresses/bulk/appraise answer, per row sent without its key: the price by the spec's table
 * (null: 8+ characters, skipped), the estimated value its listing page will show, whether the address shows a
 * notable pattern, or why the upload would refuse the row.
 */
export type BulkAppraisal =
  | {
      index: number;
      status: "ok";
      currency: "ETH" | "SOL";
      tablePrice: string | null;
      estimatedValue: string;
      notable: boolean;
      pattern: string;
      tableRarity: string;
    }
  | { index: number; status: "error"; reason: BulkRowReason; message: string };

export type BulkAppraisalResponse = { results: BulkAppraisal[] };

/** POST /api/admin/addresses/bulk answer: one result per row sent, in order (index = position in `rows`). */
export type BulkUploadResponse = {
  results: BulkRowResult[];
  summary: { total: number; succeeded: number; failed: number };
};

// ---- fees -------------------------------------------------------------------------------------------

/** POST /api/transactions/calculate-fees answer: decimal strings in `currency`. */
export type FeeBreakdown = {
  listingPrice: string;
  gasFee: string;
  exchangeFee: string;
  commissionFee: string;
  totalAmount: string;
  currency: "ETH" | "SOL";
  network: Network;
  /** Where the gas figure came from: the node's gas price, the spec's fixed Solana fee, or the fallback. */
  gasSource: "rpc" | "fixed" | "fallback";
};

// ---- admin ------------------------------------------------------------------------------------------

/** A listing row of the admin table and of "My Listings". */
export type AdminListing = Pick<
  ListingView,
  | "id"
  | "address"
  | "network"
  | "price"
  | "currency"
  | "usdPrice"
  | "formattedUsd"
  | "category"
  | "pattern"
  | "rarityScore"
  | "status"
  | "isFeatured"
  | "isListed"
  | "promotionType"
  | "createdAt"
> & {
  /**
   * The custom order this address was found for, or null for an ordinary listing (docs/custom-orders.md): its key
   * is the order's buyer's and it is never listed, so the panel offers no status action for it.
   */
  customOrder: { id: number; status: CustomOrderStatus } | null;
};

export type AdminListingsResponse = {
  addresses: AdminListing[];
  pagination: { total: number; limit: number; offset: number; page: number; totalPages: number; hasPrevPage: boolean; hasNextPage: boolean };
};

/**
 * The most listings one export (GET /api/admin/addresses/export) carries: every listing matching the panel's filters
 * up to this many, newest first; past it the answer says how many matched, and the panel asks for narrower filters.
 */
export const ADMIN_EXPORT_CAP = 5000;

/** GET /api/admin/addresses/export: the listings matching the filters (at most `cap`), and how many match. */
export type AdminExportResponse = { addresses: AdminListing[]; total: number; cap: number };

export type AdminStats = { totalListings: number; activeListings: number; featuredListings: number; totalUsers: number };

/** Bulk admin actions: how many listings changed, and the ids left alone with why (e.g. sold, reserved). */
export type BulkActionResponse = { success: true; updated: number; skipped: { id: number; reason: string }[] };

// ---- profile ----------------------------------------------------------------------------------------

/** One row of GET /api/transactions/user: the caller's sales and purchases, newest first. */
export type UserTransaction = RecentTransaction & { role: "sale" | "purchase" };
