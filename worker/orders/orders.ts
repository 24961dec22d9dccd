// Reading orders, and the buyer's and the cron job's state changes that need no grinder.
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { customOrders, type CustomOrderStatus } from "../../schema/db";
import type { Db } from "../db";
import { ApiError } from "../http/errors";
import type { OrderRow } from "./order-view";

export async function orderById(db: Db, id: number): Promise<OrderRow | undefined> {
  return db.select().from(customOrders).where(eq(customOrders.id, id)).get();
}

/** The order as its buyer or an admin may see it; 404 for anyone else (no hint that it exists). */
export async function orderForViewer(db: Db, id: number, viewer: { userId: number; isAdmin: boolean }): Promise<OrderRow> {
  const row = await orderById(db, id);
  if (!row || (row.buyerId !== viewer.userId && !viewer.isAdmin)) throw new ApiError(404, "Order not found");
  return row;
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
  const done = await db
    .update(customOrders)
    .set({ status: "cancelled", updatedAt: now })
    .where(and(eq(customOrders.id, id), eq(customOrders.buyerId, buyerId), inArray(customOrders.status, ["open", "grinding", "found"])))
    .returning({ id: customOrders.id })
    .get();
  const row = await orderById(db, id);
  if (!row || row.buyerId !== buyerId) throw new ApiError(404, "Order not found");
  if (!done) throw new ApiError(409, `This order is ${row.status} and can no longer be cancelled`);
  return row;
}

/** Found orders not paid by their deadline expire; their offset is never revealed. Idempotent, bounded. */
export async function expireUnpaidOrders(db: Db, now: number): Promise<number> {
  const rows = await db
    .update(customOrders)
    .set({ status: "expired", updatedAt: now })
    .where(
      and(
        eq(customOrders.status, "found"),
        lt(customOrders.paymentDeadline, now),
        inArray(customOrders.id, sql`(SELECT id FROM custom_orders WHERE status = 'found' AND payment_deadline < ${now} LIMIT 500)`),
      ),
    )
    .returning({ id: customOrders.id })
    .all();
  return rows.length;
}
