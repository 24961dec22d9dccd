import { describe, expect, it } from "vitest";
import { amountToSend, parseBaseUnits, totalInBaseUnits } from "./payment-amount";

describe("payment amounts", () => {
  it("converts totals to wei and lamports exactly", () => {
    expect(totalInBaseUnits("ethereum", "0.00000001")).toBe(10_000_000_000n);
    expect(totalInBaseUnits("ethereum", "1.5")).toBe(1_500_000_000_000_000_000n);
    expect(totalInBaseUnits("ethereum", "0.1")).toBe(100_000_000_000_000_000n); // 0.1 is not exact as a float
    expect(totalInBaseUnits("solana", "12345678.12345678")).toBe(12_345_678_123_456_780n);
    expect(totalInBaseUnits("solana", "2.50000000")).toBe(2_500_000_000n);
  });
  it("refuses more decimals than a price has, and non-numbers", () => {
    expect(() => totalInBaseUnits("solana", "0.0000000001")).toThrow(/at most 8 decimals/);
    expect(() => totalInBaseUnits("ethereum", "1.2.3")).toThrow();
    expect(() => totalInBaseUnits("ethereum", "abc")).toThrow();
    expect(() => totalInBaseUnits("ethereum", "-1")).toThrow();
  });
  it("parses only plain digits", () => {
    expect(parseBaseUnits("123")).toBe(123n);
    for (const bad of ["", "1.5", "-1", "0x10", "1e18", " 1"]) expect(() => parseBaseUnits(bad)).toThrow();
  });
  it("sends exactly amountBaseUnits when it matches the total shown", () => {
    expect(amountToSend({ network: "ethereum", totalAmount: "0.00120000", amountBaseUnits: "1200000000000000" })).toBe(1_200_000_000_000_000n);
    expect(amountToSend({ network: "solana", totalAmount: "0.5", amountBaseUnits: "500000000" })).toBe(500_000_000n);
  });
  it("refuses to send when the server's two figures disagree, or nothing is due", () => {
    expect(() => amountToSend({ network: "ethereum", totalAmount: "0.0012", amountBaseUnits: "1200000000000001" })).toThrow(/does not match/);
    expect(() => amountToSend({ network: "solana", totalAmount: "0.5", amountBaseUnits: "500000000000000000" })).toThrow(/does not match/);
    expect(() => amountToSend({ network: "solana", totalAmount: "0", amountBaseUnits: "0" })).toThrow(/more than zero/);
  });
});
