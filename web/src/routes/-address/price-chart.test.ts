import { describe, expect, it } from "vitest";
import { priceChart } from "./price-chart";

const DAY = 86_400_000;
const at = (ms: number) => new Date(ms).toISOString();

describe("priceChart", () => {
  it("draws a step line from the first change to now, highest price at the top", () => {
    const t0 = Date.UTC(2026, 0, 1);
    const chart = priceChart(
      [
        { at: at(t0), price: "2" },
        { at: at(t0 + DAY), price: "1" },
      ],
      t0 + 2 * DAY,
      208,
      108,
      4,
    )!;
    expect(chart.min).toBe(1);
    expect(chart.max).toBe(2);
    // x: 4 + t/(2 days) * 200; y: 2 -> top pad (4), 1 -> bottom (104).
    expect(chart.dots).toEqual([
      { x: 4, y: 4 },
      { x: 104, y: 104 },
    ]);
    expect(chart.path).toBe("M4,4 H104 V104 H204");
  });

  it("a flat or single-point history sits at mid-height", () => {
    const chart = priceChart([{ at: at(0), price: "5" }], DAY, 100, 50)!;
    expect(chart.dots).toEqual([{ x: 4, y: 25 }]);
    expect(chart.path).toBe("M4,25 H96");
  });

  it("nothing to draw without a readable point", () => {
    expect(priceChart([], 0, 100, 50)).toBeNull();
    expect(priceChart([{ at: "not a date", price: "1" }], 0, 100, 50)).toBeNull();
  });
});
