// The grinders that fill orders, as the server sees them (table order_grinders): each running grinder names
// itself with a random id, and every claim and progress report refreshes its row. From these rows the order page
// says whether a grinder is at work and how fast, and the admin queue lists them. docs/custom-orders.md#several-grinders
import { and, count, desc, eq, gt, inArray, lt, max, or, sql } from "drizzle-orm";
import { GRINDER_LEASE_MS, type GrinderRow, type GrindersSeen } from "../../schema/custom-orders";
import { customOrders, orderGrinders, users } from "../../schema/db";
import { type GrinderHealth, type GrinderState, grinderName } from "../../schema/health";
import type { Db } from "../db/database";
import { ApiError } from "../http/errors";
import { orderTo } from "../../schema/order-lifecycle";
import { orderStatusIs } from "./status-sql";

const g = orderGrinders;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Grinders not seen for this long are history: their rows are deleted by the cron job. */
export const GRINDER_FORGET_MS = 30 * 24 * 3600_000;

/**
 * Records that grinder `id` of admin `adminId` is alive (now grinding `orderId`, or idle). An id is bound to the
 * admin who first used it: another admin's call with it is refused (409) and changes nothing.
 */
export async function heartbeat(db: Db, grinder: { id: string; label?: string }, adminId: number, orderId: number | null, now: number): Promise<void> {
  const row = await db
    .insert(g)
    .values({ id: grinder.id, adminId, label: grinder.label ?? "grinder", orderId, startedAt: now, lastSeenAt: now })
    .onConflictDoUpdate({
      target: g.id,
      set: { lastSeenAt: now, orderId, ...(grinder.label === undefined ? {} : { label: grinder.label }) },
      setWhere: eq(g.adminId, adminId),
    })
    .returning({ id: g.id })
    .get();
  if (!row) throw new ApiError(409, "grinder: this id belongs to another admin's grinder; each grinder process makes its own");
}

/** After an accepted progress report: the grinder's rate and order. Only its own admin's row (the claim checked the rest). */
export async function recordGrinderRate(db: Db, id: string, adminId: number, orderId: number, rate: number, now: number): Promise<void> {
  await db
    .update(g)
    .set({ rate, orderId, lastSeenAt: now })
    .where(and(eq(g.id, id), eq(g.adminId, adminId)));
}

/** The grinder is no longer on this order (found, released, or lost to another). */
export async function grinderIdle(db: Db, id: string, adminId: number, now: number): Promise<void> {
  await db
    .update(g)
    .set({ orderId: null, lastSeenAt: now })
    .where(and(eq(g.id, id), eq(g.adminId, adminId)));
}

export async function grindersSeen(db: Db, now: number): Promise<GrindersSeen> {
  const online = gt(g.lastSeenAt, now - GRINDER_LEASE_MS);
  const [last, live] = await Promise.all([
    db
      .select({ at: max(g.lastSeenAt) })
      .from(g)
      .get(),
    db
      .select({ n: count(), fastest: max(g.rate) })
      .from(g)
      .where(online)
      .get(),
  ]);
  return { online: live?.n ?? 0, lastReportAt: iso(last?.at ?? null), fastestRate: live?.fastest ?? null };
}

/** The admin queue's list: every grinder seen in the last day, newest first (bounded). */
export async function grinderRows(db: Db, now: number): Promise<GrinderRow[]> {
  const rows = await db
    .select()
    .from(g)
    .where(gt(g.lastSeenAt, now - 24 * 3600_000))
    .orderBy(desc(g.lastSeenAt))
    .limit(100);
  return rows.map((r) => ({
    id: r.id,
    label: r.label,
    rate: r.rate,
    orderId: r.orderId,
    startedAt: iso(r.startedAt)!,
    lastSeenAt: iso(r.lastSeenAt)!,
    online: r.lastSeenAt > now - GRINDER_LEASE_MS,
  }));
}

/** Deletes grinders unseen for GRINDER_FORGET_MS (bounded per run). */
export async function forgetOldGrinders(db: Db, now: number): Promise<number> {
  const res = await db.run(sql`DELETE FROM ${g} WHERE ${g.id} IN (SELECT ${g.id} FROM ${g} WHERE ${lt(g.lastSeenAt, now - GRINDER_FORGET_MS)} LIMIT 500)`);
  return res.meta.changes ?? 0;
}

/** Grinders Admin > Health lists at most (the newest seen first). */
const HEALTH_GRINDERS = 50;

/**
 * Admin > Health's grinders (docs/operations.md#health): those seen in the last day and those still holding a claim
 * however long ago they were seen, each with its name in words, its admin's wallet, its state, its rate and the
 * orders it holds. A grinder silent past the lease while holding an order is "silent": the order waits for its claim
 * to lapse.
 */
export async function grinderHealth(db: Db, now: number): Promise<GrinderHealth[]> {
  const holders = db
    .select({ id: customOrders.claimId })
    .from(customOrders)
    .where(orderStatusIs(customOrders.status, orderTo("claim")));
  const rows = await db
    .select({ grinder: g, adminWallet: users.walletAddress })
    .from(g)
    .leftJoin(users, eq(users.id, g.adminId))
    .where(or(gt(g.lastSeenAt, now - 24 * 3600_000), inArray(g.id, holders)))
    .orderBy(desc(g.lastSeenAt))
    .limit(HEALTH_GRINDERS);
  const ids = rows.map((r) => r.grinder.id);
  const held =
    ids.length === 0
      ? []
      : await db
          .select({
            claimId: customOrders.claimId,
            orderId: customOrders.id,
            prefix: customOrders.prefix,
            suffix: customOrders.suffix,
            claimExpiresAt: customOrders.claimExpiresAt,
            attempts: customOrders.progressAttempts,
          })
          .from(customOrders)
          .where(and(orderStatusIs(customOrders.status, orderTo("claim")), inArray(customOrders.claimId, ids)))
          .orderBy(customOrders.id);
  return rows.map(({ grinder: r, adminWallet }) => {
    const holds = held
      .filter((o) => o.claimId === r.id)
      .map((o) => ({ orderId: o.orderId, prefix: o.prefix, suffix: o.suffix, claimExpiresAt: iso(o.claimExpiresAt), attempts: o.attempts }));
    const seen = r.lastSeenAt > now - GRINDER_LEASE_MS;
    const state: GrinderState = seen ? (holds.length > 0 ? "working" : "idle") : holds.length > 0 ? "silent" : "gone";
    return {
      id: r.id,
      name: grinderName(r.id),
      label: r.label,
      adminWallet,
      state,
      startedAt: iso(r.startedAt)!,
      lastSeenAt: iso(r.lastSeenAt)!,
      rate: r.rate,
      holds,
    };
  });
}
