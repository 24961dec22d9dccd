// Purchases as the lists show them (the home page's recent sales, the admin's transaction history): the
// listing's address and rarity, usernames only — never a wallet, a hash or a key. One SELECT and one mapping
// for every list.
import { and, count, desc, eq, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { type PublicSale, RECENT_TRANSACTIONS_LIMIT, type RecentTransaction, type SalesResponse } from "../../schema/browse";
import { addresses, type Network, transactions, users } from "../../schema/db";
import type { UserTransaction } from "../../schema/listings";
import type { Db } from "../db/database";
import { rarityString } from "../listings/listing-view";
import { marketSale } from "./market-sale";

const t = transactions;
const a = addresses;
const buyer = alias(users, "b");
const seller = alias(users, "s");

/** Transactions with their listing and usernames; the caller filters, orders and pages. */
function selectTransactions(db: Db) {
  return db
    .select({
      id: t.id,
      status: t.status,
      price: t.price,
      currency: t.currency,
      network: t.network,
      createdAt: t.createdAt,
      completedAt: t.completedAt,
      buyerId: t.buyerId,
      addressId: a.id,
      address: a.address,
      rarityScore: a.rarityScore,
      buyer: buyer.username,
      seller: seller.username,
    })
    .from(t)
    .innerJoin(a, eq(a.id, t.addressId))
    .leftJoin(buyer, eq(buyer.id, t.buyerId))
    .leftJoin(seller, eq(seller.id, t.sellerId));
}

export type TransactionRow = Awaited<ReturnType<typeof selectTransactions>>[number];

export function toTransactionView(r: TransactionRow): RecentTransaction {
  return {
    id: r.id,
    status: r.status,
    price: r.price,
    currency: r.currency,
    network: r.network,
    createdAt: new Date(r.createdAt).toISOString(),
    completedAt: r.completedAt === null ? null : new Date(r.completedAt).toISOString(),
    address: { id: r.addressId, address: r.address, network: r.network, rarityScore: rarityString(r.rarityScore) },
    buyer: r.buyer === null ? null : { username: r.buyer },
    seller: r.seller === null ? null : { username: r.seller },
  };
}

/**
 * The public activity feed: the latest market sales, newest day first (docs/public-surface.md#what-a-public-sale-shows): a
 * completed sale is a public fact, as it is on chain; an open reservation is not public activity (anyone can
 * reserve, and report a made-up hash), so initiated, pending and verified purchases never appear. Nothing
 * about the buyer either: the chain shows who paid the platform, never which address that payment bought, so
 * the feed names no buyer. Nor the seller: a username is no name anyone chose but the wallet's first and last
 * characters (worker/domain/users.ts, "eth_0xf39fd6b92266"), which read as an internal id and name part of the
 * seller's wallet, which no public answer carries (listing-view.ts). What a public sale shows is the public
 * sale page's: the address, price, day and network. A custom order's purchase is the buyer's private
 * business and never listed (order-listing.ts). The transactions_completed_sales index (status, completed_at)
 * finds the completed sales; they are sorted by day, then id.
 */
export async function recentTransactions(db: Db): Promise<RecentTransaction[]> {
  const rows = await selectTransactions(db)
    .where(publicSale())
    .orderBy(...newestDayFirst)
    .limit(RECENT_TRANSACTIONS_LIMIT);
  return rows.map((r) => {
    const day = saleDay(r.completedAt);
    return { ...toTransactionView(r), createdAt: day, completedAt: day, buyer: null, seller: null };
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The UTC day a sale settled (YYYY-MM-DD): what every public answer says of when. Anyone can list the transfers to
 * the platform address with their amounts and times; a sale's price and its time to the second would pick out the
 * buyer's transfer (docs/public-surface.md#what-a-public-sale-shows). Settling always sets completed_at.
 */
export const saleDay = (completedAt: number | null): string => new Date(Math.floor((completedAt ?? 0) / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/**
 * Public sales, newest day first and, within a day, by their random id: an order of completion inside a day would
 * tell which of two sales of one price was paid first, and so which transfer each was.
 */
const newestDayFirst = [sql`${t.completedAt} / ${sql.raw(String(DAY_MS))} DESC`, desc(t.id)] as const;

/** The user's sales and purchases in one list, newest first; a purchase of one's own listing shows once, as a purchase. */
export async function userTransactions(db: Db, userId: number, limit: number, offset: number): Promise<UserTransaction[]> {
  const rows = await selectTransactions(db)
    .where(or(eq(t.buyerId, userId), eq(t.sellerId, userId)))
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ ...toTransactionView(r), role: r.buyerId === userId ? "purchase" : "sale" }));
}

/** In SQL: a public sale: a market sale (worker/purchases/market-sale.ts), of `network` when one is given. */
const publicSale = (network?: Network): SQL => and(marketSale(t), network ? eq(t.network, network) : undefined)!;

const saleColumns = {
  id: t.id,
  listingId: a.id,
  address: a.address,
  network: t.network,
  price: t.price,
  currency: t.currency,
  rarityScore: a.rarityScore,
  completedAt: t.completedAt,
};
const selectSales = (db: Db) => db.select(saleColumns).from(t).innerJoin(a, eq(a.id, t.addressId));
type SaleRow = Awaited<ReturnType<typeof selectSales>>[number];

function toPublicSale(r: SaleRow): PublicSale {
  return {
    id: r.id,
    listingId: r.listingId,
    address: r.address,
    network: r.network,
    price: r.price,
    currency: r.currency,
    rarityScore: rarityString(r.rarityScore),
    soldOn: saleDay(r.completedAt),
  };
}

/**
 * The public activity page: completed sales, newest first, paged, optionally one network. The same
 * rule as the recent feed; nothing that names the buyer is selected (docs/public-surface.md#what-a-public-sale-shows): no wallet, no username, and not
 * the payment's hash, which one explorer lookup turns into the buyer's wallet.
 */
export async function publicSales(db: Db, page: number, limit: number, network?: Network): Promise<SalesResponse> {
  const where = publicSale(network);
  const [rows, counted] = await Promise.all([
    selectSales(db)
      .where(where)
      .orderBy(...newestDayFirst)
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(t).where(where).get(),
  ]);
  const total = Number(counted?.n ?? 0);
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return { sales: rows.map(toPublicSale), pagination: { page, totalPages, total, hasPrevPage: page > 1, hasNextPage: page < totalPages } };
}

/** One public sale, or null when `id` is no public sale (an open, failed or private purchase is not one). */
export async function publicSaleById(db: Db, id: string): Promise<PublicSale | null> {
  const row = await selectSales(db)
    .where(and(eq(t.id, id), publicSale()))
    .get();
  return row ? toPublicSale(row) : null;
}

/**
 * A sold listing's own sale, for its page (when and for how much it sold, and the sale's page): the latest
 * public sale of `addressId` (a listing sells once: transactions_one_sale_per_listing), or null (never sold, or
 * sold privately as a custom order).
 */
export async function lastPublicSaleOf(db: Db, addressId: number): Promise<PublicSale | null> {
  const row = await selectSales(db)
    .where(and(eq(t.addressId, addressId), publicSale()))
    .orderBy(desc(t.completedAt), desc(t.id))
    .limit(1)
    .get();
  return row ? toPublicSale(row) : null;
}
