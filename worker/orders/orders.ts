// Reading orders, and the buyer's and the cron job's state changes that need no grinder.
import { and, desc, eq, gte, inArray, isNotNull, lt, lte, not, or, sql } from "drizzle-orm";
import { addresses, customOrders, type CustomOrderStatus, transactions } from "../../schema/db";
import { OPEN, PAYMENT_RECORDED } from "../../schema/purchase-lifecycle";
import { statusIn, statusIs } from "../purchases/status-sql";
import { type Db, writeBatch } from "../db/database";
import { ApiError } from "../http/errors";
import type { CustomOrderView, OrderPayment } from "../../schema/custom-orders";
import { forgetOldGrinders, grindersSeen } from "./grinders";
import { listingOfOrder } from "./order-listing";
import { type OrderRow, toBuyerView } from "./order-view";
import { ORDER_WAITING, ORDER_WITHDRAWN, orderTo } from "../../schema/order-lifecycle";
import { orderCanMove, orderStatusIn } from "./status-sql";
import { listingTo } from "../../schema/listing-lifecycle";
import { listingCanMove } from "../listings/status-sql";

const co = customOrders;

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
  const foundAddresses = rows.flatMap((r) => (r.foundAddress === null ? [] : [r.foundAddress]));
  const payments = new Map<string, OrderPayment>();
  if (foundAddresses.length > 0) {
    const a = addresses;
    const t = transactions;
    const found = await db
      .select({ address: a.address, id: t.id, status: t.status })
      .from(a)
      .innerJoin(t, eq(t.addressId, a.id))
      .where(
        and(
          sql`${a.address} IN (SELECT value FROM json_each(${JSON.stringify(foundAddresses)}))`,
          or(statusIn(t.status, PAYMENT_RECORDED), and(statusIs(t.status, "initiated"), gte(t.expiresAt, now))),
        ),
      )
      .orderBy(desc(t.createdAt), desc(t.id));
    for (const p of found) if (!payments.has(p.address)) payments.set(p.address, { transactionId: p.id, status: p.status as OrderPayment["status"] });
  }
  const grinders = await grindersSeen(db, now);
  const ahead = new Map<number, number>();
  // A wallet has at most MAX_UNFINISHED_ORDERS open orders, so this is a few counts on the status index.
  for (const r of rows.filter((o) => o.status === orderTo("place"))) ahead.set(r.id, await ordersAhead(db, r));
  return rows.map((r) =>
    toBuyerView(r, r.foundAddress === null ? null : (payments.get(r.foundAddress) ?? null), { grinders, queueAhead: ahead.get(r.id) ?? 0 }),
  );
}

/** Orders placed before this one that are still waiting or being ground: the grinders serve the oldest first. */
async function ordersAhead(db: Db, row: OrderRow): Promise<number> {
  const older = or(lt(co.createdAt, row.createdAt), and(eq(co.createdAt, row.createdAt), lt(co.id, row.id)));
  const r = await db
    .select({ n: sql<number>`count(*)` })
    .from(co)
    .where(and(orderStatusIn(co.status, ORDER_WAITING), older))
    .get();
  return r?.n ?? 0;
}

/** A buyer's orders, newest first (bounded: a wallet has few). */
export async function ordersOfBuyer(db: Db, buyerId: number): Promise<OrderRow[]> {
  return db.select().from(customOrders).where(eq(customOrders.buyerId, buyerId)).orderBy(desc(customOrders.createdAt), desc(customOrders.id)).limit(200).all();
}

/** "waiting" = open and grinding (what a grinder looks at), oldest first; otherwise one status or all, newest first. */
export async function orderQueue(db: Db, filter: "waiting" | "all" | CustomOrderStatus): Promise<OrderRow[]> {
  const q = db.select().from(customOrders);
  if (filter === "waiting") {
    return q.where(orderStatusIn(customOrders.status, ORDER_WAITING)).orderBy(customOrders.createdAt, customOrders.id).limit(500).all();
  }
  const filtered = filter === "all" ? q : q.where(eq(customOrders.status, filter));
  return filtered.orderBy(desc(customOrders.createdAt), desc(customOrders.id)).limit(500).all();
}

/** The buyer withdraws an order nobody has paid for; a found address is then never offered to anyone. */
export async function cancelOrder(db: Db, id: number, buyerId: number, now: number): Promise<OrderRow> {
  const [cancelled] = await writeBatch(db, [
    db
      .update(co)
      .set({ status: orderTo("cancel"), updatedAt: now })
      .where(and(eq(co.id, id), eq(co.buyerId, buyerId), orderCanMove(co.status, "cancel"), not(paymentInProgress))),
    retireOrderListings(db, now),
  ]);
  const row = await orderById(db, id);
  if (!row || row.buyerId !== buyerId) throw new ApiError(404, "Order not found");
  if ((cancelled.meta.changes ?? 0) === 0) {
    throw new ApiError(
      409,
      row.status === orderTo("submit")
        ? "A payment for this order is in progress; it can no longer be cancelled"
        : `This order is ${row.status} and can no longer be cancelled`,
    );
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
    db
      .update(co)
      .set({ status: orderTo("expire-unpaid"), updatedAt: now })
      .where(
        inArray(
          co.id,
          db
            .select({ id: co.id })
            .from(co)
            .where(and(orderCanMove(co.status, "expire-unpaid"), lt(co.paymentDeadline, now), not(paymentInProgress)))
            .limit(500),
        ),
      ),
    retireOrderListings(db, now),
  ]);
  return expired.meta.changes ?? 0;
}

/** The cron job's order work: found orders unpaid by their payment deadline, orders unfound by their grind deadline. */
export async function expireOverdueOrders(db: Db, now: number): Promise<number> {
  const unpaid = await expireUnpaidOrders(db, now);
  const unfound = await expireUnfoundOrders(db, now);
  await forgetOldGrinders(db, now);
  return unpaid + unfound;
}

/**
 * Orders not found by their grind deadline expire unfilled: nobody paid anything (payment comes after the
 * address is found), and the buyer's slot is free again. An order whose grinder is submitting at this moment
 * loses: submitOffset refuses past the deadline. Idempotent, bounded.
 */
export async function expireUnfoundOrders(db: Db, now: number): Promise<number> {
  const res = await db
    .update(co)
    .set({ status: orderTo("expire-unfound"), claimId: null, claimExpiresAt: null, updatedAt: now })
    .where(
      inArray(
        co.id,
        db
          .select({ id: co.id })
          .from(co)
          .where(and(orderCanMove(co.status, "expire-unfound"), lte(co.grindDeadline, now)))
          .limit(500),
      ),
    )
    .run();
  return res.meta.changes ?? 0;
}

/** In SQL on custom_orders: the order's listing has an open purchase (reserved, paid and confirming, or verified). */
const paymentInProgress = sql`EXISTS (SELECT 1 FROM ${transactions} WHERE ${transactions.addressId} = ${listingOfOrder} AND ${statusIn(transactions.status, OPEN)})`;

/** Takes the listings of expired and cancelled orders off the market (they were never listed; now nobody can reserve them). */
const retireOrderListings = (db: Db, now: number) =>
  db
    .update(addresses)
    .set({ status: listingTo("retire-order"), updatedAt: now })
    .where(
      and(
        listingCanMove(addresses.status, "retire-order"),
        inArray(
          addresses.address,
          db
            .select({ address: co.foundAddress })
            .from(co)
            .where(and(orderStatusIn(co.status, ORDER_WITHDRAWN), isNotNull(co.foundAddress))),
        ),
      ),
    );
