// The admin's payment pages (docs/payments.md): payments owed back and how an admin closes them, the
// reconciliation's differences and progress, and closing a stuck purchase. The contract between
// worker/routes/admin-payments.ts, worker/routes/admin-purchases.ts and the web's admin pages; the buyer's side of
// a purchase is schema/purchases.ts.
import * as v from "valibot";
import { adminNote } from "./admin-note";
import type { Network } from "./db";
import { TX_HASH_PATTERN } from "./purchases";

// ---- payments owed back --------------------------------------------------------------------------------

/** POST /api/admin/payments/:id/refund. */
export const RefundRequest = v.object({
  refundTxHash: v.pipe(v.string("must be a string"), v.trim(), v.regex(TX_HASH_PATTERN, "must be an Ethereum transaction hash or a Solana signature")),
});
export type RefundRequest = v.InferOutput<typeof RefundRequest>;

/**
 * Why a received payment is owed back: paid after the purchase closed (late), less than due (partial), a second
 * payment (duplicate), the excess of an overpayment (over), the purchase failed after it arrived (failed), a
 * transfer from the buyer no purchase can take (unmatched: sent before the reservation, no reference key, or from
 * a sender with no purchase), or value that reached the platform by a program call the verifier cannot credit
 * (indirect, Solana).
 */
export const ATTENTION_REASONS = ["late", "partial", "duplicate", "over", "failed", "unmatched", "indirect"] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];

/** One row of GET /api/admin/payments/attention: a received payment that needs a refund or a look. */
export type AttentionPayment = {
  /** The escrow row's id (use it with POST /api/admin/payments/:id/refund). */
  id: string;
  transactionId: string | null;
  network: Network;
  /** What arrived, decimal string in `currency` (exact: every digit). */
  amount: string;
  currency: "ETH" | "SOL";
  /** What the purchase asked for (null when no purchase matched). */
  expectedAmount: string | null;
  /** The same amounts in wei or lamports (decimal text), so a page can show them exactly and state the difference. */
  amountBaseUnits: string;
  expectedBaseUnits: string | null;
  /** What is owed back: all of it, or an overpayment's excess. */
  refundBaseUnits: string;
  senderAddress: string | null;
  txHash: string | null;
  reason: AttentionReason;
  status: string;
  createdAt: string;
  explorerUrl: string | null;
  /** Why the last re-check on the chain refused marking it refunded (null when none failed). */
  checkFailure: string | null;
  checkedAt: string | null;
};
export type AttentionResponse = { payments: AttentionPayment[] };
export type RefundResponse = { success: true };

/** POST /api/admin/payments/:id/dismiss: closes a payment listed for refund without one, saying why. */
export const DismissRefundRequest = v.object({ note: adminNote("why no refund is sent") });
export type DismissRefundRequest = v.InferOutput<typeof DismissRefundRequest>;
export type DismissRefundResponse = { success: true };

/** What the reconciliation found that nothing accounts for (docs/payments.md "Reconciliation"). */
export const DIFFERENCE_KINDS = ["uncredited", "balance", "ledger"] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

/** One row of GET /api/admin/payments/differences. */
export type PaymentDifference = {
  id: string;
  network: Network;
  kind: DifferenceKind;
  txHash: string | null;
  fromBlock: number | null;
  toBlock: number | null;
  /** wei or lamports, formatted in the network's coin; negative when the balance fell unexplained. */
  amount: string | null;
  currency: "ETH" | "SOL";
  senderAddress: string | null;
  transactionId: string | null;
  escrowId: string | null;
  detail: string;
  status: "open" | "resolved";
  createdAt: string;
  resolvedAt: string | null;
  resolvedBy: string | null;
  resolutionNote: string | null;
  explorerUrl: string | null;
};
/** How far each network's platform address has been reconciled, and how far behind the chain's head that is. */
export type ReconciliationProgress = {
  network: Network;
  through: string | null;
  updatedAt: string | null;
  /** Blocks (Ethereum, including the required depth) or slots (Solana) behind the head at the cron's last probe. */
  blocksBehind: number | null;
  /** Minutes since it last read up to the chain's final head. */
  minutesBehind: number | null;
  /** Past RECONCILE_LAG_ALERT_MINUTES: it has fallen behind (and is alerted on). */
  behind: boolean;
};
export type DifferencesResponse = { differences: PaymentDifference[]; reconciliation: ReconciliationProgress[] };

/** POST /api/admin/payments/differences/:id/resolve. */
export const ResolveDifferenceRequest = v.object({ note: adminNote("what was done") });
export type ResolveDifferenceRequest = v.InferOutput<typeof ResolveDifferenceRequest>;
export type ResolveDifferenceResponse = { success: true };

// ---- an admin closing a stuck purchase (docs/payments.md#deadlines) ---------------------------------------

/** POST /api/admin/purchases/:id/close. The note is kept in the audit trail (transaction_audit, purchase_closed). */
export const ClosePurchaseRequest = v.object({ note: adminNote("why the purchase is closed") });
export type ClosePurchaseRequest = v.InferOutput<typeof ClosePurchaseRequest>;

/**
 * What became of the purchase's reported payment when it was closed: none was reported; it is listed for refund
 * now (a final transfer from the buyer); or it is not final or not visible yet, and the scan (24 hours) and the
 * reconciliation list it for refund if it arrives.
 */
export type ClosedPayment = "none" | "listed" | "watching";
export type ClosePurchaseResponse = { success: true; status: "failed"; payment: ClosedPayment };
