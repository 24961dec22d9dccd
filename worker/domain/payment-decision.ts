// What a payment means for a purchase (issue 10 §3, DESIGN §6), decided from facts alone: what the chain
// says about the reported transaction and what the database says about the purchase. No I/O here, so every
// rule is unit-tested and mutation-tested; worker/purchases/ reads the facts and applies the decision.
import type { AttentionReason, FailureReason, PurchaseStatus } from "../../schema/purchases";

/** What the chain says about one transaction hash or signature. */
export type PaymentObservation =
  /** The node did not answer, timed out or answered an error: nothing can be concluded. */
  | { kind: "unavailable" }
  /** The node answered: no such transaction (not yet, or not any more after a reorg). */
  | { kind: "missing" }
  | {
      kind: "found";
      /** Executed successfully (Ethereum receipt status 1; Solana meta.err null). */
      succeeded: boolean;
      /** Sent on the chain this marketplace settles on (Ethereum chain id; always true on Solana). */
      onExpectedChain: boolean;
      /** The payer and the receiver, already compared by the verifier with the network's address rules. */
      fromBuyer: boolean;
      toPlatform: boolean;
      /** Solana: the purchase's reference key is on the transfer. Always true on Ethereum. */
      carriesReference: boolean;
      /** Amount received by the platform, in wei or lamports. */
      amount: bigint;
      /** Blocks on top of (and including) the one holding it; Solana: 1 once the configured commitment is reached. */
      confirmations: number;
      /** The block hash (or slot) holding it now. */
      block: string;
    };

export type PurchaseFacts = {
  status: PurchaseStatus;
  /** The amount asked, in wei or lamports. */
  expected: bigint;
  requiredConfirmations: number;
  /** Epoch ms. */
  expiresAt: number;
  /** When the hash was reported (or found by the scan); null when never. */
  reportedAt: number | null;
  /** Where this purchase's payment was seen before; null when never seen. */
  lastSeenBlock: string | null;
  /** The hash already paid for another purchase (verified or completed). */
  hashPaidAnotherPurchase: boolean;
  /** The purchase is already completed with exactly this hash. */
  hashPaidThisPurchase: boolean;
  now: number;
};

/** How long after expiry (or after the report, if later) a hash the node does not know keeps the listing. */
export const MISSING_PAYMENT_GRACE_MS = 10 * 60_000;

export type WaitNote = "node-unavailable" | "not-found-yet" | "reorged" | "confirming";

export type PaymentDecision =
  /** Nothing final yet: the purchase stays (or becomes) pending. */
  | { outcome: "wait"; note: WaitNote; confirmations: number; holdEscrow: boolean }
  /** Deep enough and enough: complete the purchase; `excess` above the asked amount is owed back. */
  | { outcome: "settle"; excess: bigint }
  /** The hash does not pay this purchase. `closePurchase`: fail it (else it returns to initiated and may be paid). */
  | { outcome: "reject"; reason: FailureReason; closePurchase: boolean; refund: AttentionReason | null }
  /** A real payment from the buyer that the purchase no longer needs: record it for a refund. */
  | { outcome: "refund"; reason: AttentionReason }
  /** Already settled by this very hash: nothing to do. */
  | { outcome: "done" };

const OPEN: readonly PurchaseStatus[] = ["initiated", "pending", "verified"];

/** The purchase's window for a payment to appear: its expiry, or the report if that came later. */
function deadline(p: PurchaseFacts): number {
  const reported = p.reportedAt ?? 0;
  return Math.max(p.expiresAt, reported) + MISSING_PAYMENT_GRACE_MS;
}

function reject(p: PurchaseFacts, reason: FailureReason, refund: AttentionReason | null = null): PaymentDecision {
  // A bad report must not cost the buyer a reservation that can still be paid; past expiry it ends.
  return { outcome: "reject", reason, closePurchase: p.now > p.expiresAt || !OPEN.includes(p.status), refund };
}

export function decidePayment(p: PurchaseFacts, seen: PaymentObservation): PaymentDecision {
  if (seen.kind === "unavailable") return { outcome: "wait", note: "node-unavailable", confirmations: 0, holdEscrow: false };
  if (seen.kind === "missing") {
    const vanished = p.lastSeenBlock !== null;
    if (p.now > deadline(p)) return { outcome: "reject", reason: vanished ? "reorged" : "not-found", closePurchase: true, refund: null };
    return { outcome: "wait", note: vanished ? "reorged" : "not-found-yet", confirmations: 0, holdEscrow: false };
  }
  if (!seen.succeeded) return reject(p, "reverted");
  if (!seen.onExpectedChain) return reject(p, "wrong-chain");
  if (!seen.toPlatform) return reject(p, "wrong-recipient");
  if (!seen.fromBuyer) return reject(p, "wrong-sender");
  if (!seen.carriesReference) return reject(p, "missing-reference");
  if (p.hashPaidThisPurchase) return { outcome: "done" };
  if (p.hashPaidAnotherPurchase) return reject(p, "hash-used");

  // From here on the platform really received money from this buyer: it is settled or listed for refund.
  if (p.status === "completed" || p.status === "verified") return { outcome: "refund", reason: "duplicate" };
  if (!OPEN.includes(p.status)) return { outcome: "refund", reason: "late" };
  if (seen.confirmations < p.requiredConfirmations) {
    const moved = p.lastSeenBlock !== null && p.lastSeenBlock !== seen.block;
    return { outcome: "wait", note: moved ? "reorged" : "confirming", confirmations: seen.confirmations, holdEscrow: true };
  }
  if (seen.amount < p.expected) return { outcome: "reject", reason: "underpaid", closePurchase: true, refund: "partial" };
  return { outcome: "settle", excess: seen.amount - p.expected };
}

/**
 * Which of a buyer's open purchases an unreported transfer pays (Ethereum has no reference key): the one
 * asking exactly the amount received, else the oldest that the amount covers, else the oldest (which will
 * then be refused as underpaid and the money listed for refund). Candidates must be sorted oldest first.
 */
export function matchTransferToPurchase<T extends { expected: bigint }>(candidates: readonly T[], amount: bigint): T | null {
  if (candidates.length === 0) return null;
  // Stryker disable next-line EqualityOperator: an equal amount is taken by the exact match first (equivalent mutant)
  return candidates.find((c) => c.expected === amount) ?? candidates.find((c) => c.expected <= amount) ?? candidates[0];
}
