import { describe, expect, it } from "vitest";
import { STORE_GRINDER_RATES } from "../../../schema/grinder-rates";
import { REFERENCE_RATES, expectedTimeSeconds } from "./rates";
import { MAX_VALUE, VALUE_MAX_LOG2, VALUE_MODEL, estimateValue, valueInCoin } from "./value";

describe("estimateValue", () => {
  it("is the documented table (docs/rarity.md)", () => {
    expect(estimateValue(0, "ethereum")).toBe("0.001");
    expect(estimateValue(0, "solana")).toBe("0.02");
    expect(estimateValue(32, "ethereum")).toBe("0.00150047");
    expect(estimateValue(32, "solana")).toBe("0.03009726");
    expect(estimateValue(48, "ethereum")).toBe("0.03264601");
    expect(estimateValue(48, "solana")).toBe("6.40898045");
    expect(estimateValue(56, "ethereum")).toBe("7.91125264");
    expect(estimateValue(56, "solana")).toBe("1631.77649542");
  });

  it("is strictly increasing in difficulty, also at 8 decimals", () => {
    for (const network of ["ethereum", "solana"] as const) {
      let previous = -1;
      let previousText = "";
      for (let log2 = 0; log2 <= VALUE_MAX_LOG2; log2 += 0.25) {
        const value = valueInCoin(log2, network);
        const text = estimateValue(log2, network);
        expect(value).toBeGreaterThan(previous);
        expect(Number(text)).toBeGreaterThan(Number(previousText || "-1"));
        previous = value;
        previousText = text;
      }
    }
  });

  it("starts at the floor and adds the rented GPU time times the margin", () => {
    const log2 = 50;
    const { floor, usdPerCoin } = VALUE_MODEL.ethereum;
    const compute = ((2 ** log2 / VALUE_MODEL.rentedGpuKeysPerSecond.ethereum / 3600) * VALUE_MODEL.gpuUsdPerHour) / usdPerCoin;
    expect(valueInCoin(log2, "ethereum")).toBeCloseTo(floor * (1 + log2 / 64) + VALUE_MODEL.margin * compute, 10);
  });

  it("scales with the algorithm_adjustments multiplier", () => {
    for (const log2 of [0, 20, 40, 60]) {
      expect(valueInCoin(log2, "solana", 2)).toBeCloseTo(2 * valueInCoin(log2, "solana"), 9);
      expect(valueInCoin(log2, "ethereum", 0.5)).toBeCloseTo(0.5 * valueInCoin(log2, "ethereum"), 9);
    }
    expect(estimateValue(0, "ethereum", 1.5)).toBe("0.0015");
    expect(() => estimateValue(10, "ethereum", 0)).toThrow(RangeError);
    expect(() => estimateValue(10, "ethereum", Number.NaN)).toThrow(RangeError);
    expect(() => estimateValue(Number.NaN, "ethereum")).toThrow(RangeError);
  });

  it("returns a plain decimal with at most 8 decimals, bounded above", () => {
    for (const log2 of [0, 3.3, 17, 41.5, 77]) {
      expect(estimateValue(log2, "ethereum")).toMatch(/^\d+(\.\d{1,8})?$/);
      expect(estimateValue(log2, "solana")).toMatch(/^\d+(\.\d{1,8})?$/);
    }
    // Past 2^56 the value stops rising: the burn address 0x…dEaD (2^144) once showed 9,999,999,999.99999999 ETH.
    expect(estimateValue(144, "ethereum")).toBe(estimateValue(VALUE_MAX_LOG2, "ethereum"));
    expect(estimateValue(Infinity, "solana")).toBe("1631.77649542");
    expect(valueInCoin(200, "ethereum")).toBe(valueInCoin(VALUE_MAX_LOG2, "ethereum"));
    expect(estimateValue(-5, "ethereum")).toBe("0.001");
    // The column maximum still caps an absurd admin multiplier.
    expect(valueInCoin(VALUE_MAX_LOG2, "solana", 1e12)).toBe(MAX_VALUE);
    expect(estimateValue(VALUE_MAX_LOG2, "solana", 1e12)).toBe("9999999999.99999999");
  });
});

describe("reference rates", () => {
  it("are this store's grinder, the one declared figure, and turn attempts into expected seconds", () => {
    expect(REFERENCE_RATES).toBe(STORE_GRINDER_RATES);
    // 8 fixed hex characters: about 2.1 seconds on one GPU, 72 minutes on one CPU core of our grinder.
    expect(expectedTimeSeconds(2 ** 32, REFERENCE_RATES.ethereum.gpu)).toBeCloseTo(2.147483648, 9);
    expect(expectedTimeSeconds(2 ** 32, REFERENCE_RATES.ethereum.cpuCore) / 60).toBeCloseTo(71.58, 2);
    expect(() => expectedTimeSeconds(1, 0)).toThrow(RangeError);
    for (const rates of Object.values(REFERENCE_RATES)) expect(rates.gpu).toBeGreaterThan(rates.cpuCore);
  });
});
