import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { escapeFormula, exportFileName, listingsCsv } from "./admin-export";

describe("escapeFormula", () => {
  it("defuses formula-looking cells only", () => {
    expect(["=cmd|' /C calc'!A0", "+1", "-2", "@SUM(A1)", "\tx", "\rx"].map(escapeFormula)).toEqual(["'=cmd|' /C calc'!A0", "'+1", "'-2", "'@SUM(A1)", "'\tx", "'\rx"]);
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
      { address: "0x0000abc", network: "ethereum", price: "0.5", currency: "ETH", category: "leading-zeros", pattern: "0000", status: "active", isFeatured: true, createdAt: "2026-11-01T00:00:00.000Z" },
      { address: "So1ana", network: "solana", price: "2", currency: "SOL", category: "", pattern: "=HYPERLINK(\"x\",1)", status: "inactive", isFeatured: false, createdAt: "2026-11-02T00:00:00.000Z" },
    ]);
    const lines = csv.split("\n");
    expect(lines[0]).toBe("address,network,price,currency,category,pattern,status,featured,created");
    expect(lines[1]).toBe("0x0000abc,ethereum,0.5,ETH,leading-zeros,0000,active,yes,2026-11-01T00:00:00.000Z");
    const parsed = Papa.parse<string[]>(csv).data;
    expect(parsed[2]).toEqual(["So1ana", "solana", "2", "SOL", "custom", "'=HYPERLINK(\"x\",1)", "inactive", "no", "2026-11-02T00:00:00.000Z"]);
  });
});
