// What the buyer does with an open purchase besides paying: report the payment (confirm), cancel an unpaid
// reservation, or ask for the unsigned Solana transfer (Solana Pay transaction request).
import { and, eq, isNull, sql } from "drizzle-orm";
import { transactions } from "../../schema/db";
import { paymentHashNetwork } from "../../schema/payment-hash";
import { isIn, PAYABLE, SOLD, transitionTo } from "../../schema/purchase-lifecycle";
import type { ConfirmResponse } from "../../schema/purchases";
import { auditRow } from "../db/audit";
import type { AuthSession } from "../auth/middleware";
import type { Deployment } from "../deployment/deployment";
import { quorumBlockhash } from "../chain/solana-blockhash";
import { bytesToBase64, unsignedTransfer } from "../chain/solana-transfer";
import { type Db, writeBatch } from "../db/database";
import { ApiError } from "../http/errors";
import type { RequestInfo } from "../http/request-info";
import { assertSessionWallet } from "./buyer";
import type { PaymentDecision } from "../domain/payment-decision";
import { findPurchase, type PurchaseRow } from "./purchase-row";
import { canMove, statusAfter } from "./status-sql";
import { verifyPayment } from "./verify";

const t = transactions;

/** The buyer's own purchase, or 404 (to anyone else it does not exist). */
async function ownPurchase(db: Db, session: AuthSession, id: string): Promise<PurchaseRow> {
  const row = await findPurchase(db, id);
  if (!row || row.buyerId !== session.userId || row.buyerWallet !== session.walletAddress) throw new ApiError(404, "Transaction not found");
  return row;
}

const MESSAGES: Record<string, string> = {
  "node-unavailable": "The blockchain node is not answering; your payment will be checked again automatically.",
  "not-found-yet": "The payment is not visible on the chain yet; it will be checked again automatically.",
  reorged: "The block holding your payment was replaced; waiting for it to be confirmed again.",
  confirming: "Payment found; waiting for confirmations.",
};

function confirmMessage(d: PaymentDecision, after: PurchaseRow, hash: string): { success: boolean; message: string } {
  const paidHere = isIn(SOLD, after.status) && after.txHash === hash;
  switch (d.outcome) {
    case "settle":
    case "done":
      return paidHere
        ? { success: true, message: "Payment confirmed; your private key is available." }
        : { success: false, message: `This purchase is ${after.status}; this payment is already recorded for a refund.` };
    case "wait":
      return { success: true, message: MESSAGES[d.note] };
    case "later":
      return {
        success: false,
        message: `This purchase is ${after.status} and cannot take this payment. ${d.note === "node-unavailable" ? "The blockchain node is not answering" : "The transaction is not final on the chain yet"}; if it pays the marketplace, it is listed for a refund once it is.`,
      };
    case "refund":
      return { success: false, message: `This purchase is ${after.status}; the payment has been recorded for a refund.` };
    case "reject":
      return {
        success: false,
        message: `The transaction does not pay this purchase: ${d.reason}.${d.refund ? " The money received is listed for a refund." : ""}`,
      };
  }
}

export async function confirmPayment(
  db: Db,
  deployment: Deployment,
  session: AuthSession,
  id: string,
  input: { txHash: string; buyerWallet: string },
): Promise<ConfirmResponse> {
  assertSessionWallet(session, input.buyerWallet, "buyerWallet");
  const row = await ownPurchase(db, session, id);
  // The request schema already refused text that is no hash of either network; this is the purchase's own network.
  if (paymentHashNetwork(input.txHash) !== row.network)
    throw new ApiError(400, `txHash: must be ${row.network === "ethereum" ? "an Ethereum transaction hash" : "a Solana signature"}`);
  const hash = row.network === "ethereum" ? input.txHash.toLowerCase() : input.txHash;
  const now = Date.now();
  // Only a report made before expiry becomes the purchase's payment: a later report cannot move the deadline or
  // hold the listing, it is only checked as a payment (one mined before expiry still pays).
  await db
    .update(t)
    .set({
      status: transitionTo("report"),
      txHash: hash,
      // When this payment was first reported: the purchase page re-reports every few seconds.
      reportedAt: sql`CASE WHEN ${t.txHash} = ${hash} THEN coalesce(${t.reportedAt}, ${now}) ELSE ${now} END`,
      updatedAt: now,
      confirmations: sql`CASE WHEN ${t.txHash} = ${hash} THEN ${t.confirmations} ELSE 0 END`,
      paymentBlock: sql`CASE WHEN ${t.txHash} = ${hash} THEN ${t.paymentBlock} ELSE NULL END`,
    })
    .where(and(eq(t.id, id), canMove(t.status, "report"), sql`${t.expiresAt} >= ${now}`));
  // Recorded before asking the node, so a node that is down now leaves the purchase pending for the cron job.
  const current = (await findPurchase(db, id))!;
  const outcome = await verifyPayment(db, deployment, current, hash, now);
  // An unpaid reservation past its expiry that this report did not pay ends now, as the cron job would end it.
  await db
    .update(t)
    .set({ status: transitionTo("expire"), failureReason: "expired", updatedAt: now })
    .where(and(eq(t.id, id), canMove(t.status, "expire"), sql`${t.expiresAt} < ${now}`));
  const after = (await findPurchase(db, id))!;
  return {
    ...confirmMessage(outcome.decision, after, hash),
    status: after.status,
    confirmations: after.confirmations,
    requiredConfirmations: outcome.requiredConfirmations,
  };
}

export async function cancelPurchase(db: Db, session: AuthSession, id: string, info: RequestInfo) {
  await ownPurchase(db, session, id);
  const now = Date.now();
  const [updated] = await writeBatch(db, [
    db
      .update(t)
      .set({ status: transitionTo("cancel"), updatedAt: now })
      .where(and(eq(t.id, id), canMove(t.status, "cancel"), isNull(t.txHash))),
    auditRow(
      { transactionId: id, action: "cancelled", performedBy: session.walletAddress, request: info, timestamp: now },
      { where: sql`EXISTS (SELECT 1 FROM ${t} WHERE ${t.id} = ${id} AND ${t.status} = ${statusAfter("cancel")} AND ${t.updatedAt} = ${now})` },
    ),
  ]);
  if (((updated as D1Result).meta.changes ?? 0) === 0) throw new ApiError(409, "Only an unpaid reservation can be cancelled");
}

export async function solanaTransferRequest(db: Db, solana: Deployment["solana"], session: AuthSession, id: string, account: string) {
  assertSessionWallet(session, account, "account");
  const row = await ownPurchase(db, session, id);
  if (row.network !== "solana" || !row.paymentReference || !row.amountBaseUnits) throw new ApiError(409, "This purchase is not paid on Solana");
  if (!isIn(PAYABLE, row.status)) throw new ApiError(409, `This purchase is ${row.status}`);
  // One a quorum of the nodes holds (chain/solana-blockhash.ts): never a transaction built on one node's word.
  const latest = await quorumBlockhash(solana);
  if (!latest.ok)
    throw new ApiError(
      503,
      latest.reason === "unanswered"
        ? "The Solana node is not answering; try again in a moment"
        : "The Solana nodes do not agree on a recent block; try again in a moment",
    );
  const blockhash = latest.blockhash;
  let bytes: Uint8Array;
  try {
    // Solana Pay: the reference rides on the transfer as a read-only non-signer, so the payment can be found by it.
    bytes = unsignedTransfer({
      payer: account,
      recipient: solana.recipient,
      reference: row.paymentReference,
      lamports: BigInt(row.amountBaseUnits),
      recentBlockhash: blockhash,
    });
  } catch {
    throw new ApiError(400, "account: must be a Solana address other than the platform's");
  }
  return { transaction: bytesToBase64(bytes), message: `Pay ${row.totalAmount} SOL for this address` };
}
