import { describe, expect, it } from "vitest";
import { decidePayment, matchTransferToPurchase, MISSING_PAYMENT_GRACE_MS, type PaymentObservation, type PurchaseFacts } from "./payment-decision";

const NOW = 1_800_000_000_000;
const facts = (over: Partial<PurchaseFacts> = {}): PurchaseFacts => ({
  status: "pending",
  expected: 1_000n,
  requiredConfirmations: 3,
  expiresAt: NOW + 60_000,
  reportedAt: NOW - 1_000,
  lastSeenBlock: null,
  hashPaidAnotherPurchase: false,
  hashPaidThisPurchase: false,
  now: NOW,
  ...over,
});
const found = (over: Partial<Extract<PaymentObservation, { kind: "found" }>> = {}): PaymentObservation => ({
  kind: "found",
  succeeded: true,
  onExpectedChain: true,
  fromBuyer: true,
  toPlatform: true,
  carriesReference: true,
  amount: 1_000n,
  confirmations: 3,
  block: "0xb1",
  ...over,
});

describe("decidePayment: the node cannot tell", () => {
  it("an unavailable node leaves the purchase waiting, whatever the time", () => {
    expect(decidePayment(facts({ now: NOW + 10 * 86_400_000 }), { kind: "unavailable" })).toEqual({
      outcome: "wait",
      note: "node-unavailable",
      confirmations: 0,
      holdEscrow: false,
    });
  });

  it("a hash the node does not know waits until the grace after expiry, then fails as not found", () => {
    const p = facts({ reportedAt: NOW - 5_000 });
    const edge = p.expiresAt + MISSING_PAYMENT_GRACE_MS;
    expect(decidePayment({ ...p, now: edge }, { kind: "missing" })).toEqual({ outcome: "wait", note: "not-found-yet", confirmations: 0, holdEscrow: false });
    expect(decidePayment({ ...p, now: edge + 1 }, { kind: "missing" })).toEqual({ outcome: "reject", reason: "not-found", closePurchase: true, refund: null });
  });

  it("a report made after expiry gets the grace from the report, not from the expiry", () => {
    const p = facts({ expiresAt: NOW - 100_000, reportedAt: NOW });
    expect(decidePayment({ ...p, now: NOW + MISSING_PAYMENT_GRACE_MS }, { kind: "missing" }).outcome).toBe("wait");
    expect(decidePayment({ ...p, now: NOW + MISSING_PAYMENT_GRACE_MS + 1 }, { kind: "missing" }).outcome).toBe("reject");
  });

  it("a never-reported purchase counts the grace from its expiry", () => {
    const p = facts({ reportedAt: null });
    expect(decidePayment({ ...p, now: p.expiresAt + MISSING_PAYMENT_GRACE_MS }, { kind: "missing" }).outcome).toBe("wait");
    expect(decidePayment({ ...p, now: p.expiresAt + MISSING_PAYMENT_GRACE_MS + 1 }, { kind: "missing" }).outcome).toBe("reject");
  });

  it("a payment seen before and now gone is a reorg: waits, then fails as reorged", () => {
    const p = facts({ lastSeenBlock: "0xb1" });
    expect(decidePayment(p, { kind: "missing" })).toEqual({ outcome: "wait", note: "reorged", confirmations: 0, holdEscrow: false });
    expect(decidePayment({ ...p, now: p.expiresAt + MISSING_PAYMENT_GRACE_MS + 1 }, { kind: "missing" })).toEqual({
      outcome: "reject",
      reason: "reorged",
      closePurchase: true,
      refund: null,
    });
  });
});

describe("decidePayment: a transaction that does not pay this purchase", () => {
  const cases: [string, Partial<Extract<PaymentObservation, { kind: "found" }>>, string][] = [
    ["reverted", { succeeded: false }, "reverted"],
    ["on another chain", { onExpectedChain: false }, "wrong-chain"],
    ["to someone else", { toPlatform: false }, "wrong-recipient"],
    ["from another wallet", { fromBuyer: false }, "wrong-sender"],
    ["without the reference key", { carriesReference: false }, "missing-reference"],
  ];
  for (const [name, over, reason] of cases) {
    it(`${name}: refused as ${reason}; the reservation stays payable before expiry`, () => {
      expect(decidePayment(facts(), found(over))).toEqual({ outcome: "reject", reason, closePurchase: false, refund: null });
    });
    it(`${name}: after expiry the purchase fails`, () => {
      expect(decidePayment(facts({ now: NOW + 60_001 }), found(over))).toEqual({ outcome: "reject", reason, closePurchase: true, refund: null });
    });
  }

  it("at the exact expiry instant the reservation is still payable", () => {
    expect(decidePayment(facts({ now: NOW + 60_000 }), found({ succeeded: false }))).toMatchObject({ closePurchase: false });
  });

  it("a closed purchase stays closed even before its expiry time", () => {
    for (const status of ["failed", "cancelled", "expired", "completed"] as const) {
      expect(decidePayment(facts({ status }), found({ toPlatform: false }))).toMatchObject({ outcome: "reject", closePurchase: true });
    }
  });

  it("a hash that already paid another purchase is refused (the earlier verifier wins)", () => {
    expect(decidePayment(facts({ hashPaidAnotherPurchase: true }), found())).toEqual({ outcome: "reject", reason: "hash-used", closePurchase: false, refund: null });
  });

  it("checks run in order: a reverted transfer is reverted even when every other fact is wrong too", () => {
    const all = { succeeded: false, onExpectedChain: false, toPlatform: false, fromBuyer: false, carriesReference: false };
    expect(decidePayment(facts({ hashPaidAnotherPurchase: true }), found(all))).toMatchObject({ reason: "reverted" });
    expect(decidePayment(facts(), found({ ...all, succeeded: true }))).toMatchObject({ reason: "wrong-chain" });
    expect(decidePayment(facts(), found({ ...all, succeeded: true, onExpectedChain: true }))).toMatchObject({ reason: "wrong-recipient" });
    expect(decidePayment(facts(), found({ succeeded: true, fromBuyer: false, carriesReference: false }))).toMatchObject({ reason: "wrong-sender" });
    expect(decidePayment(facts({ hashPaidAnotherPurchase: true }), found({ carriesReference: false }))).toMatchObject({ reason: "missing-reference" });
  });
});

describe("decidePayment: the buyer really paid", () => {
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

  it("underpaid by one base unit fails the purchase and lists the money for refund", () => {
    expect(decidePayment(facts(), found({ amount: 999n }))).toEqual({ outcome: "reject", reason: "underpaid", closePurchase: true, refund: "partial" });
  });

  it("the amount is only judged at depth (a shallow underpayment still waits)", () => {
    expect(decidePayment(facts(), found({ amount: 1n, confirmations: 1 })).outcome).toBe("wait");
  });

  it("an initiated purchase settles the same way (the scan found the payment)", () => {
    expect(decidePayment(facts({ status: "initiated", reportedAt: null }), found())).toEqual({ outcome: "settle", excess: 0n });
    expect(decidePayment(facts({ status: "verified" }), found())).toEqual({ outcome: "refund", reason: "duplicate" });
  });

  it("paid after the purchase expired, was cancelled or failed: listed for refund as late", () => {
    for (const status of ["expired", "cancelled", "failed"] as const) {
      expect(decidePayment(facts({ status }), found({ confirmations: 0 }))).toEqual({ outcome: "refund", reason: "late" });
    }
  });

  it("paid twice: the second payment of a completed purchase is a duplicate for refund", () => {
    expect(decidePayment(facts({ status: "completed" }), found())).toEqual({ outcome: "refund", reason: "duplicate" });
  });

  it("the hash that completed this purchase is simply done", () => {
    expect(decidePayment(facts({ status: "completed", hashPaidThisPurchase: true }), found())).toEqual({ outcome: "done" });
  });
});

describe("decidePayment: constants and rare states", () => {
  it("a hash the node does not know keeps the listing 10 minutes past expiry", () => expect(MISSING_PAYMENT_GRACE_MS).toBe(600_000));
  it("a bad report on a verified purchase does not close it", () => {
    expect(decidePayment(facts({ status: "verified" }), found({ toPlatform: false }))).toMatchObject({ outcome: "reject", closePurchase: false });
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
