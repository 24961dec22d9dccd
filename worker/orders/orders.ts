// Reading orders, and the buyer's and the cron job's state changes that need no grinder.
import { desc, eq, inArray, sql } from "drizzle-orm";
import { customOrders, type CustomOrderStatus } from "../../schema/db";
import { type Db, writeBatch } from "../db";
import { ApiError } from "../http/errors";
import type { CustomOrderView, OrderPayment } from "../../schema/custom-orders";
import { listingOfOrder } from "./order-listing";
import { type OrderRow, toBuyerView } from "./order-view";

export async function orderById(db: Db, id: number): Promise<OrderRow | undefined> {
  return db.select().from(customOrders).where(eq(customOrders.id, id)).get();
}

/** The order as its buyer or an admin may see it; 404 for anyone else (no hint that it exists). */
export async function orderForViewer(db: Db, id: number, viewer: { userId: number; isAdmin: boolean }): Promise<OrderRow> {
  const row = await orderById(db, id);
  if (!row || (row.buyerId !== viewer.userId && !viewer.isAdmin)) throw new ApiError(404, "Order not found");
  return row;
}

/** The buyer's views of these orders, each with its payment (the newest open or completed purchase of its listing). */
export async function buyerViews(db: Db, rows: OrderRow[], now: number): Promise<CustomOrderView[]> {
  const addresses = rows.flatMap((r) => (r.foundAddress === null ? [] : [r.foundAddress]));
  const payments = new Map<string, OrderPayment>();
  if (addresses.length > 0) {
    const found = await db.all<{ address: string; id: string; status: OrderPayment["status"] }>(sql`
      SELECT a.address, t.id, t.status FROM addresses a JOIN transactions t ON t.address_id = a.id
      WHERE a.address IN (SELECT value FROM json_each(${JSON.stringify(addresses)}))
        AND (t.status IN ('pending', 'verified', 'completed') OR (t.status = 'initiated' AND t.expires_at >= ${now}))
      ORDER BY t.created_at DESC, t.id DESC`);
    for (const p of found) if (!payments.has(p.address)) payments.set(p.address, { transactionId: p.id, status: p.status });
  }
  return rows.map((r) => toBuyerView(r, r.foundAddress === null ? null : (payments.get(r.foundAddress) ?? null)));
}

/** A buyer's orders, newest first (bounded: a wallet has few). */
export async function ordersOfBuyer(db: Db, buyerId: number): Promise<OrderRow[]> {
  return db.select().from(customOrders).where(eq(customOrders.buyerId, buyerId)).orderBy(desc(customOrders.createdAt), desc(customOrders.id)).limit(200).all();
}

/** "waiting" = open and grinding (what a grinder looks at), oldest first; otherwise one status or all, newest first. */
export async function orderQueue(db: Db, filter: "waiting" | "all" | CustomOrderStatus): Promise<OrderRow[]> {
  const q = db.select().from(customOrders);
  if (filter === "waiting") {
    return q.where(inArray(customOrders.status, ["open", "grinding"])).orderBy(customOrders.createdAt, customOrders.id).limit(500).all();
  }
  const filtered = filter === "all" ? q : q.where(eq(customOrders.status, filter));
  return filtered.orderBy(desc(customOrders.createdAt), desc(customOrders.id)).limit(500).all();
}

/** The buyer withdraws an order nobody has paid for; a found address is then never offered to anyone. */
export async function cancelOrder(db: Db, id: number, buyerId: number, now: number): Promise<OrderRow> {
  const [cancelled] = await writeBatch(db, [
    sql`UPDATE custom_orders SET status = 'cancelled', updated_at = ${now}
        WHERE id = ${id} AND buyer_id = ${buyerId} AND status IN ('open', 'grinding', 'found') AND NOT ${paymentInProgress}`,
    retireOrderListings(now),
  ]);
  const row = await orderById(db, id);
  if (!row || row.buyerId !== buyerId) throw new ApiError(404, "Order not found");
  if ((cancelled.meta.changes ?? 0) === 0) {
    throw new ApiError(409, row.status === "found" ? "A payment for this order is in progress; it can no longer be cancelled" : `This order is ${row.status} and can no longer be cancelled`);
  }
  return row;
}

/**
 * Found orders not paid by their deadline expire; their offset is never revealed. An order whose listing has a
 * purchase in progress waits: that payment settles (delivered) or fails first. The expired order's listing
 * becomes inactive in the same batch, so a payment arriving later follows the escrow's refund path and the
 * address is never offered to anyone. Idempotent, bounded.
 */
export async function expireUnpaidOrders(db: Db, now: number): Promise<number> {
  const [expired] = await writeBatch(db, [
    sql`UPDATE custom_orders SET status = 'expired', updated_at = ${now}
        WHERE id IN (SELECT id FROM custom_orders WHERE status = 'found' AND payment_deadline < ${now} AND NOT ${paymentInProgress} LIMIT 500)`,
    retireOrderListings(now),
  ]);
  return expired.meta.changes ?? 0;
}

/** In SQL on custom_orders: the order's listing has an open purchase (reserved, paid and confirming, or verified). */
const paymentInProgress = sql`EXISTS (SELECT 1 FROM transactions t WHERE t.address_id = ${listingOfOrder} AND t.status IN ('initiated', 'pending', 'verified'))`;

/** Takes the listings of expired and cancelled orders off the market (they were never listed; now nobody can reserve them). */
const retireOrderListings = (now: number) =>
  sql`UPDATE addresses SET status = 'inactive', updated_at = ${now}
      WHERE status = 'active' AND address IN (SELECT found_address FROM custom_orders WHERE status IN ('expired', 'cancelled') AND found_address IS NOT NULL)`;
