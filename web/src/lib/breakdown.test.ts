import { describe, expect, it } from "vitest";
import { BREAKDOWN_WORDS, breakdownRows } from "./breakdown";

describe("breakdownRows (the same rows, in the same words, on the listing and the purchase page)", () => {
  it("price + platform fees = paid to the platform; + the network fee estimate = total, exactly", () => {
    const rows = breakdownRows("0.00217", { exchangeFee: "0.0000217", commissionFee: "0.00002" }, "0.00002521");
    expect(rows.map((r) => [r.label, r.amount])).toEqual([
      ["Price", "0.00217"],
      ["Platform fees", "0.0000417"],
      ["Paid to the platform", "0.0022117"],
      ["Network fee (estimate, paid by your wallet)", "0.00002521"],
      ["Total", "0.00223691"],
    ]);
  });
  it("no fees: paid to the platform is the price; decimals that floats get wrong stay exact", () => {
    const rows = breakdownRows("0.1", { exchangeFee: "0", commissionFee: "0" }, "0.2");
    expect(rows.find((r) => r.key === "paidToPlatform")!.amount).toBe("0.1");
    expect(rows.find((r) => r.key === "total")!.amount).toBe("0.3");
  });
  it("a figure not known yet leaves what depends on it unknown, never a wrong total", () => {
    const noGas = breakdownRows("1", { exchangeFee: "0", commissionFee: "0.01" }, null);
    expect(noGas.find((r) => r.key === "paidToPlatform")!.amount).toBe("1.01");
    expect(noGas.find((r) => r.key === "total")!.amount).toBeNull();
    const noFees = breakdownRows("1", null, "0.001");
    expect(noFees.map((r) => r.amount)).toEqual(["1", null, null, "0.001", null]);
    expect(breakdownRows("x", { exchangeFee: "0", commissionFee: "0" }, "0").find((r) => r.key === "total")!.amount).toBeNull();
  });
  it("the words", () => {
    expect(Object.values(BREAKDOWN_WORDS)).toEqual(["Price", "Platform fees", "Paid to the platform", "Network fee (estimate, paid by your wallet)", "Total"]);
  });
});
