// The purchase work of the cron job: verify pending payments and expire unpaid reservations (finding payments the
// browser never reported is payment-scan.ts). Each step is bounded per run and idempotent; overlapping runs split the
// pending purchases between them through a short lease on each row, held only while that row is verified
// so the next run (a minute later) checks it again.
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { transactions } from "../../schema/db";
import { transitionTo } from "../../schema/purchase-lifecycle";
import type { Deployment } from "../deployment/deployment";
import type { Db } from "../db/database";
import { purchaseColumns, type PurchaseRow } from "./purchase-row";
import { statusIs, canMove } from "./status-sql";
import { type VerifyOutcome, verifyPayment } from "./verify";

/** Pending purchases one run verifies at most. */
export const VERIFY_PER_RUN = 25;
/** Longest a run may hold a pending purchase; a crashed run's rows are picked up again after it. A run
 * that finishes a row gives it back at once. */
export const LEASE_MS = 60_000;
/** Closed purchases stay in the scan (payment-scan.ts) this long, so a late or second payment is still listed for refund. */
export const LATE_PAYMENT_WINDOW_MS = 24 * 60 * 60_000;

const t = transactions;
/** `column IN` the ids, bound as one JSON parameter (D1 caps a statement's parameters at 100). */
const inJson = (column: typeof t.id, ids: string[]) => sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;

type Verify = (db: Db, deployment: Deployment, row: PurchaseRow, hash: string, now: number) => Promise<VerifyOutcome>;

export async function verifyPendingPayments(
  db: Db,
  deployment: Deployment,
  now = Date.now(),
  verify: Verify = verifyPayment,
): Promise<{ verified: number; settled: number }> {
  const lease = now + LEASE_MS;
  // Claiming and reading in one statement: a concurrent run's claim excludes these rows and vice versa.
  const claimable = db
    .select({ id: t.id })
    .from(t)
    .where(and(statusIs(t.status, "pending"), isNotNull(t.txHash), or(isNull(t.leaseUntil), lt(t.leaseUntil, now))))
    .orderBy(t.updatedAt)
    .limit(VERIFY_PER_RUN);
  const claimed: PurchaseRow[] = await db.update(t).set({ leaseUntil: lease }).where(inArray(t.id, claimable)).returning(purchaseColumns);
  let settled = 0;
  // Only our own lease is given back: if this run outlived it, another run may hold the row now.
  const release = (ids: string[]) =>
    db
      .update(t)
      .set({ leaseUntil: null })
      .where(and(eq(t.leaseUntil, lease), inJson(t.id, ids)));
  let done = 0;
  try {
    for (const row of claimed) {
      const outcome = await verify(db, deployment, row, row.txHash!, now);
      if (outcome.decision.outcome === "settle") settled++;
      await release([row.id]);
      done++;
    }
  } finally {
    // A verification that threw leaves the rest of the claim unverified: give it back for the next run.
    if (done < claimed.length) await release(claimed.slice(done).map((r) => r.id));
  }
  return { verified: claimed.length, settled };
}

/** Unpaid reservations past their 15 minutes: expired, which frees the listing. */
export async function expireReservations(db: Db, now = Date.now()): Promise<number> {
  const result = await db
    .update(t)
    .set({ status: transitionTo("expire"), failureReason: "expired", updatedAt: now })
    .where(and(canMove(t.status, "expire"), lt(t.expiresAt, now)));
  return result.meta.changes ?? 0;
}
