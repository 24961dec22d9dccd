// Purchases as the lists show them (the home page's recent sales, the admin's transaction history): the
// listing's address and rarity, usernames only — never a wallet, a hash or a key. One SELECT and one mapping
// for every list.
import { type SQL, sql } from "drizzle-orm";
import { RECENT_TRANSACTIONS_LIMIT, type RecentTransaction } from "../../schema/browse";
import type { UserTransaction } from "../../schema/listings";
import type { Db } from "../db";
import { rarityString } from "../listings/listing-view";
import { orderListing } from "../orders/order-listing";

export type TransactionRow = {
  id: string;
  status: string;
  price: string;
  currency: RecentTransaction["currency"];
  network: RecentTransaction["network"];
  created_at: number;
  completed_at: number | null;
  address_id: number;
  address: string;
  rarity_score: number;
  buyer: string | null;
  seller: string | null;
  buyer_id: number | null;
};

/** Transactions with their listing and usernames, filtered and ordered by the caller's SQL tail. */
export function selectTransactions(db: Db, tail: SQL): Promise<TransactionRow[]> {
  return db.all<TransactionRow>(sql`
    SELECT t.id, t.status, t.price, t.currency, t.network, t.created_at, t.completed_at, t.buyer_id,
           a.id AS address_id, a.address, a.rarity_score, b.username AS buyer, s.username AS seller
    FROM transactions t
    JOIN addresses a ON a.id = t.address_id
    LEFT JOIN users b ON b.id = t.buyer_id
    LEFT JOIN users s ON s.id = t.seller_id
    ${tail}`);
}

export function toTransactionView(r: TransactionRow): RecentTransaction {
  return {
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
  };
}

/**
 * The public activity feed: the latest completed sales (not test data), newest sale first. DESIGN §6: a
 * completed sale is a public fact, as it is on chain; an open reservation is not public activity (anyone can
 * reserve, and report a made-up hash), so initiated, pending and verified purchases never appear. Nothing
 * about the buyer either: the chain shows who paid the platform, never which address that payment bought, so
 * the feed names no buyer. A custom order's purchase is the buyer's private business and never listed
 * (order-listing.ts). Walks the transactions_completed_sales index (status, completed_at) newest first.
 */
export async function recentTransactions(db: Db): Promise<RecentTransaction[]> {
  const rows = await selectTransactions(
    db,
    sql`WHERE t.status = 'completed' AND t.is_test_data = 0 AND NOT ${orderListing(sql`t.address_id`)}
        ORDER BY t.completed_at DESC, t.id DESC LIMIT ${RECENT_TRANSACTIONS_LIMIT}`,
  );
  return rows.map((r) => ({ ...toTransactionView(r), buyer: null }));
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
