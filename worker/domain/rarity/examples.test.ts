// Pins every row of the worked-examples table in docs/rarity.md, so the documentation cannot drift from
// the code.
import { describe, expect, it } from "vitest";
import doc from "../../../docs/rarity.md?raw";
import { validateAddress } from "../../../schema/address";
import { analyzeAddress } from "./analyze";
import type { Network } from "../../../schema/rarity";

const table = doc.split("<!-- rarity-examples:start -->")[1]?.split("<!-- rarity-examples:end -->")[0] ?? "";
const rows = table
  .split("\n")
  .filter((line) => line.startsWith("| `"))
  .map((line) => {
    const [address, network, pattern, position, category, log2, score, caseSensitive] = line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
    return {
      address: address.replaceAll("`", ""),
      network: network as Network,
      pattern,
      position,
      category,
      log2: Number(log2),
      score: Number(score),
      caseSensitive: caseSensitive === "yes",
    };
  });

describe("docs/rarity.md worked examples", () => {
  it("has the table", () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
    expect(new Set(rows.map((r) => r.network))).toEqual(new Set(["ethereum", "solana"]));
  });

  for (const row of rows) {
    it(`${row.address} -> ${row.pattern} (${row.category}, ${row.score})`, () => {
      expect(validateAddress(row.address, row.network).isValid).toBe(true);
      const r = analyzeAddress(row.address, row.network);
      expect(r.pattern).toBe(row.pattern);
      expect(r.patternPosition).toBe(row.position);
      expect(r.category).toBe(row.category);
      expect(r.difficulty.log2.toFixed(2)).toBe(row.log2.toFixed(2));
      expect(r.rarityScore).toBe(row.score);
      expect(r.caseSensitivePattern).toBe(row.caseSensitive);
      // The highlighted ranges spell the pattern.
      const highlighted = r.matchRanges.map(([from, to]) => row.address.slice(from, to)).join("...");
      expect(highlighted || "custom").toBe(row.pattern);
    });
  }
});
