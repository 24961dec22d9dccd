import { describe, expect, it } from "vitest";
import type { AttentionPayment } from "../../../schema/admin-payments";
import { refundFields } from "./refund-fields";

const payment = (over: Partial<AttentionPayment>): AttentionPayment => ({
  id: "e1",
  transactionId: "t1",
  network: "ethereum",
  amount: "0.000999999999999999",
  currency: "ETH",
  expectedAmount: "0.001",
  amountBaseUnits: "999999999999999",
  expectedBaseUnits: "1000000000000000",
  refundBaseUnits: "999999999999999",
  senderAddress: "0xabc",
  txHash: "0x12",
  reason: "partial",
  status: "refund",
  createdAt: "2026-01-01T00:00:00.000Z",
  explorerUrl: null,
  checkFailure: null,
  checkedAt: null,
  ...over,
});
const shown = (p: AttentionPayment) => Object.fromEntries(refundFields(p).fields.map((f) => [f.label, f.value]));

describe("Admin > Payments: the fields of a payment listed for refund", () => {
  it("partial: every digit, and the difference in words (the issue's 0.001 against 0.001)", () => {
    expect(shown(payment({}))).toEqual({
      Received: "0.000999999999999999 ETH",
      Due: "0.001 ETH",
      Difference: "paid 1 wei less",
      "To refund": "0.000999999999999999 ETH",
    });
    expect(refundFields(payment({})).showPurchase).toBe(true);
  });

  it("partial on Solana: 0.009999999 against 0.01 SOL", () => {
    const p = payment({ network: "solana", currency: "SOL", amountBaseUnits: "9999999", expectedBaseUnits: "10000000", refundBaseUnits: "9999999" });
    expect(shown(p)).toEqual({ Received: "0.009999999 SOL", Due: "0.01 SOL", Difference: "paid 1 lamport less", "To refund": "0.009999999 SOL" });
  });

  it("over: what is owed back is the excess, not what arrived", () => {
    const p = payment({ reason: "over", amountBaseUnits: "1500000000000000", refundBaseUnits: "500000000000000" });
    expect(shown(p)).toEqual({ Received: "0.0015 ETH", Due: "0.001 ETH", Difference: "paid 0.0005 ETH more", "To refund": "0.0005 ETH" });
  });

  it("late: what was due, no difference (all of it goes back)", () => {
    const p = payment({ reason: "late", amountBaseUnits: "1000000000000000", refundBaseUnits: "1000000000000000" });
    expect(shown(p)).toEqual({ Received: "0.001 ETH", Due: "0.001 ETH", "To refund": "0.001 ETH" });
  });

  it("duplicate and failed: the purchase, no amount due", () => {
    for (const reason of ["duplicate", "failed"] as const) {
      expect(Object.keys(shown(payment({ reason, refundBaseUnits: "999999999999999" })))).toEqual(["Received", "To refund"]);
      expect(refundFields(payment({ reason })).showPurchase).toBe(true);
    }
  });

  it("unmatched and indirect match no purchase: no amount due, no purchase link, even when a purchase is recorded", () => {
    for (const reason of ["unmatched", "indirect"] as const) {
      expect(Object.keys(shown(payment({ reason })))).toEqual(["Received", "To refund"]);
      expect(refundFields(payment({ reason })).showPurchase).toBe(false);
    }
    expect(refundFields(payment({ reason: "late", transactionId: null })).showPurchase).toBe(false);
  });
});
