import { describe, expect, it } from "vitest";
import { formatCount, formatNumber, formatPrice, formatPriceTrimmed, formatUsd, groupDigits, usdText } from "./number-format";

describe("numbers", () => {
  it("6 decimals under 1, else 4", () => {
    expect(formatNumber(0.5)).toBe("0.500000");
    expect(formatNumber("0.123456789")).toBe("0.123457");
    expect(formatNumber(0.9999999)).toBe("1.000000");
    expect(formatNumber(1)).toBe("1.0000");
    expect(formatNumber(1234.56789)).toBe("1234.5679");
    expect(formatNumber(-0.25)).toBe("-0.250000");
    expect(formatNumber("abc")).toBe("0");
  });

  it("prices: 8 decimals, exact for decimal strings", () => {
    expect(formatPrice("1.5")).toBe("1.50000000");
    expect(formatPrice("0.00001")).toBe("0.00001000");
    expect(formatPrice("123456789012.12345678")).toBe("123456789012.12345678");
    expect(formatPrice(0.1 + 0.2)).toBe("0.30000000");
    expect(formatPrice("2")).toBe("2.00000000");
    expect(formatPrice(".5")).toBe("0.50000000");
    expect(formatPrice("0.999999999")).toBe("1.00000000");
  });

  it("negative prices show as absolute values with 8 decimals", () => {
    expect(formatPrice("-1.5")).toBe("1.50000000");
    expect(formatPrice(-0.00000001)).toBe("0.00000001");
  });

  it("garbage shows as zero", () => {
    for (const bad of ["", "abc", "1.2.3", "1e5", Number.NaN, Infinity]) expect(formatPrice(bad as string)).toBe("0.00000000");
  });

  it("detail page: trailing zeros trimmed", () => {
    expect(formatPriceTrimmed("1.50000000")).toBe("1.5");
    expect(formatPriceTrimmed("2.0")).toBe("2");
    expect(formatPriceTrimmed("0.00012300")).toBe("0.000123");
    expect(formatPriceTrimmed("-3.10")).toBe("3.1");
    expect(formatPriceTrimmed("0.123456789")).toBe("0.12345679");
  });

  it("USD", () => {
    expect(formatUsd(3796)).toBe("$3,796.00");
    // Rounded to cents everywhere, including a purchase total.
    expect(formatUsd(6.302878)).toBe("$6.30");
    expect(formatUsd(12.3456789)).toBe("$12.35");
    expect(formatUsd(0.004)).toBe("<$0.01");
    expect(formatUsd(0)).toBe("$0.00");
  });

  it("usdText: one figure for one price at one rate, worded as the Worker words formattedUsd", () => {
    const rates = { ethPrice: 3796, solPrice: 184 };
    expect(usdText("0.001", "ETH", rates)).toBe("$3.80");
    expect(usdText("2", "SOL", rates)).toBe("$368.00");
    expect(usdText("1000", "ETH", rates)).toBe("$3,796,000.00");
    expect(usdText("0.000001", "ETH", rates)).toBe("<$0.01");
    expect(usdText("0", "ETH", rates)).toBe("$0.00");
    expect(usdText("x", "ETH", rates)).toBe("$0.00");
  });
});

// number-format.ts writes these out instead of using Intl (ICU's start-up is a long task on the landing pages): they
// must read exactly as Intl's en-US formatters would.
describe("figures written without Intl read as Intl's en-US formatters", () => {
  const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
  const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
  const samples = [0, 0.01, 0.015, 0.125, 0.5, 1, 1.005, 9.995, 12.3456, 999.995, 1000, 1234.5, 99999.999, 1e6, 123456789.987, 2 ** 40 + 0.49];

  it("formatUsd and groupDigits", () => {
    for (const n of [...samples, ...samples.map((x) => -x)]) {
      if (n > 0 && n < 0.01) continue;
      expect(formatUsd(n), String(n)).toBe(usd.format(n));
    }
    expect(groupDigits(1234567.891, 2)).toBe("1,234,567.89");
    expect(groupDigits(-999)).toBe("-999");
  });

  it("formatCount", () => {
    for (const n of [0, 7, 999, 1000, 10000, 123456, 1234567, 10 ** 12, 4.4, 4.5]) expect(formatCount(n), String(n)).toBe(whole.format(n));
    expect(formatCount(Number.NaN)).toBe("NaN");
  });
});
