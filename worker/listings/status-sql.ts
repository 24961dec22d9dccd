// The one way SQL names a listing's status: a named set of schema/listing-lifecycle.ts or a declared transition, as
// literals (worker/db/status-sql.ts; the partial search indexes are proved from the literal BROWSABLE_SQL term).
//
// A set of two or more statuses is written as NOT IN the statuses outside it: the same rows (status is NOT NULL),
// but a term SQLite does not search an index by. Written as IN, the planner takes an index that starts with status
// (addresses_browse_*) for "not deleted" or "not sold or deleted" and walks every such listing, where the query
// means to find its few rows by id (a bulk action's ids), by seller or by rowid; a single status stays `= 'x'`,
// which those indexes serve as intended.
import { type AnyColumn, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { LISTING_ON_MARKET, LISTING_STATUSES, LISTING_TRANSITIONS, type ListingStatus, type ListingTransitionName } from "../../schema/listing-lifecycle";
import { lifecycleSql } from "../db/status-sql";

const listing = lifecycleSql("listing", LISTING_STATUSES, LISTING_TRANSITIONS);
type Column = AnyColumn | SQLWrapper;

/** In SQL: the listing's status is one of `set` (never empty). */
export function listingStatusIn(column: Column, set: readonly ListingStatus[]): SQL {
  const outside = LISTING_STATUSES.filter((s) => !set.includes(s));
  if (set.length < 2 || outside.length === 0) return listing.statusIn(column, set);
  return listing.statusNotIn(column, outside);
}
/** In SQL: the listing's status is exactly `status`. */
export const listingStatusIs = (column: Column, status: ListingStatus): SQL => listingStatusIn(column, [status]);
/** In SQL: the listing is in a status transition `name` moves from: the WHERE of that transition's UPDATE. */
export const listingCanMove = (column: Column, name: ListingTransitionName): SQL => listingStatusIn(column, LISTING_TRANSITIONS[name].from);
/** In SQL: the status transition `name` writes, as a literal. */
export const listingStatusAfter = listing.statusAfter;

/** In SQL: on the market, for sale now (LISTING_ON_MARKET and listed), for the columns of `addresses` or an alias of it. */
export const onMarket = (c: { status: Column; isListed: Column }): SQL => sql`${listingStatusIn(c.status, LISTING_ON_MARKET)} AND ${c.isListed} = 1`;
