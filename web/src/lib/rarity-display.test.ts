import { describe, expect, it } from "vitest";
import { formatRarity, hasRarityRing, isHot, rarityColour, rarityLabel, rarityTier } from "./rarity-display";

describe("rarity", () => {
  it.each([
    [10, "ULTRA RARE", "GOLD", "purple"],
    [9, "ULTRA RARE", "GOLD", "purple"],
    [8.9, "RARE", "EPIC", "purple"],
    [8, "RARE", "EPIC", "purple"],
    [7.9, "UNCOMMON", "RARE", "blue"],
    [7, "UNCOMMON", "RARE", "blue"],
    [6, "NOTABLE", "HIGH", "blue"],
    [5.9, "COMMON", "PLUS", "green"],
    [5, "COMMON", "PLUS", "green"],
    [4.9, "COMMON", "BASE", "green"],
    [4, "COMMON", "BASE", "green"],
    [3.9, "BASIC", "BASE", "grey"],
    [0, "BASIC", "BASE", "grey"],
  ])("%s: card %s, table %s, colour %s", (s, tier, label, colour) => {
    expect(rarityTier(s).label).toBe(tier);
    expect(rarityTier(String(s)).label).toBe(tier);
    expect(rarityLabel(s)).toBe(label);
    expect(rarityColour(String(s))).toBe(colour);
  });

  it("only ULTRA RARE is gold", () => {
    expect(rarityTier("9.0").gold).toBe(true);
    expect(rarityTier("8.9").gold).toBe(false);
  });

  it("HOT at 8.5, ring at 9", () => {
    expect([isHot(8.4), isHot("8.5"), isHot(10)]).toEqual([false, true, true]);
    expect([hasRarityRing(8.9), hasRarityRing("9.0")]).toEqual([false, true]);
  });

  it("score text", () => {
    expect(formatRarity("7.25")).toBe("7.3/10");
    expect(formatRarity(11)).toBe("10.0/10");
    expect(formatRarity("x")).toBe("0.0/10");
  });
});
