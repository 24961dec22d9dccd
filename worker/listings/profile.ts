// The admin's profile list "My Listings"; its
// "Transaction History" is in purchases/transaction-list.ts.
import { and, desc, eq } from "drizzle-orm";
import { addresses } from "../../schema/db";
import type { Db } from "../db/database";
import { type ListingRow, listingColumns } from "./listing-view";
import { LISTING_KEPT } from "../../schema/listing-lifecycle";
import { listingStatusIn } from "./status-sql";

/** The user's listings (every status but deleted), newest first. */
export function userListings(db: Db, userId: number, limit: number, offset: number): Promise<ListingRow[]> {
  const a = addresses;
  return db
    .select(listingColumns())
    .from(a)
    .where(and(eq(a.sellerId, userId), listingStatusIn(a.status, LISTING_KEPT)))
    .orderBy(desc(a.createdAt), desc(a.id))
    .limit(limit)
    .offset(offset);
}
