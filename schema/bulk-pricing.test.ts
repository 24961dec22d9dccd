import { describe, expect, it } from "vitest";
import { bulkPrice, bulkRarity } from "./bulk-pricing";

describe("the spec's bulk tables", () => {
  it("price by matched length; 8+ is not listed", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 12].map(bulkPrice)).toEqual(["0.00001", "0.00001", "0.00001", "0.00001", "0.00002", "0.0002", "0.002", null, null]);
  });

  it("rarity by matched length; other lengths 0.5", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 12].map(bulkRarity)).toEqual([0.5, 0.5, 0.5, 1, 1.5, 2, 2.5, 3, 3]);
  });
});
