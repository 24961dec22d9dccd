import { describe, expect, it } from "vitest";
import { CARD_TIERS, cardTierOf, TABLE_LABELS, tableLabelOf } from "./rarity-scales";

describe("the two rarity scales of the specification", () => {
  it("cards: 9+ ULTRA RARE, 8+ RARE, 7+ UNCOMMON, 6+ NOTABLE, 4+ COMMON, else BASIC", () => {
    const cases: [number, string][] = [
      [10, "ULTRA RARE"],
      [9, "ULTRA RARE"],
      [8.9, "RARE"],
      [8, "RARE"],
      [7.9, "UNCOMMON"],
      [7, "UNCOMMON"],
      [6, "NOTABLE"],
      [5.9, "COMMON"],
      [4, "COMMON"],
      [3.9, "BASIC"],
      [0, "BASIC"],
      [Number.NaN, "BASIC"],
    ];
    for (const [score, label] of cases) expect(cardTierOf(score), String(score)).toBe(label);
  });

  it("table: 9+ GOLD, 8 EPIC, 7 RARE, 6 HIGH, 5 PLUS, else BASE", () => {
    const cases: [number, string][] = [
      [9.5, "GOLD"],
      [9, "GOLD"],
      [8.8, "EPIC"],
      [8, "EPIC"],
      [7.2, "RARE"],
      [7, "RARE"],
      [6.5, "HIGH"],
      [5, "PLUS"],
      [4.9, "BASE"],
      [0, "BASE"],
    ];
    for (const [score, label] of cases) expect(tableLabelOf(score), String(score)).toBe(label);
  });

  it("one score reads differently on the two scales, which is why the table shows the score beside its label", () => {
    expect(cardTierOf(8.8)).toBe("RARE");
    expect(tableLabelOf(8.8)).toBe("EPIC");
    expect(cardTierOf(7.2)).toBe("UNCOMMON");
    expect(tableLabelOf(7.2)).toBe("RARE");
  });

  it("each scale runs from the highest bound down and ends with a step that takes every lower score", () => {
    for (const scale of [CARD_TIERS, TABLE_LABELS]) {
      const bounds = scale.map((step) => step.min);
      expect([...bounds].sort((a, b) => b - a)).toEqual(bounds);
      expect(bounds.at(-1)).toBe(Number.NEGATIVE_INFINITY);
    }
  });
});
