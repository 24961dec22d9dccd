import { describe, expect, it } from "vitest";
import {
  BLOCK_TIME_TOLERANCE_MS,
  canPay,
  decidePayment,
  firstPaymentBlock,
  lastDeadline,
  ledgerStateOf,
  matchTransferToPurchase,
  MISSING_PAYMENT_GRACE_MS,
  NODE_OUTAGE_GRACE_MS,
  type PaymentObservation,
  paymentDeadline,
  type PurchaseFacts,
} from "./payment-decision";

const NOW = 1_800_000_000_000;
const EXPIRES = NOW + 60_000;
const facts = (over: Partial<PurchaseFacts> = {}): PurchaseFacts => ({
  status: "pending",
  expected: 1_000n,
  requiredConfirmations: 3,
  expiresAt: EXPIRES,
  now: NOW,
  hashIsCurrent: true,
  lastSeenBlock: null,
  createdAt: NOW - 5 * 60_000,
  firstPaymentBlock: 101,
  ledger: "none",
  listingSold: false,
  ...over,
});
type Found = Extract<PaymentObservation, { kind: "found" }>;
const found = (over: Partial<Found> = {}): Found => ({
  kind: "found",
  succeeded: true,
  onExpectedChain: true,
  fromBuyer: true,
  toPlatform: true,
  carriesReference: true,
  amount: 1_000n,
  confirmations: 3,
  block: "0xb1",
  blockNumber: 120,
  minedAt: NOW - 5_000,
  ...over,
});
const pooled = (over: Partial<Found> = {}) => found({ confirmations: 0, block: "", blockNumber: null, minedAt: null, ...over });
const AFTER_DEADLINE = paymentDeadline(EXPIRES) + 1;
const AFTER_LAST_DEADLINE = lastDeadline(EXPIRES) + 1;

describe("rule 1: the ledger comes first", () => {
  it("a hash recorded for another purchase (or for none) never pays this one, whatever the chain says", () => {
    expect(decidePayment(facts({ ledger: "elsewhere" }), found())).toEqual({ outcome: "reject", reason: "hash-used", purchase: "reopen", refund: null });
    expect(decidePayment(facts({ ledger: "elsewhere" }), { kind: "unavailable" })).toMatchObject({ reason: "hash-used" });
    expect(decidePayment(facts({ ledger: "elsewhere", now: NOW + 60_001 }), found())).toMatchObject({ purchase: "close" });
    expect(decidePayment(facts({ ledger: "elsewhere", status: "cancelled" }), found())).toMatchObject({ purchase: "keep" });
  });

  it("a hash already settled here or listed for refund here needs nothing more", () => {
    for (const ledger of ["settled-here", "refund-here"] as const) {
      expect(decidePayment(facts({ ledger, status: "completed" }), found())).toEqual({ outcome: "done" });
      expect(decidePayment(facts({ ledger, status: "cancelled" }), { kind: "missing" })).toEqual({ outcome: "done" });
      expect(decidePayment(facts({ ledger, hashIsCurrent: false }), found())).toEqual({ outcome: "done" });
    }
    expect(decidePayment(facts({ ledger: "settled-here" }), found())).toEqual({ outcome: "done" });
  });

  it("a hash listed for refund here and reported again on the open purchase gets its refusal again, not a pending purchase", () => {
    expect(decidePayment(facts({ ledger: "refund-here" }), found({ blockNumber: 100 }))).toEqual({
      outcome: "reject",
      reason: "before-reservation",
      purchase: "reopen",
      refund: "unmatched",
    });
    expect(decidePayment(facts({ ledger: "refund-here", status: "expired" }), found())).toEqual({ outcome: "done" });
  });

  it("a hash held here goes on as any payment of this purchase", () => {
    expect(decidePayment(facts({ ledger: "held-here" }), found())).toEqual({ outcome: "settle", excess: 0n });
  });
});

describe("ledgerStateOf: what the ledger says about a hash, seen from one purchase", () => {
  it("a purchase the hash settled decides: this one, or another", () => {
    expect(ledgerStateOf("p", "p", null)).toBe("settled-here");
    expect(ledgerStateOf("p", "q", { owner: "p", status: "held" })).toBe("elsewhere");
  });
  it("otherwise its ledger row: none, another's (or no purchase's), held, released or listed for refund here", () => {
    expect(ledgerStateOf("p", null, null)).toBe("none");
    expect(ledgerStateOf("p", null, { owner: "q", status: "held" })).toBe("elsewhere");
    expect(ledgerStateOf("p", null, { owner: null, status: "refund" })).toBe("elsewhere");
    expect(ledgerStateOf("p", null, { owner: "p", status: "held" })).toBe("held-here");
    expect(ledgerStateOf("p", null, { owner: "p", status: "released" })).toBe("settled-here");
    expect(ledgerStateOf("p", null, { owner: "p", status: "refund" })).toBe("refund-here");
  });
});

describe("rule 2: which hash may pay the purchase", () => {
  it("an open purchase takes its own hash whatever the time, and any hash before expiry", () => {
    expect(canPay(facts({ now: NOW * 2 }), { kind: "missing" })).toBe(true);
    expect(canPay(facts({ hashIsCurrent: false, now: EXPIRES }), { kind: "missing" })).toBe(true);
    expect(canPay(facts({ hashIsCurrent: false, now: EXPIRES + 1 }), { kind: "missing" })).toBe(false);
    expect(canPay(facts({ status: "initiated", hashIsCurrent: false }), { kind: "unavailable" })).toBe(true);
  });

  it("after expiry, a hash reported then pays only if it was mined before the expiry (a slow but real payment)", () => {
    const late = facts({ hashIsCurrent: false, now: EXPIRES + 5_000 });
    expect(canPay(late, found({ minedAt: EXPIRES }))).toBe(true);
    expect(canPay(late, found({ minedAt: EXPIRES + 1 }))).toBe(false);
    expect(canPay(late, found({ minedAt: null }))).toBe(false);
  });

  it("a closed or paid purchase takes no hash", () => {
    for (const status of ["completed", "verified", "failed", "cancelled", "expired"] as const) expect(canPay(facts({ status }), found())).toBe(false);
  });
});

describe("the node cannot tell", () => {
  it("an unavailable node leaves an open purchase waiting, past the deadline too, until the last deadline", () => {
    for (const now of [NOW, AFTER_DEADLINE, lastDeadline(EXPIRES)]) {
      expect(decidePayment(facts({ now }), { kind: "unavailable" })).toEqual({
        outcome: "wait",
        note: "node-unavailable",
        confirmations: 0,
        holdEscrow: false,
      });
    }
  });

  it("past the last deadline (the deadline plus an hour) the purchase fails as unverified, nothing listed", () => {
    expect(NODE_OUTAGE_GRACE_MS).toBe(3_600_000);
    expect(lastDeadline(EXPIRES)).toBe(paymentDeadline(EXPIRES) + 3_600_000);
    expect(decidePayment(facts({ now: AFTER_LAST_DEADLINE }), { kind: "unavailable" })).toEqual({
      outcome: "reject",
      reason: "unverified",
      purchase: "close",
      refund: null,
    });
  });

  it("a hash the buyer did not report (the scan's) is not recorded on the purchase while the node cannot tell", () => {
    expect(decidePayment(facts({ status: "initiated", hashIsCurrent: false }), { kind: "unavailable" })).toEqual({
      outcome: "later",
      note: "node-unavailable",
      confirmations: 0,
    });
    expect(decidePayment(facts({ status: "initiated", hashIsCurrent: false }), { kind: "missing" })).toEqual({
      outcome: "later",
      note: "not-found-yet",
      confirmations: 0,
    });
  });

  it("... and records nothing for a purchase the hash cannot pay", () => {
    expect(decidePayment(facts({ status: "cancelled" }), { kind: "unavailable" })).toEqual({ outcome: "later", note: "node-unavailable", confirmations: 0 });
  });
});

describe("rule 4: a hash the node does not know, or has not mined, holds the listing until the deadline only", () => {
  it("the deadline is the expiry plus 10 minutes", () => {
    expect(MISSING_PAYMENT_GRACE_MS).toBe(600_000);
    expect(paymentDeadline(EXPIRES)).toBe(EXPIRES + 600_000);
  });

  it("unknown: waits until the deadline, then fails as not found", () => {
    expect(decidePayment(facts({ now: paymentDeadline(EXPIRES) }), { kind: "missing" })).toEqual({
      outcome: "wait",
      note: "not-found-yet",
      confirmations: 0,
      holdEscrow: false,
    });
    expect(decidePayment(facts({ now: AFTER_DEADLINE }), { kind: "missing" })).toEqual({
      outcome: "reject",
      reason: "not-found",
      purchase: "close",
      refund: null,
    });
  });

  it("seen before and now gone is a reorg: waits, then fails as reorged", () => {
    const p = facts({ lastSeenBlock: "0xb1" });
    expect(decidePayment(p, { kind: "missing" })).toEqual({ outcome: "wait", note: "reorged", confirmations: 0, holdEscrow: false });
    expect(decidePayment({ ...p, now: AFTER_DEADLINE }, { kind: "missing" })).toEqual({
      outcome: "reject",
      reason: "reorged",
      purchase: "close",
      refund: null,
    });
  });

  it("in a pool, never mined: confirming without holding money, then failed at the deadline", () => {
    expect(decidePayment(facts(), pooled())).toEqual({ outcome: "wait", note: "confirming", confirmations: 0, holdEscrow: false });
    expect(decidePayment(facts({ now: AFTER_DEADLINE }), pooled())).toEqual({ outcome: "reject", reason: "not-found", purchase: "close", refund: null });
    expect(decidePayment(facts({ lastSeenBlock: "0xb1" }), pooled())).toMatchObject({ outcome: "wait", note: "reorged" });
    expect(decidePayment(facts({ lastSeenBlock: "0xb1", now: AFTER_DEADLINE }), pooled())).toMatchObject({ reason: "reorged" });
  });

  it("a mined but shallow payment is no hold: it waits for the blocks to come, until the last deadline", () => {
    expect(decidePayment(facts({ now: AFTER_DEADLINE }), found({ confirmations: 1 }))).toMatchObject({ outcome: "wait", confirmations: 1 });
    expect(decidePayment(facts({ now: lastDeadline(EXPIRES) }), found({ confirmations: 1 }))).toMatchObject({ outcome: "wait", confirmations: 1 });
    // A node whose head stands still: the payment never gets deeper, and the clock ends the purchase.
    expect(decidePayment(facts({ now: AFTER_LAST_DEADLINE }), found({ confirmations: 1 }))).toEqual({
      outcome: "reject",
      reason: "unverified",
      purchase: "close",
      refund: null,
    });
  });

  it("a hash the purchase cannot take: nothing recorded while unknown or not final", () => {
    const closed = facts({ status: "expired" });
    expect(decidePayment(closed, { kind: "missing" })).toEqual({ outcome: "later", note: "not-found-yet", confirmations: 0 });
    expect(decidePayment(closed, pooled())).toEqual({ outcome: "later", note: "confirming", confirmations: 0 });
    expect(decidePayment(closed, found({ confirmations: 2 }))).toEqual({ outcome: "later", note: "confirming", confirmations: 2 });
  });
});

describe("a transaction that does not pay this purchase", () => {
  const cases: [string, Partial<Found>, string][] = [
    ["reverted", { succeeded: false }, "reverted"],
    ["on another chain", { onExpectedChain: false }, "wrong-chain"],
    ["to someone else", { toPlatform: false }, "wrong-recipient"],
    ["from another wallet", { fromBuyer: false }, "wrong-sender"],
    ["without the reference key", { carriesReference: false, confirmations: 1 }, "missing-reference"],
    ["mined before the reservation existed", { blockNumber: 99, confirmations: 1 }, "before-reservation"],
  ];
  for (const [name, over, reason] of cases) {
    it(`${name}: refused as ${reason}; the reservation stays payable before expiry`, () => {
      expect(decidePayment(facts(), found(over))).toEqual({ outcome: "reject", reason, purchase: "reopen", refund: null });
    });
    it(`${name}: after expiry the purchase fails`, () => {
      expect(decidePayment(facts({ now: EXPIRES + 1 }), found(over))).toEqual({ outcome: "reject", reason, purchase: "close", refund: null });
    });
  }

  it("at the exact expiry instant the reservation is still payable", () => {
    expect(decidePayment(facts({ now: EXPIRES }), found({ succeeded: false }))).toMatchObject({ purchase: "reopen" });
  });

  it("a transaction the buyer did not report leaves the purchase as it is, whoever sent it (rule 5)", () => {
    for (const [, over, reason] of cases) {
      for (const now of [NOW, EXPIRES + 1]) {
        expect(decidePayment(facts({ hashIsCurrent: false, status: "initiated", now }), found({ minedAt: EXPIRES - 1, ...over }))).toEqual({
          outcome: "reject",
          reason,
          purchase: "keep",
          refund: null,
        });
      }
    }
    expect(decidePayment(facts({ hashIsCurrent: false, ledger: "elsewhere" }), found())).toMatchObject({ reason: "hash-used", purchase: "keep" });
  });

  it("a closed purchase is left as it is", () => {
    for (const status of ["failed", "cancelled", "expired", "completed", "verified"] as const) {
      expect(decidePayment(facts({ status }), found({ toPlatform: false }))).toMatchObject({ outcome: "reject", purchase: "keep", refund: null });
    }
  });

  it("checks run in order", () => {
    const all = { succeeded: false, onExpectedChain: false, toPlatform: false, fromBuyer: false, carriesReference: false, blockNumber: 1 };
    expect(decidePayment(facts(), found(all))).toMatchObject({ reason: "reverted" });
    expect(decidePayment(facts(), found({ ...all, succeeded: true }))).toMatchObject({ reason: "wrong-chain" });
    expect(decidePayment(facts(), found({ ...all, succeeded: true, onExpectedChain: true }))).toMatchObject({ reason: "wrong-recipient" });
    expect(decidePayment(facts(), found({ ...all, succeeded: true, onExpectedChain: true, toPlatform: true }))).toMatchObject({ reason: "wrong-sender" });
    expect(decidePayment(facts(), found({ carriesReference: false, blockNumber: 1 }))).toMatchObject({ reason: "before-reservation" });
    expect(decidePayment(facts(), found({ carriesReference: false, amount: 1n }))).toMatchObject({ reason: "missing-reference" });
  });

  it("the first payment block is inclusive, and unknown (reserved while the node was away) means no such check", () => {
    expect(decidePayment(facts(), found({ blockNumber: 101 })).outcome).toBe("settle");
    expect(decidePayment(facts(), found({ blockNumber: 100 }))).toMatchObject({ reason: "before-reservation" });
    expect(decidePayment(facts({ firstPaymentBlock: null }), found({ blockNumber: 1 })).outcome).toBe("settle");
    expect(decidePayment(facts(), found({ blockNumber: null })).outcome).toBe("settle");
  });

  it("Ethereum's reservation block was whole when read: a payment starts in the next; Solana's slot may still be filling: that slot", () => {
    expect(firstPaymentBlock("ethereum", 100)).toBe(101);
    expect(firstPaymentBlock("solana", 100)).toBe(100);
    expect(firstPaymentBlock("ethereum", null)).toBeNull();
    expect(firstPaymentBlock("solana", null)).toBeNull();
  });

  it("by block time: mined more than the tolerance before the reservation was made (any network, any block numbers)", () => {
    const made = facts().createdAt;
    expect(BLOCK_TIME_TOLERANCE_MS).toBe(60_000);
    expect(decidePayment(facts({ firstPaymentBlock: null }), found({ minedAt: made - 60_001 }))).toMatchObject({ reason: "before-reservation" });
    expect(decidePayment(facts(), found({ minedAt: made - 60_001 }))).toMatchObject({ reason: "before-reservation" });
    expect(decidePayment(facts({ firstPaymentBlock: null }), found({ minedAt: made - 60_000 })).outcome).toBe("settle");
    expect(decidePayment(facts({ firstPaymentBlock: null }), found({ minedAt: null })).outcome).toBe("settle");
  });

  it("a payment not in a block is judged by its depth first (a pool transaction has no block to compare)", () => {
    expect(decidePayment(facts(), pooled({ carriesReference: false }))).toMatchObject({ outcome: "wait" });
  });
});

describe("rule 3: money from the buyer is settled or listed for refund only once final", () => {
  it("not deep enough: waits with the depth and holds the money in escrow", () => {
    expect(decidePayment(facts(), found({ confirmations: 2 }))).toEqual({ outcome: "wait", note: "confirming", confirmations: 2, holdEscrow: true });
  });

  it("a payment that moved to another block before depth is a reorg, still waiting", () => {
    expect(decidePayment(facts({ lastSeenBlock: "0xold" }), found({ confirmations: 1, block: "0xnew" }))).toMatchObject({ outcome: "wait", note: "reorged" });
    expect(decidePayment(facts({ lastSeenBlock: "0xb1" }), found({ confirmations: 1 }))).toMatchObject({ outcome: "wait", note: "confirming" });
  });

  it("exactly the amount at exactly the depth settles with no excess", () => {
    expect(decidePayment(facts(), found())).toEqual({ outcome: "settle", excess: 0n });
  });

  it("overpaid settles and records the excess", () => {
    expect(decidePayment(facts(), found({ amount: 1_234n, confirmations: 9 }))).toEqual({ outcome: "settle", excess: 234n });
  });

  it("underpaid by one base unit fails the purchase and lists the money as partial", () => {
    expect(decidePayment(facts(), found({ amount: 999n }))).toEqual({ outcome: "reject", reason: "underpaid", purchase: "close", refund: "partial" });
  });

  it("the amount is only judged at depth (a shallow underpayment still waits)", () => {
    expect(decidePayment(facts(), found({ amount: 1n, confirmations: 2 })).outcome).toBe("wait");
  });

  it("final money the purchase cannot take because of how it was sent is listed as unmatched", () => {
    expect(decidePayment(facts(), found({ carriesReference: false }))).toEqual({
      outcome: "reject",
      reason: "missing-reference",
      purchase: "reopen",
      refund: "unmatched",
    });
    expect(decidePayment(facts(), found({ blockNumber: 99 }))).toEqual({
      outcome: "reject",
      reason: "before-reservation",
      purchase: "reopen",
      refund: "unmatched",
    });
  });

  it("the listing sold to another purchase first: the purchase fails and the payment is listed", () => {
    expect(decidePayment(facts({ listingSold: true }), found())).toEqual({ outcome: "reject", reason: "listing-sold", purchase: "close", refund: "failed" });
    expect(decidePayment(facts({ listingSold: true }), found({ confirmations: 1 })).outcome).toBe("wait");
  });

  it("an initiated purchase settles the same way (the scan found the payment)", () => {
    expect(decidePayment(facts({ status: "initiated", hashIsCurrent: false }), found())).toEqual({ outcome: "settle", excess: 0n });
  });

  it("a late report of a payment mined in time settles", () => {
    expect(decidePayment(facts({ status: "initiated", hashIsCurrent: false, now: EXPIRES + 120_000 }), found({ minedAt: EXPIRES - 1 }))).toEqual({
      outcome: "settle",
      excess: 0n,
    });
  });

  it("paid after the purchase expired, was cancelled or failed, or reported late: listed as late once final", () => {
    for (const status of ["expired", "cancelled", "failed"] as const) {
      expect(decidePayment(facts({ status }), found())).toEqual({ outcome: "refund", reason: "late" });
    }
    expect(decidePayment(facts({ hashIsCurrent: false, now: EXPIRES + 1, status: "initiated" }), found({ minedAt: EXPIRES + 1 }))).toEqual({
      outcome: "refund",
      reason: "late",
    });
  });

  it("paid twice: the second payment of a paid purchase is a duplicate, listed once final", () => {
    expect(decidePayment(facts({ status: "completed" }), found())).toEqual({ outcome: "refund", reason: "duplicate" });
    expect(decidePayment(facts({ status: "verified" }), found())).toEqual({ outcome: "refund", reason: "duplicate" });
  });

  it("an extra payment's reference key and block do not matter: it is the buyer's money either way", () => {
    expect(decidePayment(facts({ status: "expired" }), found({ carriesReference: false, blockNumber: 1 }))).toEqual({ outcome: "refund", reason: "late" });
  });
});

describe("matchTransferToPurchase: two open reservations by one buyer", () => {
  const a = { id: "a", expected: 500n };
  const b = { id: "b", expected: 700n };
  const c = { id: "c", expected: 900n };
  it("the exact amount wins over age", () => expect(matchTransferToPurchase([a, b, c], 700n)).toBe(b));
  it("otherwise the oldest the amount covers", () => expect(matchTransferToPurchase([c, a, b], 800n)).toBe(a));
  it("covers means at least: an amount equal to an older one's price is exact", () => expect(matchTransferToPurchase([c, b], 900n)).toBe(c));
  it("otherwise the oldest (to be refused as underpaid)", () => expect(matchTransferToPurchase([b, c], 100n)).toBe(b));
  it("no candidates: no match", () => expect(matchTransferToPurchase([], 100n)).toBeNull());
});
