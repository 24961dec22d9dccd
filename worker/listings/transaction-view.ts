// A purchase as the public lists show it (recent transactions, a user's history): the listing's address and
// rarity, usernames only — never a wallet, a hash or a key. One SELECT and one mapping for every list.
import { type SQL, sql } from "drizzle-orm";
import type { RecentTransaction } from "../../schema/browse";
import type { Db } from "../db";
import { rarityString } from "./listing-view";

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
