// The grinder's side of an order (admin only): claim it, report progress, submit the offset or give it back.
// A claim is a lease (docs/custom-orders.md#several-grinders): it names the grinder holding it and lapses
// GRINDER_LEASE_MS after the last report, when any grinder may take the order; the holder's own report renews
// it while nobody else has. Every state change is one conditional UPDATE, so two grinders (or a grinder and a
// cancelling buyer) cannot both win. The server never trusts a submitted offset: it recomputes f·(A + k·G) from
// the stored A and refuses a k whose address does not match the stored pattern.
import { and, eq, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { CUSTOM_ORDER_PAYMENT_HOURS, GRINDER_LEASE_MS, MAX_GRINDER_RATE } from "../../schema/custom-orders";
import { addressMatchesOrder, describeOrderPattern } from "../../schema/custom-order-pattern";
import { orderAddress, parseScalar, SplitKeyError } from "../../schema/split-key";
import { customOrders } from "../../schema/db";
import { type Db, writeBatch } from "../db/database";
import { ApiError } from "../http/errors";
import type { OrderRow } from "./order-view";
import { hiddenListingStatement } from "./order-listing";
import { orderById } from "./orders";
import { orderTo } from "../../schema/order-lifecycle";
import { orderCanMove, orderStatusIs } from "./status-sql";

const co = customOrders;

/** Who holds a claim: a grinder process (its id), or an admin session that took the order without one. */
export type ClaimHolder = { adminId: number; grinder?: string };
export const claimIdOf = (h: ClaimHolder) => h.grinder ?? `admin-${h.adminId}`;

/** Before its grind deadline (orders placed before the rule have none). */
const beforeGrindDeadline = (now: number) => or(isNull(co.grindDeadline), sql`${co.grindDeadline} > ${now}`)!;

/** Open, or grinding under a claim that has lapsed; and still before its deadline. */
const claimable = (now: number): SQL =>
  and(
    or(orderStatusIs(co.status, orderTo("place")), and(orderStatusIs(co.status, orderTo("claim")), lte(sql`coalesce(${co.claimExpiresAt}, 0)`, now))),
    beforeGrindDeadline(now),
  )!;

/** Held by this holder: grinding, its claim, its admin. */
const heldBy = (h: ClaimHolder) => and(orderCanMove(co.status, "submit"), eq(co.claimId, claimIdOf(h)), eq(co.takenBy, h.adminId))!;

/** The columns a new claim sets: the attempts of a lapsed claim move to attemptsBefore, so the order's total stays. */
const claimSet = (h: ClaimHolder, now: number) => ({
  status: orderTo("claim"),
  takenBy: h.adminId,
  takenAt: now,
  claimId: claimIdOf(h),
  claimExpiresAt: now + GRINDER_LEASE_MS,
  attemptsBefore: sql`${co.attemptsBefore} + coalesce(${co.progressAttempts}, 0)`,
  progressAttempts: 0,
  progressRate: null,
  progressAt: now,
  updatedAt: now,
});

/**
 * Claims the oldest claimable order for this holder, or answers null when none waits. One UPDATE picks and
 * claims together, so two grinders claiming at once always get different orders.
 */
export async function claimNext(db: Db, h: ClaimHolder, now: number): Promise<OrderRow | null> {
  // A grinder holds one order at a time: asking again (say its last answer was lost) gives it the same one.
  const held = await db.select().from(co).where(heldBy(h)).orderBy(co.createdAt, co.id).get();
  if (held) return held;
  const oldest = db.select({ id: co.id }).from(co).where(claimable(now)).orderBy(co.createdAt, co.id).limit(1);
  const claimed = await db
    .update(co)
    .set(claimSet(h, now))
    .where(and(eq(co.id, sql`(${oldest})`), claimable(now)))
    .returning()
    .get();
  return claimed ?? null;
}

/** Claims this order (open, or its claim lapsed); 409 otherwise. */
export async function takeOrder(db: Db, id: number, h: ClaimHolder, now: number): Promise<OrderRow> {
  const taken = await db
    .update(co)
    .set(claimSet(h, now))
    .where(and(eq(co.id, id), claimable(now)))
    .returning()
    .get();
  if (taken) return taken;
  const row = await orderById(db, id);
  if (!row) throw new ApiError(404, "Order not found");
  if (row.status === orderTo("claim")) throw new ApiError(409, `Order ${id} is claimed by a grinder that reported recently; it cannot be taken`);
  if (row.status === orderTo("place")) throw new ApiError(409, `Order ${id} is past its grinding deadline; it cannot be taken`);
  throw new ApiError(409, `Order ${id} is ${row.status}; it cannot be taken`);
}

/**
 * Records the holder's cumulative attempts for its claim and its rate, and renews the claim. Refused (400,
 * nothing changed) when the attempts go backwards or exceed what MAX_GRINDER_RATE allows since the claim
 * began; 409 when the order is not this holder's to grind.
 */
export async function recordProgress(db: Db, id: number, h: ClaimHolder, attempts: number, rate: number, now: number): Promise<void> {
  const believable = and(
    sql`${attempts} >= coalesce(${co.progressAttempts}, 0)`,
    // (ms since the claim + 1 s) × rate per ms: a report a moment after the claim may count a second's work.
    sql`${attempts} <= (${now} - ${co.takenAt} + 1000) * ${MAX_GRINDER_RATE / 1000}`,
  );
  const done = await db
    .update(co)
    .set({ progressAttempts: attempts, progressRate: rate, progressAt: now, claimExpiresAt: now + GRINDER_LEASE_MS, updatedAt: now })
    .where(and(eq(co.id, id), heldBy(h), believable))
    .returning({ id: co.id })
    .get();
  if (done) return;
  const row = await refuseUnlessHeld(db, id, h);
  if (attempts < (row.progressAttempts ?? 0))
    throw new ApiError(400, `attempts: ${attempts} is fewer than the ${row.progressAttempts} this claim reported before`);
  throw new ApiError(400, `attempts: ${attempts} in ${Math.max(0, (now - (row.takenAt ?? now)) / 1000).toFixed(0)} s is more than any grinder manages`);
}

/** The holder gives the order back to the queue at once (a grinder that stops cleanly); its attempts still count. */
export async function releaseOrder(db: Db, id: number, h: ClaimHolder, now: number): Promise<void> {
  const done = await db
    .update(co)
    .set({ status: orderTo("release"), claimId: null, claimExpiresAt: null, takenBy: null, updatedAt: now })
    .where(and(eq(co.id, id), heldBy(h)))
    .returning({ id: co.id })
    .get();
  if (!done) await refuseUnlessHeld(db, id, h);
}

/** The order, if this holder holds it; otherwise 404 (none) or 409 (someone else's, or no longer grinding). */
async function refuseUnlessHeld(db: Db, id: number, h: ClaimHolder): Promise<OrderRow> {
  const row = await orderById(db, id);
  if (!row) throw new ApiError(404, "Order not found");
  if (row.status === orderTo("claim") && row.claimId === claimIdOf(h) && row.takenBy === h.adminId) return row;
  throw new ApiError(409, `Order ${id} is ${row.status}${row.status === orderTo("claim") ? " under another grinder's claim" : ""}; claim it first`);
}

/**
 * Accepts (k, variant) only from the claim's holder, before the grind deadline, and only if the address of
 * f·(A + k·G) matches the order. The found order then waits for payment until its payment deadline through its
 * hidden listing; the address is unique across all orders and listings.
 */
export async function submitOffset(db: Db, id: number, h: ClaimHolder, offsetHex: string, variant: number, now: number): Promise<OrderRow> {
  const row = await refuseUnlessHeld(db, id, h);
  if (row.grindDeadline !== null && row.grindDeadline <= now) throw new ApiError(409, `Order ${id} is past its grinding deadline`);
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
          status: orderTo("submit"),
          foundAddress: address,
          foundOffset: offsetHex.toLowerCase(),
          foundVariant: variant,
          foundAt: now,
          paymentDeadline: deadline,
          claimExpiresAt: null,
          updatedAt: now,
        })
        .where(and(eq(co.id, id), heldBy(h), beforeGrindDeadline(now))),
      hiddenListingStatement(id, address, now),
    ]);
    if ((found.meta.changes ?? 0) === 0) {
      await refuseUnlessHeld(db, id, h);
      throw new ApiError(409, `Order ${id} is past its grinding deadline`);
    }
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if (String((e as Error).message).includes("UNIQUE")) throw new ApiError(409, `${address} already belongs to another order`);
    throw e;
  }
  return (await orderById(db, id))!;
}
