import { describe, expect, it } from "vitest";
import { feePercent, formNetwork, sellerReceives } from "./form-rules";

describe("fee preview", () => {
  it("seller receives price minus fees, not below 0", () => {
    expect(sellerReceives("1", ["0", "0", "0.001"])).toBe("0.99900000");
    expect(sellerReceives("0.0001", ["0", "0", "0.001"])).toBe("0.00000000");
    expect(feePercent("0", "1")).toBe("0%");
    expect(feePercent("0.025", "1")).toBe("2.5%");
    expect(feePercent("1", "0")).toBe("0%");
  });
});

describe("formNetwork", () => {
  it("the address's network wins at once over the select", () => {
    expect(formNetwork("0x1234567890123456789012345678901234567890", "solana")).toEqual({ network: "ethereum", locked: true });
    expect(formNetwork("  7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV  ", "ethereum")).toEqual({ network: "solana", locked: true });
  });

  it("the seller's choice stands while the address says nothing yet", () => {
    expect(formNetwork("", "solana")).toEqual({ network: "solana", locked: false });
    expect(formNetwork("0x12", "solana")).toEqual({ network: "solana", locked: false });
  });
});
