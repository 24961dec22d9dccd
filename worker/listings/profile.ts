// The admin's profile list "My Listings" (transactions-profile-admin.md §2 Profile, admin view); its
// "Transaction History" is in purchases/transaction-list.ts.
import { sql } from "drizzle-orm";
import type { Db } from "../db";
import { type ListingRow, listingColumns } from "./listing-view";

/** The user's listings (every status but deleted), newest first. */
export function userListings(db: Db, userId: number, limit: number, offset: number): Promise<ListingRow[]> {
  return db.all<ListingRow>(sql`
    SELECT ${sql.raw(listingColumns())} FROM addresses
    WHERE seller_id = ${userId} AND status != 'deleted'
    ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`);
}
