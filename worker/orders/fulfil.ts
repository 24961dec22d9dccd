// The grinder's side of an order (admin only): take it, report progress, submit the offset. The server
// never trusts a submitted offset: it recomputes f·(A + k·G) from the stored A and refuses a k whose
// address does not match the stored pattern. Every state change is one conditional UPDATE, so two
// grinders (or a grinder and a cancelling buyer) cannot both win.
import { CUSTOM_ORDER_PAYMENT_HOURS, GRINDER_STALE_MS } from "../../schema/custom-orders";
import { addressMatchesOrder, describeOrderPattern } from "../../schema/custom-order-pattern";
import { orderAddress, parseScalar, SplitKeyError } from "../../schema/split-key";
import { and, eq, lt, or, sql } from "drizzle-orm";
import { customOrders } from "../../schema/db";
import { type Db, writeBatch } from "../db";
import { ApiError } from "../http/errors";
import type { OrderRow } from "./order-view";
import { hiddenListingStatement } from "./order-listing";
import { orderById } from "./orders";

const co = customOrders;

/** Claims an open order, or a grinding one whose grinder has gone quiet; 409 otherwise. */
export async function takeOrder(db: Db, id: number, adminId: number, now: number): Promise<OrderRow> {
  const taken = await db
    .update(co)
    .set({ status: "grinding", takenBy: adminId, takenAt: now, progressAttempts: null, progressRate: null, progressAt: now, updatedAt: now })
    .where(
      and(eq(co.id, id), or(eq(co.status, "open"), and(eq(co.status, "grinding"), lt(sql`coalesce(${co.progressAt}, ${co.takenAt})`, now - GRINDER_STALE_MS)))),
    )
    .returning({ id: co.id })
    .get();
  const row = await orderById(db, id);
  if (!row) throw new ApiError(404, "Order not found");
  if (!taken)
    throw new ApiError(409, `Order ${id} is ${row.status}${row.status === "grinding" ? " by a grinder that reported recently" : ""}; it cannot be taken`);
  return row;
}

/** Records the taking grinder's cumulative attempts and rate; 409 if the order is no longer its to grind. */
export async function recordProgress(db: Db, id: number, adminId: number, attempts: number, rate: number, now: number): Promise<void> {
  const done = await db
    .update(co)
    .set({ progressAttempts: attempts, progressRate: rate, progressAt: now, updatedAt: now })
    .where(and(eq(co.id, id), eq(co.status, "grinding"), eq(co.takenBy, adminId)))
    .returning({ id: co.id })
    .get();
  if (!done) await refuseNotGrinding(db, id);
}

async function refuseNotGrinding(db: Db, id: number): Promise<never> {
  const row = await orderById(db, id);
  if (!row) throw new ApiError(404, "Order not found");
  throw new ApiError(409, `Order ${id} is ${row.status}${row.status === "grinding" ? " by another grinder" : ""}; take it first`);
}

/**
 * Accepts (k, variant) only if the address of f·(A + k·G) matches the order. The found order then waits for
 * payment until its deadline through its hidden listing; the address is unique across all orders and listings.
 */
export async function submitOffset(db: Db, id: number, adminId: number, offsetHex: string, variant: number, now: number): Promise<OrderRow> {
  const row = await orderById(db, id);
  if (!row) throw new ApiError(404, "Order not found");
  if (row.status !== "grinding" || row.takenBy !== adminId) await refuseNotGrinding(db, id);
  let address: string;
  try {
    address = orderAddress(row.publicKey, parseScalar(offsetHex, "offset"), variant);
  } catch (e) {
    if (e instanceof SplitKeyError) throw new ApiError(400, `offset: ${e.message}`);
    throw e;
  }
  if (!addressMatchesOrder(row, address)) {
    throw new ApiError(
      400,
      `offset: this offset gives ${address}, which does not match ${describeOrderPattern(row)}${row.caseSensitive ? " (case-sensitive)" : ""}`,
    );
  }
  const deadline = now + CUSTOM_ORDER_PAYMENT_HOURS * 3600_000;
  try {
    // One batch: the order becomes found and, conditional on that, gets its hidden listing (order-listing.ts).
    const [found] = await writeBatch(db, [
      db
        .update(co)
        .set({
          status: "found",
          foundAddress: address,
          foundOffset: offsetHex.toLowerCase(),
          foundVariant: variant,
          foundAt: now,
          paymentDeadline: deadline,
          updatedAt: now,
        })
        .where(and(eq(co.id, id), eq(co.status, "grinding"), eq(co.takenBy, adminId))),
      hiddenListingStatement(id, address, now),
    ]);
    if ((found.meta.changes ?? 0) === 0) await refuseNotGrinding(db, id);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if (String((e as Error).message).includes("UNIQUE")) throw new ApiError(409, `${address} already belongs to another order`);
    throw e;
  }
  return (await orderById(db, id))!;
}
