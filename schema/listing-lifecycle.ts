// The listing lifecycle (the `status` of a row of `addresses`), declared like the purchase's
// (schema/purchase-lifecycle.ts): the statuses, the named sets every rule reasons with and every transition that
// writes a listing's status, with who makes it and where. Code in worker/ names a listing status only through these
// (SQL through worker/listings/status-sql.ts), and docs/listings.md#states states the same tables, which
// schema/listing-lifecycle.test.ts holds against this module.
//
// `pending` was a status nothing wrote; migration 0049 moved any row that held it to `inactive` (what every rule
// already treated it as: not for sale, still the seller's to change) and makes the database refuse a status outside
// this list.
//
// A status is half of what a rule asks: whether a listing is for sale is also its is_listed flag (a custom order's
// hidden listing is `active` and never listed), so "on the market" is LISTING_ON_MARKET and is_listed = 1.

export const LISTING_STATUSES = ["active", "inactive", "sold", "deleted"] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

/** A set of listing statuses, in LISTING_STATUSES order. */
type ListingSet = readonly ListingStatus[];

/** For sale, when also listed (is_listed = 1): what may be bought, offered on, counted as available, found by the supply targets. */
export const LISTING_ON_MARKET = ["active"] as const satisfies ListingSet;
/** Not sold or deleted: its seller or an admin may still change its price, promotion and status, or delete it. */
export const LISTING_CHANGEABLE = ["active", "inactive"] as const satisfies ListingSet;
/** Ended: nothing moves it any more (a sold listing is the record of its sale; a deleted one keeps its address). */
export const LISTING_ENDED = ["sold", "deleted"] as const satisfies ListingSet;
/** What the public marketplace may show at all (for sale or sold); the partial search indexes are written with it (BROWSABLE_SQL). */
export const LISTING_BROWSABLE = ["active", "sold"] as const satisfies ListingSet;
/** Not deleted: what the admin panel, the seller's list, the watchlist and the market figures still count. */
export const LISTING_KEPT = ["active", "inactive", "sold"] as const satisfies ListingSet;

/** A status a seller or an admin sets (create, activate, deactivate). */
export type ChangeableStatus = (typeof LISTING_CHANGEABLE)[number];

/** Who or what makes a transition happen. `chain`: a purchase's payment settling; `grinder`: a custom order's address found. */
type Trigger = "seller" | "admin" | "buyer" | "grinder" | "chain" | "cron";

type Transition = {
  /** The statuses it moves from; empty for a listing it creates. */
  from: ListingSet;
  to: ListingStatus;
  by: readonly Trigger[];
  /** What it means, as docs/listings.md#states says it. */
  what: string;
};

/** Every status write the code makes. */
export const LISTING_TRANSITIONS = {
  list: {
    from: [],
    to: "active",
    by: ["admin"],
    what: "an admin lists an address for sale, one at a time or in a bulk import (listings/create.ts, listings/import.ts)",
  },
  "add-inactive": { from: [], to: "inactive", by: ["admin"], what: "an admin adds an address not yet for sale (listings/create.ts)" },
  "order-found": {
    from: [],
    to: "active",
    by: ["grinder"],
    what: "a custom order's address is found: its hidden listing, never listed, which only the order's buyer may reserve (orders/order-listing.ts)",
  },
  activate: {
    from: LISTING_CHANGEABLE,
    to: "active",
    by: ["admin"],
    what: "an admin puts it on sale, listed again; never a custom order's listing (listings/changes.ts)",
  },
  deactivate: { from: LISTING_CHANGEABLE, to: "inactive", by: ["admin"], what: "an admin takes it off sale (listings/changes.ts)" },
  delete: {
    from: LISTING_CHANGEABLE,
    to: "deleted",
    by: ["seller", "admin"],
    what: "its seller or an admin deletes it while no purchase of it is in progress: unlisted and unfeatured (listings/changes.ts)",
  },
  sell: { from: LISTING_CHANGEABLE, to: "sold", by: ["chain"], what: "its purchase settles (purchases/settle.ts)" },
  "deliver-order": {
    from: LISTING_CHANGEABLE,
    to: "inactive",
    by: ["chain"],
    what: "a custom order's purchase settles: its hidden listing goes off the market, never sold (purchases/settle.ts)",
  },
  "retire-order": {
    from: LISTING_ON_MARKET,
    to: "inactive",
    by: ["buyer", "cron"],
    what: "its custom order is cancelled or expires: nobody may reserve its listing any more (orders/orders.ts)",
  },
} as const satisfies Record<string, Transition>;

export type ListingTransitionName = keyof typeof LISTING_TRANSITIONS;
type Declared = typeof LISTING_TRANSITIONS;

/** The status transition `name` writes. */
export const listingTo = <N extends ListingTransitionName>(name: N): Declared[N]["to"] => LISTING_TRANSITIONS[name].to;
/** Whether `status` is in `set` (a TypeScript check; SQL takes worker/listings/status-sql.ts). */
export const inListingSet = (set: ListingSet, status: ListingStatus): boolean => set.includes(status);
/** The transition that sets a status a seller or an admin chooses. */
export const changeTransition = (status: ChangeableStatus): "activate" | "deactivate" => (status === listingTo("activate") ? "activate" : "deactivate");
/** Whether a listing is on the market now: LISTING_ON_MARKET and listed (SQL takes onMarket in worker/listings/status-sql.ts). */
export const isOnMarket = (l: { status: ListingStatus; isListed: boolean }): boolean => inListingSet(LISTING_ON_MARKET, l.status) && l.isListed;
