import { describe, expect, it } from "vitest";
import { FALLBACK_RATES, fallbackPrices, formatUsd, parseFeedPrices, round8, unitsToEth, usdValue } from "./prices";

describe("parseFeedPrices", () => {
  it.each([
    [{ ethPrice: 3000.5, solPrice: 150 }],
    [{ ethereum: { usd: 3000.5 }, solana: { usd: 150 } }],
    [{ ETH: "3000.5", SOL: "150" }],
    [{ ETH: { USD: 3000.5 }, SOL: { USD: 150 } }],
  ])("reads %j", (body) => {
    expect(parseFeedPrices(body)).toEqual({ ethPrice: 3000.5, solPrice: 150 });
  });

  it.each([
    null,
    "3000",
    [],
    {},
    { ethPrice: 3000 },
    { ethPrice: 0, solPrice: 150 },
    { ethPrice: -1, solPrice: 150 },
    { ethPrice: 3000, solPrice: Number.NaN },
    { ethPrice: 3000, solPrice: "" },
    { ethPrice: 3000, solPrice: "12abc" },
    { ethPrice: 1e7, solPrice: 150 },
    { ethereum: { usd: null }, solana: { usd: 150 } },
  ])("refuses %j", (body) => {
    expect(parseFeedPrices(body)).toBeNull();
  });
});

describe("USD figures", () => {
  it("fallback is the spec's card rates", () => {
    expect(fallbackPrices()).toEqual({ ethPrice: 3796, solPrice: 184, source: "fallback", updatedAt: null });
  });

  it("values and formats", () => {
    expect(usdValue("1.5", "ETH", FALLBACK_RATES)).toBe(5694);
    expect(usdValue("0.1", "SOL", FALLBACK_RATES)).toBe(18.4);
    expect(usdValue("nonsense", "ETH", FALLBACK_RATES)).toBe(0);
    expect(formatUsd("1.5", "ETH", FALLBACK_RATES)).toBe("$5,694.00");
    expect(formatUsd("0.00001", "ETH", FALLBACK_RATES)).toBe("$0.04");
    expect(formatUsd("0.000001", "ETH", FALLBACK_RATES)).toBe("<$0.01");
    expect(formatUsd("0", "ETH", FALLBACK_RATES)).toBe("$0.00");
  });

  it("converts units to ETH at the rates", () => {
    expect(unitsToEth(150_000_000, "ETH", FALLBACK_RATES)).toBe(1.5);
    expect(round8(unitsToEth(1_000_000_000, "SOL", { ethPrice: 2000, solPrice: 100 }))).toBe(0.5);
    expect(round8(0.123456789)).toBe(0.12345679);
  });
});

// One USD figure for one price. The web app words every USD figure with usdText; the Worker words a
// listing's formattedUsd with formatUsd. Same rates, same rounding, same text, over amounts around every edge.
import { usdText } from "../../web/src/lib/number-format";
import { FALLBACK_USD_RATES } from "../../schema/prices";

describe("the web's usdText and the Worker's formatUsd agree", () => {
  const amounts = [
    "0",
    "0.00000001",
    "0.000001",
    "0.0000013",
    "0.0000026",
    "0.001",
    "0.00123",
    "0.00219521",
    "0.01",
    "0.5",
    "1",
    "2.5",
    "1234.5678",
    "90000000",
  ];
  const rateSets = [FALLBACK_USD_RATES, { ethPrice: 3801.37, solPrice: 151.09 }, { ethPrice: 1, solPrice: 0.5 }];
  it.each(rateSets)("at %j", (rates) => {
    for (const currency of ["ETH", "SOL"] as const) {
      for (const amount of amounts) expect(usdText(amount, currency, rates), `${amount} ${currency}`).toBe(formatUsd(amount, currency, rates));
    }
  });
  it("the fallback is the one table", () => {
    expect(FALLBACK_RATES).toEqual({ ethPrice: 3796, solPrice: 184 });
    expect(FALLBACK_RATES).toBe(FALLBACK_USD_RATES);
  });
});
