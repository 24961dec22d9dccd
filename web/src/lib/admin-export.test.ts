import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { analyticsCsv, analyticsFileName, escapeFormula, exportFileName, exportSummary, listingsCsv } from "./admin-export";

describe("escapeFormula", () => {
  it("defuses formula-looking cells only", () => {
    expect(["=cmd|' /C calc'!A0", "+1", "-2", "@SUM(A1)", "\tx", "\rx"].map(escapeFormula)).toEqual([
      "'=cmd|' /C calc'!A0",
      "'+1",
      "'-2",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
    ]);
    expect(["0xabc", "1.5", "custom", ""].map(escapeFormula)).toEqual(["0xabc", "1.5", "custom", ""]);
  });
});

describe("exportFileName", () => {
  it("names the file with the local date", () => {
    expect(exportFileName(new Date(2026, 0, 5, 23, 59))).toBe("vanity-listings-2026-01-05.csv");
  });
});

describe("listingsCsv", () => {
  it("writes the spec's columns and escapes formulas, quoting where needed", () => {
    const csv = listingsCsv([
      {
        address: "0x0000abc",
        network: "ethereum",
        price: "0.5",
        currency: "ETH",
        category: "leading-zeros",
        pattern: "0000",
        status: "active",
        isFeatured: true,
        createdAt: "2026-11-01T00:00:00.000Z",
      },
      {
        address: "So1ana",
        network: "solana",
        price: "2",
        currency: "SOL",
        category: "",
        pattern: '=HYPERLINK("x",1)',
        status: "inactive",
        isFeatured: false,
        createdAt: "2026-11-02T00:00:00.000Z",
      },
    ]);
    const lines = csv.split("\n");
    expect(lines[0]).toBe("address,network,price,currency,category,pattern,status,featured,created");
    expect(lines[1]).toBe("0x0000abc,ethereum,0.5,ETH,leading-zeros,0000,active,yes,2026-11-01T00:00:00.000Z");
    const parsed = Papa.parse<string[]>(csv).data;
    expect(parsed[2]).toEqual(["So1ana", "solana", "2", "SOL", "custom", '\'=HYPERLINK("x",1)', "inactive", "no", "2026-11-02T00:00:00.000Z"]);
  });
});

describe("analyticsCsv", () => {
  const shown = {
    period: { days: 7, from: "2026-11-20T00:00:00.000Z", to: "2026-11-27T00:00:00.000Z" },
    salesByDay: [{ day: "2026-11-26", network: "ethereum", sales: 2, volume: "0.75", currency: "ETH" }],
    averagePrice: [{ network: "ethereum", category: '=HYPERLINK("x")', patternLength: 4, sales: 2, averagePrice: "0.375", currency: "ETH" }],
    reservationOutcomes: [
      { outcome: "sold", reason: null, count: 2 },
      { outcome: "failed", reason: "payment reverted", count: 1 },
    ],
    depthToRelease: { releases: 1, p50Seconds: 60, p95Seconds: null },
    customOrders: [{ status: "found", count: 1 }],
    supplyByTier: [{ tier: "RARE", network: "solana", listings: 3 }],
    gasAccuracy: [{ network: "ethereum", payments: 2, averageAccuracy: 1.2 }],
    promotions: [],
  };

  it("has one row per figure shown, in the tab's order, with formula cells defused", () => {
    const parsed = Papa.parse<string[]>(analyticsCsv(shown).trim()).data;
    expect(parsed[0]).toEqual(["section", "item", "network", "value", "unit"]);
    expect(parsed.slice(1)).toEqual([
      ["period", "2026-11-20T00:00:00.000Z to 2026-11-27T00:00:00.000Z", "", "7", "days"],
      ["sales", "2026-11-26", "ethereum", "2", "sales"],
      ["volume", "2026-11-26", "ethereum", "0.75", "ETH"],
      ["average price", '\'=HYPERLINK("x"), length 4 (2 sales)', "ethereum", "0.375", "ETH"],
      ["reservation outcome", "sold", "", "2", "reservations"],
      ["reservation outcome", "failed: payment reverted", "", "1", "reservations"],
      ["depth to release", "releases", "", "1", "releases"],
      ["depth to release", "p50", "", "60", "seconds"],
      ["depth to release", "p95", "", "", "seconds"],
      ["custom orders", "found", "", "1", "orders"],
      ["supply", "RARE", "solana", "3", "listings"],
      ["gas estimate accuracy", "2 payments", "ethereum", "1.2", "estimated / actual"],
    ]);
  });

  it("names the file with the period and the date", () => {
    expect(analyticsFileName(30, new Date(2026, 10, 27))).toBe("vanity-analytics-30d-2026-11-27.csv");
  });
});

describe("exportSummary", () => {
  it("says how many listings went into the file", () => {
    expect(exportSummary({ exported: 25, total: 25, cap: 5000 }, "f.csv")).toBe("25 listings exported to f.csv");
    expect(exportSummary({ exported: 1, total: 1, cap: 5000 }, "f.csv")).toBe("1 listing exported to f.csv");
    expect(exportSummary({ exported: 0, total: 0, cap: 5000 }, "f.csv")).toBe("0 listings exported to f.csv: no listing matches these filters");
  });
  it("past the cap, how many matched and how to export the rest", () => {
    expect(exportSummary({ exported: 5000, total: 12345, cap: 5000 }, "f.csv")).toBe(
      "5,000 listings of the 12,345 matching exported to f.csv: one export carries at most 5,000. Narrow the search, network or status to export the rest.",
    );
  });
});
