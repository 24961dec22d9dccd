import { describe, expect, it } from "vitest";
import { ethereumGasUnits, FALLBACK_GAS_FEE, type FeeConfig, feeBreakdownUnits, percentageFee, SOLANA_GAS_FEE } from "./fees";
import { decimalToUnits, decimalToUnits as u, unitsToDecimal } from "../../schema/money";

const FREE: FeeConfig = { exchangeFeePercentage: "0", commissionFeePercentage: "0", minimumFee: "0", maximumFee: null, gasFeeMultiplier: "1.20" };

describe("gas estimate", () => {
  it("21000 x gas price x 1.2, in ETH, rounded up to 1e-8", () => {
    // 21000 x 1 gwei x 1.2 = 25,200,000,000,000 wei = 0.0000252 ETH
    expect(unitsToDecimal(ethereumGasUnits(1_000_000_000n, "1.20"))).toBe("0.0000252");
    // 21000 x 30 gwei = 0.00063 ETH; x 1.2 = 0.000756
    expect(unitsToDecimal(ethereumGasUnits(30_000_000_000n, "1.2"))).toBe("0.000756");
    // 1 wei gas price still costs something: rounded up to one unit
    expect(ethereumGasUnits(1n, "1.20")).toBe(1n);
    expect(ethereumGasUnits(0n, "1.20")).toBe(0n);
  });
});

describe("percentage fees", () => {
  it("takes the percentage and holds it between minimum and maximum", () => {
    expect(percentageFee(u("1"), "2.5", "0", null)).toBe(u("0.025"));
    expect(percentageFee(u("1"), "2.5", "0.05", null)).toBe(u("0.05"));
    expect(percentageFee(u("100"), "2.5", "0", "1")).toBe(u("1"));
    expect(percentageFee(u("100"), "2.5", "0", "")).toBe(u("2.5"));
  });

  it("a 0% fee is never charged, whatever the minimum", () => {
    expect(percentageFee(u("1"), "0", "0.01", null)).toBe(0n);
  });
});

describe("the breakdown", () => {
  it("with the reference configuration (0% fees) the total is price + gas", () => {
    const b = feeBreakdownUnits(u("0.5"), FREE, u("0.0000252"));
    expect(b).toEqual({ listingPrice: u("0.5"), gasFee: u("0.0000252"), exchangeFee: 0n, commissionFee: 0n, totalAmount: u("0.5000252") });
  });

  it("adds both fees and applies the membership discount to the commission", () => {
    const config = { ...FREE, exchangeFeePercentage: "1", commissionFeePercentage: "2" };
    const b = feeBreakdownUnits(u("10"), config, u("0.0001"), "50");
    expect(b.exchangeFee).toBe(u("0.1"));
    expect(b.commissionFee).toBe(u("0.1"));
    expect(unitsToDecimal(b.totalAmount)).toBe("10.2001");
  });
});

describe("fee guards the mutation tests asked for", () => {
  const config = { exchangeFeePercentage: "0", commissionFeePercentage: "10", minimumFee: "0", maximumFee: null, gasFeeMultiplier: "1.20" };

  it("the spec's fixed gas figures", () => {
    expect(SOLANA_GAS_FEE).toBe("0.000005");
    expect(FALLBACK_GAS_FEE).toBe("0.0001");
  });

  it("a negative gas price is refused", () => {
    expect(() => ethereumGasUnits(-1n, "1.20")).toThrow("gas price must not be negative");
    expect(ethereumGasUnits(0n, "1.20")).toBe(0n);
  });

  it("the maximum caps a fee at exactly the maximum; a blank maximum means no cap", () => {
    const price = decimalToUnits("10");
    expect(percentageFee(price, "10", "0", "0.5")).toBe(decimalToUnits("0.5"));
    expect(percentageFee(price, "10", "0", "1")).toBe(decimalToUnits("1"));
    expect(percentageFee(price, "10", "0", "1.00000001")).toBe(decimalToUnits("1"));
    expect(percentageFee(price, "10", "0", "  ")).toBe(decimalToUnits("1"));
    expect(percentageFee(price, "10", "0", "")).toBe(decimalToUnits("1"));
  });

  it("the minimum lifts a fee to exactly the minimum, not a fee already above it", () => {
    const price = decimalToUnits("1");
    expect(percentageFee(price, "1", "0.02", null)).toBe(decimalToUnits("0.02"));
    expect(percentageFee(price, "1", "0.01", null)).toBe(decimalToUnits("0.01"));
    expect(percentageFee(price, "1", "0.005", null)).toBe(decimalToUnits("0.01"));
  });

  it("a membership discount of 100% or more waives the commission; just under 100% leaves a little", () => {
    const price = decimalToUnits("1");
    expect(feeBreakdownUnits(price, config, 0n, "100").commissionFee).toBe(0n);
    expect(feeBreakdownUnits(price, config, 0n, "150").commissionFee).toBe(0n);
    expect(feeBreakdownUnits(price, config, 0n, "99").commissionFee).toBe(decimalToUnits("0.001"));
    expect(feeBreakdownUnits(price, config, 0n, "0").commissionFee).toBe(decimalToUnits("0.1"));
  });
});
