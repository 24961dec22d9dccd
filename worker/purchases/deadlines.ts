// The clock's own exit for a purchase waiting on a payment (docs/payments.md#deadlines): a pending purchase past
// its last deadline (expiry + the missing-payment grace + the node-outage grace) fails as `unverified`, whatever the
// node says or does not say, and even while payments are not checked at all (unsafe settings). The payment
// decision reaches the same end when it runs; this sweep is what holds when it cannot (a node that never answers
// a whole hour, a settle the database keeps refusing). A payment that arrives afterwards is a late one: the scan
// (24-hour window) or the reconciliation lists it for refund.
import { and, inArray, sql } from "drizzle-orm";
import { transactions } from "../../schema/db";
import { transitionTo } from "../../schema/purchase-lifecycle";
import { auditRow } from "../db/audit";
import { type Db, writeBatch } from "../db/database";
import { lastDeadline } from "../domain/payment-decision";
import { canMove } from "./status-sql";

/** Purchases one run closes at most; the rest go in the next run. */
export const OVERDUE_PER_RUN = 200;

const t = transactions;

/** Closes pending purchases past their last deadline; answers how many. */
export async function closeOverduePurchases(db: Db, now = Date.now()): Promise<number> {
  // expires_at < now - grace  <=>  lastDeadline(expires_at) < now.
  const graceMs = lastDeadline(0);
  const overdue = db
    .select({ id: t.id })
    .from(t)
    .where(and(canMove(t.status, "close-overdue"), sql`${t.expiresAt} < ${now - graceMs}`))
    // Ordered, so both statements of the batch pick the same rows.
    .orderBy(t.expiresAt, t.id)
    .limit(OVERDUE_PER_RUN);
  const [, closed] = await writeBatch(db, [
    // First the audit rows of the rows about to close, in the same batch: the rows exist exactly when the change does.
    auditRow(
      {
        transactionId: t.id,
        addressId: t.addressId,
        action: "closed_overdue",
        performedBy: "payment-deadline",
        metadata: sql`json_object('txHash', ${t.txHash}, 'expiresAt', ${t.expiresAt}, 'confirmations', ${t.confirmations})`,
        timestamp: now,
      },
      { from: t, where: inArray(t.id, overdue) },
    ),
    db
      .update(t)
      .set({ status: transitionTo("close-overdue"), failureReason: "unverified", confirmations: 0, paymentBlock: null, leaseUntil: null, updatedAt: now })
      .where(and(inArray(t.id, overdue), canMove(t.status, "close-overdue"))),
  ]);
  return (closed as D1Result).meta.changes ?? 0;
}
