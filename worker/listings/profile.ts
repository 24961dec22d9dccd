// The admin's profile lists (transactions-profile-admin.md §2 Profile, admin view): "My Listings" and
// "Transaction History" (sales and purchases merged, newest first by createdAt).
import { sql } from "drizzle-orm";
import type { UserTransaction } from "../../schema/listings";
import type { Db } from "../db";
import { type ListingRow, listingColumns, rarityString } from "./listing-view";

/** The user's listings (every status but deleted), newest first. */
export function userListings(db: Db, userId: number, limit: number, offset: number): Promise<ListingRow[]> {
  return db.all<ListingRow>(sql`
    SELECT ${sql.raw(listingColumns())} FROM addresses
    WHERE seller_id = ${userId} AND status != 'deleted'
    ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`);
}

type Row = {
  id: string;
  status: string;
  price: string;
  currency: "ETH" | "SOL";
  network: UserTransaction["network"];
  created_at: number;
  completed_at: number | null;
  address_id: number;
  address: string;
  rarity_score: number;
  buyer: string | null;
  seller: string | null;
  buyer_id: number | null;
};

/** The user's sales and purchases in one list, newest first; a purchase of one's own listing shows once, as a purchase. */
export async function userTransactions(db: Db, userId: number, limit: number, offset: number): Promise<UserTransaction[]> {
  const rows = await db.all<Row>(sql`
    SELECT t.id, t.status, t.price, t.currency, t.network, t.created_at, t.completed_at, t.buyer_id,
           a.id AS address_id, a.address, a.rarity_score, b.username AS buyer, s.username AS seller
    FROM transactions t
    JOIN addresses a ON a.id = t.address_id
    LEFT JOIN users b ON b.id = t.buyer_id
    LEFT JOIN users s ON s.id = t.seller_id
    WHERE t.buyer_id = ${userId} OR t.seller_id = ${userId}
    ORDER BY t.created_at DESC, t.id DESC
    LIMIT ${limit} OFFSET ${offset}`);
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    price: r.price,
    currency: r.currency,
    network: r.network,
    createdAt: new Date(r.created_at).toISOString(),
    completedAt: r.completed_at === null ? null : new Date(r.completed_at).toISOString(),
    address: { id: r.address_id, address: r.address, network: r.network, rarityScore: rarityString(r.rarity_score) },
    buyer: r.buyer === null ? null : { username: r.buyer },
    seller: r.seller === null ? null : { username: r.seller },
    role: r.buyer_id === userId ? "purchase" : "sale",
  }));
}
