// The admin's profile lists (transactions-profile-admin.md §2 Profile, admin view): "My Listings" and
// "Transaction History" (sales and purchases merged, newest first by createdAt).
import { sql } from "drizzle-orm";
import type { UserTransaction } from "../../schema/listings";
import type { Db } from "../db";
import { type ListingRow, listingColumns } from "./listing-view";
import { selectTransactions, toTransactionView } from "./transaction-view";

/** The user's listings (every status but deleted), newest first. */
export function userListings(db: Db, userId: number, limit: number, offset: number): Promise<ListingRow[]> {
  return db.all<ListingRow>(sql`
    SELECT ${sql.raw(listingColumns())} FROM addresses
    WHERE seller_id = ${userId} AND status != 'deleted'
    ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`);
}

/** The user's sales and purchases in one list, newest first; a purchase of one's own listing shows once, as a purchase. */
export async function userTransactions(db: Db, userId: number, limit: number, offset: number): Promise<UserTransaction[]> {
  const rows = await selectTransactions(
    db,
    sql`WHERE t.buyer_id = ${userId} OR t.seller_id = ${userId}
        ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map((r) => ({ ...toTransactionView(r), role: r.buyer_id === userId ? "purchase" : "sale" }));
}
