// An admin closes a stuck purchase with a note (docs/payments.md#deadlines): an open, unpaid purchase
// (initiated or pending) fails as `admin-closed` in one D1 batch with its audit row (the note, who, from where),
// which frees the listing (one open purchase per listing is the only hold). A paid purchase is never closed. The
// reported payment, if any, is checked once at once: a final transfer from the buyer is listed for refund now;
// otherwise the scan (24-hour window) and the reconciliation list it if it arrives, as any late payment.
import type { Deployment } from "../deployment/deployment";
import { and, eq, sql } from "drizzle-orm";
import { escrowTransactions, transactions } from "../../schema/db";
import { transitionTo } from "../../schema/purchase-lifecycle";
import type { ClosedPayment } from "../../schema/admin-payments";
import { auditRow } from "../db/audit";
import type { AuthSession } from "../auth/middleware";
import { type Db, writeBatch } from "../db/database";
import { ApiError } from "../http/errors";
import type { RequestInfo } from "../http/request-info";
import { paymentReadiness } from "../deployment/payment-readiness";
import { findPurchase } from "./purchase-row";
import { canMove } from "./status-sql";
import { verifyPayment } from "./verify";
import { ledgerTo } from "../../schema/ledger-lifecycle";
import { ledgerIn } from "./ledger-sql";

const t = transactions;
const e = escrowTransactions;

export async function closePurchase(db: Db, deployment: Deployment, session: AuthSession, id: string, note: string, info: RequestInfo): Promise<ClosedPayment> {
  const now = Date.now();
  const open = and(eq(t.id, id), canMove(t.status, "admin-close"));
  const [, closed] = await writeBatch(db, [
    // The audit row first, of the row about to close: it exists exactly when the close does.
    auditRow(
      {
        transactionId: t.id,
        addressId: t.addressId,
        action: "purchase_closed",
        performedBy: session.walletAddress,
        metadata: sql`json_object('note', ${note}, 'from', ${t.status}, 'txHash', ${t.txHash})`,
        request: info,
        timestamp: now,
      },
      { from: t, where: open! },
    ),
    db
      .update(t)
      .set({ status: transitionTo("admin-close"), failureReason: "admin-closed", confirmations: 0, paymentBlock: null, leaseUntil: null, updatedAt: now })
      .where(open),
  ]);
  if (((closed as D1Result).meta.changes ?? 0) === 0) {
    const row = await findPurchase(db, id);
    if (!row) throw new ApiError(404, "Transaction not found");
    throw new ApiError(409, `This purchase is ${row.status}; only an unpaid purchase (awaiting or confirming a payment) can be closed`);
  }
  const row = (await findPurchase(db, id))!;
  if (row.txHash === null) return "none";
  // On unsafe payment settings the chain proves nothing: the payment is left to the scan and the reconciliation.
  if ((await paymentReadiness(deployment, now)).ok) {
    try {
      await verifyPayment(db, deployment, row, row.txHash, now);
    } catch (err) {
      console.warn(`closing purchase ${id}: its payment could not be checked now:`, err instanceof Error ? err.message : String(err));
    }
  }
  const listed = await db
    .select({ id: e.id })
    .from(e)
    .where(and(eq(e.network, row.network), eq(e.txHash, row.txHash), ledgerIn(e.status, [ledgerTo("refuse")])))
    .get();
  return listed ? "listed" : "watching";
}
