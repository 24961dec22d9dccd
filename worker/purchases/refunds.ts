// Admin > Payments as services (the route only validates and answers): the refunds due, marking one refunded
// after the payment is re-checked on the chain (a refund recorded on an admin's word alone could be a typo) or dismissing it with a note, and the reconciliation's
// differences, their resolution and how far behind the chain it is. Every admin action writes its audit row in the
// same batch as the change.
import { and, desc, eq, sql } from "drizzle-orm";
import { escrowTransactions, paymentAttention, reconcileCursors } from "../../schema/db";
import type { AttentionPayment, PaymentDifference, ReconciliationProgress } from "../../schema/admin-payments";
import { auditRow } from "../db/audit";
import type { AuthSession } from "../auth/middleware";
import { paymentVerifier } from "../chain/payment-verifier";
import type { Deployment } from "../deployment/deployment";
import { recordDisagreements } from "../operations/node-disagreements";
import { type Db, writeBatch } from "../db/database";
import { refundRecheck } from "../domain/reconciliation";
import { ApiError } from "../http/errors";
import { reconciliationLag } from "../operations/reconciliation-lag";
import type { RequestInfo } from "../http/request-info";
import { inLedgerSet, REFUND_OWED, refundTo } from "../../schema/ledger-lifecycle";
import { refundCanMove, refundIn } from "./ledger-sql";
import { currencyOf } from "../../schema/network";

/** Rows one list shows at most. */
export const ATTENTION_LIMIT = 200;

const e = escrowTransactions;
const pa = paymentAttention;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const escrowColumns = {
  id: e.id,
  transactionId: e.transactionId,
  network: e.network,
  amount: e.amount,
  currency: e.currency,
  amountBaseUnits: e.amountBaseUnits,
  expectedBaseUnits: e.expectedBaseUnits,
  refundBaseUnits: e.refundBaseUnits,
  senderAddress: e.senderAddress,
  txHash: e.txHash,
  attentionReason: e.attentionReason,
  status: e.status,
  refundStatus: e.refundStatus,
  createdAt: e.createdAt,
  checkFailure: e.checkFailure,
  checkedAt: e.checkedAt,
};

/** Received payments that must go back, newest first. */
export async function refundsDue(db: Db, deployment: Deployment): Promise<AttentionPayment[]> {
  const rows = await db.select(escrowColumns).from(e).where(refundIn(e.refundStatus, REFUND_OWED)).orderBy(desc(e.createdAt)).limit(ATTENTION_LIMIT);
  return rows.map((r): AttentionPayment => {
    // Amounts and explorer links only: nothing is decided here.
    const verifier = paymentVerifier(deployment, r.network, null);
    return {
      id: r.id,
      transactionId: r.transactionId,
      network: r.network,
      amount: r.amount,
      currency: r.currency,
      expectedAmount: r.expectedBaseUnits === null ? null : verifier.formatAmount(BigInt(r.expectedBaseUnits)),
      amountBaseUnits: r.amountBaseUnits ?? "0",
      expectedBaseUnits: r.expectedBaseUnits,
      refundBaseUnits: r.refundBaseUnits ?? r.amountBaseUnits ?? "0",
      senderAddress: r.senderAddress,
      txHash: r.txHash,
      reason: r.attentionReason ?? "failed",
      status: r.status,
      createdAt: new Date(r.createdAt).toISOString(),
      explorerUrl: r.txHash ? verifier.explorerUrl(r.txHash) : null,
      checkFailure: r.checkFailure,
      checkedAt: iso(r.checkedAt),
    };
  });
}

/**
 * Marks a refund done with the refund's hash, once the payment is confirmed on the chain as it was recorded (still
 * there, at depth, succeeded, from the recorded sender to the platform, for the recorded amount). A re-check that
 * fails is kept on the row (check_failure) and refused. The ledger status stays what it was (refund, or released
 * for an overpayment's excess): only the refund is done; a difference that listed this payment is resolved too.
 */
export async function markRefunded(db: Db, deployment: Deployment, session: AuthSession, id: string, refundTxHash: string, info: RequestInfo): Promise<void> {
  const row = await db.select(escrowColumns).from(e).where(eq(e.id, id)).get();
  if (!row) throw new ApiError(404, "Payment not found");
  if (!inLedgerSet(REFUND_OWED, row.refundStatus)) throw new ApiError(409, "This payment does not need a refund (already refunded or settled)");
  // The money must really be there before anyone records that it went back.
  const verifier = paymentVerifier(deployment, row.network, recordDisagreements(db));
  const seen = row.txHash ? await verifier.received(row.txHash) : ({ kind: "missing" } as const);
  const failure = refundRecheck(row.network, { sender: row.senderAddress, amount: BigInt(row.amountBaseUnits ?? "0") }, seen, verifier.requiredConfirmations);
  const now = Date.now();
  if (failure) {
    await db.update(e).set({ checkFailure: failure, checkedAt: now }).where(eq(e.id, id));
    throw new ApiError(seen.kind === "unavailable" ? 503 : 409, `Not marked refunded: ${failure}`);
  }
  const [updated] = await writeBatch(db, [
    db
      .update(e)
      .set({ refundStatus: refundTo("mark-refunded"), releaseTxHash: refundTxHash, releaseTime: now, checkFailure: null, checkedAt: now })
      .where(and(eq(e.id, id), refundCanMove(e.refundStatus, "mark-refunded"))),
    auditRow(
      {
        transactionId: e.transactionId,
        action: "refund_marked",
        performedBy: session.walletAddress,
        metadata: sql`json_object('escrowId', ${e.id}, 'refundTxHash', ${refundTxHash})`,
        request: info,
        timestamp: now,
      },
      { from: e, where: and(eq(e.id, id), eq(e.releaseTime, now), refundIn(e.refundStatus, [refundTo("mark-refunded")]))! },
    ),
    db
      .update(pa)
      .set({ status: "resolved", resolvedAt: now, resolvedBy: session.walletAddress, resolutionNote: `Refunded in ${refundTxHash}` })
      .where(and(eq(pa.escrowId, id), eq(pa.status, "open"), sql`EXISTS (SELECT 1 FROM ${e} WHERE ${e.id} = ${id} AND ${e.releaseTime} = ${now})`)),
  ]);
  if ((updated.meta.changes ?? 0) === 0) throw new ApiError(409, "This payment does not need a refund (already refunded or settled)");
}

/**
 * Closes a payment listed for refund without sending one (the sender is unreachable, it was the platform's own
 * transfer, it is dust under an older threshold): refund_status `dismissed` with the admin's note, audited
 * (`refund_dismissed`), and a difference that listed the payment resolved with the same note. 404 for no such
 * payment, 409 when it does not need a refund (any more).
 */
export async function dismissRefund(db: Db, session: AuthSession, id: string, note: string, info: RequestInfo): Promise<void> {
  const now = Date.now();
  const [updated] = await writeBatch(db, [
    db
      .update(e)
      .set({ refundStatus: refundTo("dismiss"), resolutionNote: note, resolvedBy: session.walletAddress, releaseTime: now })
      .where(and(eq(e.id, id), refundCanMove(e.refundStatus, "dismiss"))),
    auditRow(
      {
        transactionId: e.transactionId,
        action: "refund_dismissed",
        performedBy: session.walletAddress,
        metadata: sql`json_object('escrowId', ${e.id}, 'amountBaseUnits', ${e.amountBaseUnits}, 'txHash', ${e.txHash}, 'note', ${note})`,
        request: info,
        timestamp: now,
      },
      { from: e, where: and(eq(e.id, id), eq(e.releaseTime, now), refundIn(e.refundStatus, [refundTo("dismiss")]))! },
    ),
    db
      .update(pa)
      .set({ status: "resolved", resolvedAt: now, resolvedBy: session.walletAddress, resolutionNote: `Refund dismissed: ${note}` })
      .where(and(eq(pa.escrowId, id), eq(pa.status, "open"), sql`EXISTS (SELECT 1 FROM ${e} WHERE ${e.id} = ${id} AND ${e.releaseTime} = ${now})`)),
  ]);
  if ((updated.meta.changes ?? 0) === 0) {
    const exists = await db.select({ id: e.id }).from(e).where(eq(e.id, id)).get();
    throw exists ? new ApiError(409, "This payment does not need a refund (already refunded, dismissed or settled)") : new ApiError(404, "Payment not found");
  }
}

/** The reconciliation's open differences, newest first, and how far it has read each network. */
export async function openDifferences(
  db: Db,
  deployment: Deployment,
  env: Partial<Pick<Env, "RECONCILE_LAG_ALERT_MINUTES">>,
  now = Date.now(),
): Promise<{ differences: PaymentDifference[]; reconciliation: ReconciliationProgress[] }> {
  const rc = reconcileCursors;
  const [rows, cursors, lag] = await Promise.all([
    db
      .select({
        id: pa.id,
        network: pa.network,
        kind: pa.kind,
        txHash: pa.txHash,
        fromBlock: pa.fromBlock,
        toBlock: pa.toBlock,
        amountBaseUnits: pa.amountBaseUnits,
        senderAddress: pa.senderAddress,
        transactionId: pa.transactionId,
        escrowId: pa.escrowId,
        detail: pa.detail,
        status: pa.status,
        createdAt: pa.createdAt,
        resolvedAt: pa.resolvedAt,
        resolvedBy: pa.resolvedBy,
        resolutionNote: pa.resolutionNote,
      })
      .from(pa)
      .where(eq(pa.status, "open"))
      .orderBy(desc(pa.createdAt))
      .limit(ATTENTION_LIMIT),
    db.select({ network: rc.network, nextBlock: rc.nextBlock, lastSignature: rc.lastSignature, updatedAt: rc.updatedAt }).from(rc),
    reconciliationLag(db, env, now),
  ]);
  const differences = rows.map((r): PaymentDifference => {
    // Amounts and explorer links only.
    const verifier = paymentVerifier(deployment, r.network, null);
    return {
      ...r,
      amount: r.amountBaseUnits === null ? null : verifier.formatAmount(BigInt(r.amountBaseUnits)),
      currency: currencyOf(r.network),
      createdAt: new Date(r.createdAt).toISOString(),
      resolvedAt: iso(r.resolvedAt),
      explorerUrl: r.txHash ? verifier.explorerUrl(r.txHash) : null,
    };
  });
  const reconciliation = (["ethereum", "solana"] as const).map((network): ReconciliationProgress => {
    const cursor = cursors.find((k) => k.network === network);
    const through = !cursor
      ? null
      : network === "ethereum"
        ? cursor.nextBlock === null
          ? null
          : `block ${cursor.nextBlock - 1}`
        : cursor.lastSignature || null;
    const l = lag.find((x) => x.network === network);
    return {
      network,
      through,
      updatedAt: iso(cursor?.updatedAt ?? null),
      blocksBehind: l?.blocksBehind ?? null,
      minutesBehind: l?.minutesBehind ?? null,
      behind: l?.behind ?? false,
    };
  });
  return { differences, reconciliation };
}

/** Resolves an open difference with the admin's note. 404 for no such difference, 409 when it is already resolved. */
export async function resolveDifference(db: Db, session: AuthSession, id: string, note: string, info: RequestInfo): Promise<void> {
  const now = Date.now();
  const [updated] = await writeBatch(db, [
    db
      .update(pa)
      .set({ status: "resolved", resolvedAt: now, resolvedBy: session.walletAddress, resolutionNote: note })
      .where(and(eq(pa.id, id), eq(pa.status, "open"))),
    auditRow(
      {
        transactionId: pa.transactionId,
        action: "payment_difference_resolved",
        performedBy: session.walletAddress,
        metadata: sql`json_object('differenceId', ${pa.id}, 'kind', ${pa.kind}, 'txHash', ${pa.txHash}, 'note', ${note})`,
        request: info,
        timestamp: now,
      },
      { from: pa, where: and(eq(pa.id, id), eq(pa.resolvedAt, now), eq(pa.status, "resolved"))! },
    ),
  ]);
  if ((updated.meta.changes ?? 0) === 0) {
    const exists = await db.select({ id: pa.id }).from(pa).where(eq(pa.id, id)).get();
    throw exists ? new ApiError(409, "This difference is already resolved") : new ApiError(404, "Difference not found");
  }
}
