// The marketplace's fixed vocabulary and limits, defined once for the web, the Worker, the scripts and the
// database schema (schema/db/*.ts builds its enums from these). Search parameters live with the search schema
// (schema/browse.ts); messages live beside the shapes that carry them.

import { LISTING_KEPT } from "./listing-lifecycle";

// ---- networks, listings, purchases ----------------------------------------------------------------------

export const NETWORKS = ["ethereum", "solana"] as const;
export const PROMOTION_TYPES = ["standard", "featured", "promoted"] as const;
/** Rarity categories (docs/rarity.md). */
export const CATEGORIES = ["leading-zeros", "trailing-zeros", "word-like", "palindrome", "sequential", "custom"] as const;
/** The rarity scale new scores are written on: 2 = log2(D) / 4 (addresses.rarity_scale, migration 0009). */
export const RARITY_SCALE = 2;
// A listing's statuses and what moves between them: schema/listing-lifecycle.ts; a purchase's:
// schema/purchase-lifecycle.ts.

// ---- sign-in ---------------------------------------------------------------------------------------------

/** Longest sign-in message accepted. Ours are about 400 characters; the bound keeps parsing cheap. */
export const MAX_SIGN_IN_MESSAGE_LENGTH = 2048;

// ---- listing management ----------------------------------------------------------------------------------

/** How many verify-ownership calls one client may make per window. */
export const OWNERSHIP_RATE_LIMIT = { limit: 30, windowMs: 60_000 } as const;
/** The bulk CSV's columns, exactly as the specification names them (docs/listings.md#creating-listings). */
export const BULK_CSV_COLUMNS = ["address", "private_key", "platform", "pattern_type", "pattern_matched"] as const;
/** Rows per POST /api/admin/addresses/bulk request: the client sends a file in chunks of at most this many. */
export const BULK_MAX_ROWS = 500;
export const ADMIN_PAGE_SIZES = [20, 50, 100, 250] as const;
/** The admin panel's status filter: every listing but the deleted, or those of one status (schema/listing-lifecycle.ts). */
export const ADMIN_STATUS_FILTERS = ["all", ...LISTING_KEPT] as const;
export const ADMIN_NETWORK_FILTERS = ["all", "ethereum", "solana"] as const;
/** Most listing ids one bulk admin action may name. */
export const MAX_BULK_IDS = 500;
/** Default and largest page of the profile lists (GET /api/addresses/user, /api/transactions/user). */
export const PROFILE_LIST_DEFAULT = 100;
export const PROFILE_LIST_MAX = 500;
