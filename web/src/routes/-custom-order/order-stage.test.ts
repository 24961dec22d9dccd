import { describe, expect, it } from "vitest";
import { cancellable, orderStage } from "./order-stage";

describe("orderStage", () => {
  it("reads the order's status and its payment", () => {
    expect(orderStage({ status: "open", payment: null })).toBe("waiting");
    expect(orderStage({ status: "grinding", payment: null })).toBe("grinding");
    expect(orderStage({ status: "found", payment: null })).toBe("pay");
    expect(orderStage({ status: "found", payment: { transactionId: "t", status: "initiated" } })).toBe("paying");
    for (const status of ["pending", "verified", "completed"] as const)
      expect(orderStage({ status: "found", payment: { transactionId: "t", status } })).toBe("paid");
    expect(orderStage({ status: "delivered", payment: { transactionId: "t", status: "completed" } })).toBe("delivered");
    expect(orderStage({ status: "expired", payment: null })).toBe("expired");
    expect(orderStage({ status: "cancelled", payment: null })).toBe("cancelled");
  });

  it("an order can be cancelled only before any payment", () => {
    expect(["waiting", "grinding", "pay"].every((s) => cancellable(s as never))).toBe(true);
    expect(["paying", "paid", "delivered", "expired", "cancelled"].some((s) => cancellable(s as never))).toBe(false);
  });
});
