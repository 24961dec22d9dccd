// What a payment means for a purchase (docs/payments.md#the-decision-decidepayment), decided from facts alone: what the
// chain says about one transaction hash and what the database says about the purchase and the ledger. No I/O
// here, so every rule is unit-tested and mutation-tested; worker/purchases/ reads the facts and applies the
// decision (the database's own constraints hold the invariants even if a fact was stale: docs/payments.md).
//
// The rules, in order:
//  1. The ledger first: a hash recorded for another purchase, or for no purchase, never pays this one; a hash
//     already settled or listed for this purchase needs nothing more.
//  2. Can the hash still pay this purchase? Only while the purchase is payable (PAYABLE: initiated or pending) and either
//     the hash is the one reported in time, or it is reported (or found) before expiry, or it was mined before
//     expiry (a slow but real payment). Otherwise it can only be an extra payment.
//  3. Nothing is concluded from a node that does not answer, and nothing is listed for refund before the
//     transfer is at the required depth in a canonical block: a transaction in a pool is not money received.
//  4. A purchase is never held past its deadline (expiry + grace) by a hash the node does not know or has not
//     mined: reports after expiry do not move it. A node that does not answer (or a payment that stops getting
//     deeper) holds it until the last deadline (the deadline + NODE_OUTAGE_GRACE_MS), never longer.
//  5. Only the buyer's own can change the purchase: the hash the buyer reported in time, or a transfer the chain
//     shows the buyer sent. A transfer anyone else sent (a stranger's carrying the victim's public reference key)
//     is refused with the purchase left as it is, and one sent before the reservation existed never pays it.
import { isIn, PAYABLE, type PurchaseStatus, SOLD } from "../../schema/purchase-lifecycle";
import type { FailureReason } from "../../schema/purchases";
import type { AttentionReason } from "../../schema/admin-payments";
import { inLedgerSet, LEDGER_HELD, type LedgerStatus, ledgerTo } from "../../schema/ledger-lifecycle";

/** What the chain says about one transaction hash or signature. */
export type PaymentObservation =
  /** The node did not answer, timed out, answered an error, or is not on the configured chain: nothing can be concluded. */
  | { kind: "unavailable" }
  /** The node answered: no such transaction (not yet, or not any more after a reorg). */
  | { kind: "missing" }
  | {
      kind: "found";
      /** Executed successfully (Ethereum receipt status 1; Solana meta.err null). True while in a pool (not known yet). */
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
      /** Blocks on top of (and including) the one holding it, 0 while it is in no canonical block; Solana: 1 once the configured commitment is reached. */
      confirmations: number;
      /** The block hash (or slot) holding it now; "" while in a pool. */
      block: string;
      /** The block number (Ethereum) or slot (Solana) holding it; null while in a pool. */
      blockNumber: number | null;
      /** When its block was made (epoch ms); null while in a pool or when the node does not say. */
      minedAt: number | null;
      /**
       * What the transaction paid the network, once mined (for gas_estimation_audit; never part of a decision):
       * Ethereum gasUsed and effectiveGasPrice (wei) and their product; Solana the fee in lamports (used and price
       * null). Absent or null while in a pool or when the node does not say.
       */
      fee?: { used: bigint | null; price: bigint | null; total: bigint } | null;
    };

/**
 * What the ledger (escrow_transactions, one row per received hash) and the settled purchases say about the hash:
 * nothing yet; held for this purchase until deep; settled this purchase; listed for refund against this purchase;
 * or recorded for another purchase or for none.
 */
export type LedgerState = "none" | "held-here" | "settled-here" | "refund-here" | "elsewhere";

/** The ledger state of a hash as seen from `purchaseId`, from the purchase it settled (if any) and its ledger row (if any). */
export function ledgerStateOf(purchaseId: string, settledBy: string | null, row: { owner: string | null; status: LedgerStatus } | null): LedgerState {
  if (settledBy !== null) return settledBy === purchaseId ? "settled-here" : "elsewhere";
  if (row === null) return "none";
  if (row.owner !== purchaseId) return "elsewhere";
  if (inLedgerSet(LEDGER_HELD, row.status)) return "held-here";
  return row.status === ledgerTo("release") ? "settled-here" : "refund-here";
}

export type PurchaseFacts = {
  status: PurchaseStatus;
  /** The amount asked, in wei or lamports. */
  expected: bigint;
  requiredConfirmations: number;
  /** Epoch ms. */
  expiresAt: number;
  now: number;
  /** The hash is the one recorded on the purchase (reported, or found by the scan, in time). */
  hashIsCurrent: boolean;
  /** Where this purchase's payment was seen before; null when never seen. */
  lastSeenBlock: string | null;
  /** When the reservation was made (epoch ms): a transfer mined well before it was not sent for it. */
  createdAt: number;
  /**
   * The lowest block number (Ethereum) or slot (Solana) a payment sent after the reservation can be in
   * (`firstPaymentBlock`); null when the node was away at reservation.
   */
  firstPaymentBlock: number | null;
  ledger: LedgerState;
  /** The listing already has a verified or completed purchase (another one). */
  listingSold: boolean;
};

/** How long after expiry a hash the node does not know (or has not mined) keeps the listing. */
export const MISSING_PAYMENT_GRACE_MS = 10 * 60_000;
/**
 * How long past the deadline a purchase still waits on a node that does not answer (down, timing out, erroring,
 * on another chain) or on a payment that stops getting deeper (a node whose head stands still). Then the
 * purchase fails as `unverified`: the clock, not the node, ends every purchase (docs/payments.md#deadlines).
 */
export const NODE_OUTAGE_GRACE_MS = 60 * 60_000;
/**
 * Block times are the producers' clocks (Ethereum: the slot's start, up to 12 s before inclusion; Solana: the
 * validators' estimate): a transfer counts as mined before the reservation only when its block's time is this
 * much earlier than the reservation, so no payment sent after it is ever refused on a clock difference.
 */
export const BLOCK_TIME_TOLERANCE_MS = 60_000;

export type WaitNote = "node-unavailable" | "not-found-yet" | "reorged" | "confirming";

export type PaymentDecision =
  /** Nothing final yet: the purchase stays (or becomes) pending with this hash. */
  | { outcome: "wait"; note: WaitNote; confirmations: number; holdEscrow: boolean }
  /** Deep enough and enough: complete the purchase; `excess` above the asked amount is owed back. */
  | { outcome: "settle"; excess: bigint }
  /**
   * The hash does not pay this purchase. `purchase`: reopen it (back to initiated, payable with another hash),
   * close it (failed), or keep it as it is (the hash was never its payment). `refund`: the money received, listed.
   */
  | { outcome: "reject"; reason: FailureReason; purchase: "reopen" | "close" | "keep"; refund: AttentionReason | null }
  /** A real payment, final, that the purchase cannot take: record it for a refund. */
  | { outcome: "refund"; reason: AttentionReason }
  /** A payment the purchase cannot take that is not final (or not visible) yet: nothing is recorded now. */
  | { outcome: "later"; note: WaitNote; confirmations: number }
  /** The ledger already has this hash for this purchase: nothing to do. */
  | { outcome: "done" };

/** The last moment a payment can still appear for a purchase that was reported in time. */
export function paymentDeadline(expiresAt: number): number {
  return expiresAt + MISSING_PAYMENT_GRACE_MS;
}

/** The last moment any purchase waits, whatever the node says or does not say: the deadline plus the outage grace. */
export function lastDeadline(expiresAt: number): number {
  return paymentDeadline(expiresAt) + NODE_OUTAGE_GRACE_MS;
}

/**
 * The first block (Ethereum) or slot (Solana) that can hold a payment for a reservation made when the node's
 * newest block or slot was `reservedAt`. Ethereum: that block was whole when read, so its transactions were
 * mined before the reservation: the next one. Solana: the slot read may still be filling, so that slot itself.
 */
export function firstPaymentBlock(network: "ethereum" | "solana", reservedAt: number | null): number | null {
  if (reservedAt === null) return null;
  return network === "ethereum" ? reservedAt + 1 : reservedAt;
}

/** Rule 5: the transfer was mined before the reservation existed (by its block or slot, else by its block time). */
export function minedBeforeReservation(p: PurchaseFacts, seen: Extract<PaymentObservation, { kind: "found" }>): boolean {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: with no block, n < null is n < 0, false for every block number (equivalent mutants)
  if (p.firstPaymentBlock !== null && seen.blockNumber !== null && seen.blockNumber < p.firstPaymentBlock) return true;
  return seen.minedAt !== null && seen.minedAt < p.createdAt - BLOCK_TIME_TOLERANCE_MS;
}

/** Rule 2: whether this hash may pay the purchase at all. */
export function canPay(p: PurchaseFacts, seen: PaymentObservation): boolean {
  if (!isIn(PAYABLE, p.status)) return false;
  if (p.hashIsCurrent || p.now <= p.expiresAt) return true;
  // Stryker disable next-line ConditionalExpression: without the kind test, minedAt is undefined and undefined <= n is false (equivalent mutant)
  return seen.kind === "found" && seen.minedAt !== null && seen.minedAt <= p.expiresAt;
}

function reject(p: PurchaseFacts, pays: boolean, reason: FailureReason, refund: AttentionReason | null = null): PaymentDecision {
  // A bad report must not cost the buyer a reservation that can still be paid; past expiry it ends. A hash that
  // could never pay the purchase, or that the buyer did not report (rule 5: found by the scan, anyone's), leaves
  // it alone.
  const purchase = !pays || !p.hashIsCurrent ? "keep" : p.now > p.expiresAt ? "close" : "reopen";
  return { outcome: "reject", reason, purchase, refund };
}

/** Rule 4's end: the last deadline passed with nothing final: the purchase fails, nothing is listed (nothing is known). */
const UNVERIFIED: PaymentDecision = { outcome: "reject", reason: "unverified", purchase: "close", refund: null };

const DONE: PaymentDecision = { outcome: "done" };

export function decidePayment(p: PurchaseFacts, seen: PaymentObservation): PaymentDecision {
  const pays = canPay(p, seen);
  if (p.ledger === "elsewhere") return reject(p, pays, "hash-used");
  if (p.ledger === "settled-here") return DONE;
  // Listed for refund here (sent before the reservation, say): nothing more, unless the buyer reports it again on
  // the open purchase, which then gets the same refusal (and is not left pending on it).
  if (p.ledger === "refund-here" && !(pays && p.hashIsCurrent)) return DONE;

  // Rule 5: a hash the node cannot show is the buyer's only if it is the buyer's report; any other (the scan's, the
  // reconciliation's) is recorded on nothing until the node shows it came from the buyer.
  const reported = p.hashIsCurrent;
  const vanished = p.lastSeenBlock !== null;
  const overdue = p.now > paymentDeadline(p.expiresAt);
  const abandoned = p.now > lastDeadline(p.expiresAt);
  if (seen.kind === "unavailable") {
    if (!pays || !reported) return { outcome: "later", note: "node-unavailable", confirmations: 0 };
    if (abandoned) return UNVERIFIED;
    return { outcome: "wait", note: "node-unavailable", confirmations: 0, holdEscrow: false };
  }
  if (seen.kind === "missing") {
    if (!pays || !reported) return { outcome: "later", note: "not-found-yet", confirmations: 0 };
    if (overdue) return { outcome: "reject", reason: vanished ? "reorged" : "not-found", purchase: "close", refund: null };
    return { outcome: "wait", note: vanished ? "reorged" : "not-found-yet", confirmations: 0, holdEscrow: false };
  }
  if (!seen.succeeded) return reject(p, pays, "reverted");
  if (!seen.onExpectedChain) return reject(p, pays, "wrong-chain");
  if (!seen.toPlatform) return reject(p, pays, "wrong-recipient");
  if (!seen.fromBuyer) return reject(p, pays, "wrong-sender");

  // From here on it is a transfer from this buyer to the platform: once final, it is settled or listed for refund.
  const deep = seen.confirmations >= p.requiredConfirmations;
  if (!pays) {
    if (!deep) return { outcome: "later", note: "confirming", confirmations: seen.confirmations };
    return { outcome: "refund", reason: isIn(SOLD, p.status) ? "duplicate" : "late" };
  }
  if (seen.confirmations === 0) {
    // In a pool, or in a block that is no longer canonical: not money yet, and never for longer than the deadline.
    if (overdue) return { outcome: "reject", reason: vanished ? "reorged" : "not-found", purchase: "close", refund: null };
    return { outcome: "wait", note: vanished ? "reorged" : "confirming", confirmations: 0, holdEscrow: false };
  }
  const unmatched: AttentionReason | null = deep ? "unmatched" : null;
  if (minedBeforeReservation(p, seen)) return reject(p, pays, "before-reservation", unmatched);
  if (!seen.carriesReference) return reject(p, pays, "missing-reference", unmatched);
  if (!deep) {
    // Mined but not getting deeper by the last deadline: the node's head stands still (rule 4).
    if (abandoned) return UNVERIFIED;
    const moved = vanished && p.lastSeenBlock !== seen.block;
    return { outcome: "wait", note: moved ? "reorged" : "confirming", confirmations: seen.confirmations, holdEscrow: true };
  }
  if (seen.amount < p.expected) return { outcome: "reject", reason: "underpaid", purchase: "close", refund: "partial" };
  if (p.listingSold) return { outcome: "reject", reason: "listing-sold", purchase: "close", refund: "failed" };
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
