import { describe, expect, it } from "vitest";
import { cancellable, orderStage } from "./order-stage";

describe("orderStage", () => {
  it("reads the order's status and its payment", () => {
    const found = "0x00000000000000000000000000000000000000aa";
    expect(orderStage({ status: "open", payment: null, address: null })).toBe("waiting");
    expect(orderStage({ status: "grinding", payment: null, address: null })).toBe("grinding");
    expect(orderStage({ status: "found", payment: null, address: found })).toBe("pay");
    expect(orderStage({ status: "found", payment: { transactionId: "t", status: "initiated" }, address: found })).toBe("paying");
    for (const status of ["pending", "verified", "completed"] as const)
      expect(orderStage({ status: "found", payment: { transactionId: "t", status }, address: found })).toBe("paid");
    expect(orderStage({ status: "delivered", payment: { transactionId: "t", status: "completed" }, address: found })).toBe("delivered");
    expect(orderStage({ status: "expired", payment: null, address: found })).toBe("expired");
    // not found by its grinding deadline: nothing was ever owed
    expect(orderStage({ status: "expired", payment: null, address: null })).toBe("unfilled");
    expect(orderStage({ status: "cancelled", payment: null, address: null })).toBe("cancelled");
  });

  it("an order can be cancelled only before any payment", () => {
    expect(["waiting", "grinding", "pay"].every((s) => cancellable(s as never))).toBe(true);
    expect(["paying", "paid", "delivered", "expired", "unfilled", "cancelled"].some((s) => cancellable(s as never))).toBe(false);
  });
});
