import { describe, expect, it } from "vitest";
import { PRICE_MESSAGES } from "./listings";
import {
  baseUnitsInWords,
  changePercentage,
  checkPrice,
  decimalToUnits,
  formatBaseUnits,
  MAX_PRICE_UNITS,
  mulDiv,
  parseCoinAmount,
  paymentDifference,
  percentOf,
  unitsToBaseUnits,
  unitsToDecimal,
  unitsToNumber,
} from "./money";

describe("decimal <-> units", () => {
  it("converts exactly, both ways", () => {
    expect(decimalToUnits("1")).toBe(100_000_000n);
    expect(decimalToUnits("0.00000001")).toBe(1n);
    expect(decimalToUnits("0.1")).toBe(10_000_000n);
    expect(decimalToUnits("123456789.12345678")).toBe(12_345_678_912_345_678n);
    expect(unitsToDecimal(1n)).toBe("0.00000001");
    expect(unitsToDecimal(150_000_000n)).toBe("1.5");
    expect(unitsToDecimal(0n)).toBe("0");
    expect(unitsToDecimal(-5n)).toBe("-0.00000005");
    expect(unitsToDecimal(12_345_678_912_345_678n)).toBe("123456789.12345678");
  });

  it("round-trips where floats would not (0.1 + 0.2)", () => {
    expect(unitsToDecimal(decimalToUnits("0.1") + decimalToUnits("0.2"))).toBe("0.3");
  });

  it("refuses more than 8 decimals, signs and garbage", () => {
    for (const bad of ["0.000000001", "-1", "+1", "abc", "", ".", "1.2.3", "0x10", "1e"]) expect(() => decimalToUnits(bad), bad).toThrow(RangeError);
  });
});

describe("mulDiv, percentOf, changePercentage", () => {
  it("rounds as asked", () => {
    expect(mulDiv(10n, 1n, 3n, "down")).toBe(3n);
    expect(mulDiv(10n, 1n, 3n, "up")).toBe(4n);
    expect(mulDiv(10n, 1n, 4n, "half-up")).toBe(3n); // 2.5 -> 3
    expect(mulDiv(9n, 1n, 4n, "half-up")).toBe(2n); // 2.25 -> 2
    expect(mulDiv(8n, 1n, 4n, "up")).toBe(2n);
  });

  it("takes percentages of amounts exactly", () => {
    expect(percentOf(decimalToUnits("1"), "2.5")).toBe(decimalToUnits("0.025"));
    expect(percentOf(decimalToUnits("0.00000001"), "50")).toBe(1n); // half a unit rounds up
    expect(percentOf(decimalToUnits("3"), "0")).toBe(0n);
  });

  it("reports price changes in percent with two decimals", () => {
    expect(changePercentage(decimalToUnits("1"), decimalToUnits("1.5"))).toBe("50.00");
    expect(changePercentage(decimalToUnits("2"), decimalToUnits("1"))).toBe("-50.00");
    expect(changePercentage(decimalToUnits("3"), decimalToUnits("4"))).toBe("33.33");
    expect(changePercentage(decimalToUnits("3"), decimalToUnits("2"))).toBe("-33.33");
    expect(changePercentage(decimalToUnits("1"), decimalToUnits("1"))).toBe("0.00");
    expect(changePercentage(0n, 5n)).toBeNull();
  });
});

describe("checkPrice: the spec's rules and messages", () => {
  const message = (input: unknown) => {
    const r = checkPrice(input);
    return r.ok ? null : r.message;
  };

  it("accepts numbers and numeric strings, canonically", () => {
    expect(checkPrice("0.50")).toEqual({ ok: true, price: "0.5", units: 50_000_000n });
    expect(checkPrice(" 2 ")).toEqual({ ok: true, price: "2", units: 200_000_000n });
    expect(checkPrice(0.1)).toEqual({ ok: true, price: "0.1", units: 10_000_000n });
    expect(checkPrice(1e-7)).toEqual({ ok: true, price: "0.0000001", units: 10n });
    expect(checkPrice("1e-8")).toEqual({ ok: true, price: "0.00000001", units: 1n });
    expect(checkPrice(".5")).toMatchObject({ ok: true, price: "0.5" });
    expect(checkPrice("1.500000000000")).toMatchObject({ ok: true, price: "1.5" });
    expect(checkPrice("90000000")).toMatchObject({ ok: true, units: MAX_PRICE_UNITS });
  });

  it("required", () => {
    for (const v of [undefined, null, "", "   "]) expect(message(v)).toBe(PRICE_MESSAGES.required);
  });

  it("no minus sign", () => {
    for (const v of ["-1", "-0", -0, -0.5, " -3"]) expect(message(v)).toBe(PRICE_MESSAGES.negative);
  });

  it("a number above 0", () => {
    for (const v of [0, "0", "0.00000000", "abc", "1,5", "0x10", "NaN", "Infinity", Infinity, NaN, true, {}, [], "1 2", "1e", "\u00001", "x".repeat(1000)]) {
      expect(message(v), JSON.stringify(v)).toBe(PRICE_MESSAGES.positive);
    }
  });

  it("at most 8 decimals and at most 90,000,000", () => {
    expect(message("0.000000001")).toBe(PRICE_MESSAGES.decimals);
    expect(message(1.5e-9)).toBe(PRICE_MESSAGES.decimals);
    expect(message("1e-9999")).toBe(PRICE_MESSAGES.decimals);
    expect(message("90000000.00000001")).toBe(PRICE_MESSAGES.tooLarge);
    expect(message("1e9999")).toBe(PRICE_MESSAGES.tooLarge);
    expect(message(1e21)).toBe(PRICE_MESSAGES.tooLarge);
  });
});

describe("guards the mutation tests asked for", () => {
  it("a price with more than 8 decimals is refused, by message, however it is written", () => {
    for (const text of ["0.000000001", "1.123456789", "1e-9", "12345e-12"]) expect(() => decimalToUnits(text), text).toThrow("at most 8 decimals");
    expect(checkPrice("1.123456789")).toEqual({ ok: false, message: PRICE_MESSAGES.decimals });
    expect(checkPrice("1e-9")).toEqual({ ok: false, message: PRICE_MESSAGES.decimals });
  });

  it("trailing zeros are not decimals, leading zeros are not digits, exponents are exact", () => {
    expect(decimalToUnits("1.12345678000")).toBe(112_345_678n);
    expect(decimalToUnits("0.0000000000")).toBe(0n);
    expect(decimalToUnits("1e3")).toBe(100_000_000_000n);
    expect(decimalToUnits("1E-8")).toBe(1n);
    expect(decimalToUnits("100")).toBe(10_000_000_000n);
    expect(decimalToUnits(" 1.5 ")).toBe(150_000_000n);
    expect(checkPrice("0000000001.5")).toEqual({ ok: true, price: "1.5", units: 150_000_000n });
    expect(checkPrice("000000000090000000")).toEqual({ ok: true, price: "90000000", units: MAX_PRICE_UNITS });
    expect(checkPrice("0.0")).toEqual({ ok: false, message: PRICE_MESSAGES.positive });
    expect(checkPrice("0e5")).toEqual({ ok: false, message: PRICE_MESSAGES.positive });
    expect(checkPrice("9e7")).toEqual({ ok: true, price: "90000000", units: MAX_PRICE_UNITS });
    expect(checkPrice("9.00000001e7")).toEqual({ ok: false, message: PRICE_MESSAGES.tooLarge });
    expect(checkPrice("1e8")).toEqual({ ok: false, message: PRICE_MESSAGES.tooLarge });
  });

  it("JSON-impossible numbers and over-long texts are refused before parsing", () => {
    expect(checkPrice(-Infinity)).toEqual({ ok: false, message: PRICE_MESSAGES.positive });
    expect(checkPrice(Number.NaN)).toEqual({ ok: false, message: PRICE_MESSAGES.positive });
    expect(checkPrice(`${"0".repeat(39)}1`)).toEqual({ ok: true, price: "1", units: 100_000_000n }); // 40 characters: read
    expect(checkPrice(`${"0".repeat(40)}1`)).toEqual({ ok: false, message: PRICE_MESSAGES.positive }); // 41: refused unread
  });

  it("anything but a string is refused as a decimal", () => {
    expect(() => decimalToUnits(5 as unknown as string)).toThrow(RangeError);
    expect(() => decimalToUnits(null as unknown as string)).toThrow(RangeError);
  });

  it("mulDiv refuses a negative factor and a divisor that is not positive", () => {
    expect(() => mulDiv(-1n, 1n, 1n, "down")).toThrow("mulDiv expects");
    expect(() => mulDiv(1n, -1n, 1n, "down")).toThrow("mulDiv expects");
    expect(() => mulDiv(1n, 1n, 0n, "down")).toThrow("mulDiv expects");
    expect(() => mulDiv(1n, 1n, -1n, "down")).toThrow("mulDiv expects");
    expect(mulDiv(0n, 0n, 1n, "up")).toBe(0n);
  });

  it("down, up and half-up differ where they should", () => {
    expect(mulDiv(5n, 1n, 3n, "down")).toBe(1n); // 1.67
    expect(mulDiv(5n, 1n, 3n, "half-up")).toBe(2n);
    expect(mulDiv(4n, 1n, 3n, "up")).toBe(2n); // 1.33
    expect(mulDiv(4n, 1n, 3n, "half-up")).toBe(1n);
    expect(mulDiv(6n, 1n, 3n, "up")).toBe(2n); // exact: no rounding
  });

  it("a change too small to show is 0.00, never -0.00; a fall is negative", () => {
    expect(changePercentage(100_000_000n, 99_999_999n)).toBe("0.00");
    expect(changePercentage(100_000_000n, 99_990_000n)).toBe("-0.01");
    expect(changePercentage(100_000_000n, 100_005_000n)).toBe("0.01"); // 0.005 rounds half up
    expect(changePercentage(-5n, 5n)).toBeNull();
  });

  it("units fit D1 exactly or are refused", () => {
    expect(unitsToNumber(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => unitsToNumber(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toThrow(RangeError);
    expect(() => unitsToNumber(-BigInt(Number.MAX_SAFE_INTEGER) - 1n)).toThrow(RangeError);
    expect(unitsToNumber(-BigInt(Number.MAX_SAFE_INTEGER))).toBe(-Number.MAX_SAFE_INTEGER);
  });

  it("wei and lamports from units: x 1e10 and x 10, never negative", () => {
    expect(unitsToBaseUnits(1n, "ETH")).toBe(10_000_000_000n);
    expect(unitsToBaseUnits(123_456_789n, "SOL")).toBe(1_234_567_890n);
    expect(unitsToBaseUnits(0n, "ETH")).toBe(0n);
    expect(() => unitsToBaseUnits(-1n, "SOL")).toThrow(RangeError);
  });
});

describe("chain base units, exactly", () => {
  it("formatBaseUnits shows every digit and trims trailing zeros", () => {
    expect(formatBaseUnits(999_999_999_999_999n, "ETH")).toBe("0.000999999999999999");
    expect(formatBaseUnits(1_000_000_000_000_000n, "ETH")).toBe("0.001");
    expect(formatBaseUnits(1n, "ETH")).toBe("0.000000000000000001");
    expect(formatBaseUnits(0n, "ETH")).toBe("0");
    expect(formatBaseUnits(12_000_000_000_000_000_000n, "ETH")).toBe("12");
    expect(formatBaseUnits(10_000_000n, "SOL")).toBe("0.01");
    expect(formatBaseUnits(9_999_999n, "SOL")).toBe("0.009999999");
    expect(formatBaseUnits(1_500_000_001n, "SOL")).toBe("1.500000001");
    expect(formatBaseUnits(-5n, "SOL")).toBe("-0.000000005");
    expect(formatBaseUnits(-2_000_000_000n, "SOL")).toBe("-2");
  });

  it("parseCoinAmount reads a plain decimal exactly, and nothing else", () => {
    expect(parseCoinAmount("0.00001", "ETH")).toBe(10_000_000_000_000n);
    expect(parseCoinAmount(" 0.00001 ", "SOL")).toBe(10_000n);
    expect(parseCoinAmount("1", "SOL")).toBe(1_000_000_000n);
    expect(parseCoinAmount("0.000000000000000001", "ETH")).toBe(1n);
    expect(parseCoinAmount("0.000000001", "SOL")).toBe(1n);
    expect(parseCoinAmount("0", "ETH")).toBe(0n);
    for (const bad of ["", "-1", "1e-5", ".5", "5.", "0.0000000001", "abc", "1,5", "1".repeat(31)]) expect(parseCoinAmount(bad, "SOL")).toBeNull();
    expect(parseCoinAmount("0.0000000000000000001", "ETH")).toBeNull();
    expect(parseCoinAmount("1".repeat(30), "ETH")).toBe(BigInt("1".repeat(30)) * 10n ** 18n);
  });

  it("paymentDifference states the difference exactly, in the base unit when it is small", () => {
    expect(paymentDifference(999_999_999_999_999n, 1_000_000_000_000_000n, "ETH")).toBe("paid 1 wei less");
    expect(paymentDifference(1_000_000_000_000_002n, 1_000_000_000_000_000n, "ETH")).toBe("paid 2 wei more");
    expect(paymentDifference(10_000_000n, 10_000_000n, "SOL")).toBe("paid exactly the amount due");
    expect(paymentDifference(9_999_000n, 10_000_000n, "SOL")).toBe("paid 1,000 lamports less");
    expect(paymentDifference(10_000_001n, 10_000_000n, "SOL")).toBe("paid 1 lamport more");
    expect(paymentDifference(0n, 999_999n, "SOL")).toBe("paid 999,999 lamports less");
    expect(paymentDifference(0n, 1_000_000n, "SOL")).toBe("paid 0.001 SOL less");
    expect(paymentDifference(500_000_000_000_000_000n, 0n, "ETH")).toBe("paid 0.5 ETH more");
    expect(baseUnitsInWords(1n, "ETH")).toBe("1 wei");
    expect(baseUnitsInWords(1n, "SOL")).toBe("1 lamport");
    expect(baseUnitsInWords(2n, "SOL")).toBe("2 lamports");
  });
});
