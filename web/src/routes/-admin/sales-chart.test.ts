import { describe, expect, it } from "vitest";
import { BAR_FILL, CHART_HEIGHT, CHART_WIDTH, periodDays, type SalesRow, salesChart } from "./sales-chart";

const DAY = 86_400_000;
const to = "2026-05-20T15:30:00.000Z";
const period = (days: number) => ({ from: new Date(Date.parse(to) - days * DAY).toISOString(), to });
const sale = (day: string, network: SalesRow["network"], sales: number): SalesRow => ({
  day,
  network,
  sales,
  volume: "0.5",
  currency: network === "ethereum" ? "ETH" : "SOL",
});

describe("the sales chart's geometry", () => {
  it("has one slot per UTC day of the period asked, the partial first day included, so 7, 30 and 90 days differ", () => {
    expect(periodDays(period(7).from, to)).toEqual([
      "2026-05-13",
      "2026-05-14",
      "2026-05-15",
      "2026-05-16",
      "2026-05-17",
      "2026-05-18",
      "2026-05-19",
      "2026-05-20",
    ]);
    const widths = [7, 30, 90].map((d) => salesChart([sale("2026-05-20", "ethereum", 1)], period(d)).bars[0].width);
    expect(widths).toEqual([7, 30, 90].map((d) => (CHART_WIDTH / (d + 1)) * BAR_FILL));
    expect(new Set(widths).size).toBe(3);
  });

  it("draws a single day with sales as one bar in that day's place, full height, and the axis shows the whole period", () => {
    const chart = salesChart([sale("2026-05-15", "ethereum", 3)], period(7));
    expect(chart.bars).toHaveLength(1);
    const slot = CHART_WIDTH / 8;
    expect(chart.bars[0]).toMatchObject({ day: "2026-05-15", x: 2 * slot + (slot * (1 - BAR_FILL)) / 2, width: slot * BAR_FILL, y: 0, height: CHART_HEIGHT });
    expect(chart.ticks).toEqual([
      { day: "2026-05-13", at: 0, align: "start" },
      { day: "2026-05-16", at: 3.5 / 8, align: "middle" },
      { day: "2026-05-20", at: 1, align: "end" },
    ]);
    expect(chart.ticks[0].day).not.toBe(chart.ticks.at(-1)!.day);
  });

  it("stacks a day's two networks in its one bar, scaled to the busiest day", () => {
    const chart = salesChart([sale("2026-05-19", "solana", 1), sale("2026-05-19", "ethereum", 3), sale("2026-05-20", "ethereum", 2)], period(7));
    expect(chart.max).toBe(4);
    expect(chart.total).toBe(6);
    const [eth, sol] = chart.bars.filter((b) => b.day === "2026-05-19");
    expect(eth).toMatchObject({ network: "ethereum", height: (3 / 4) * CHART_HEIGHT, y: CHART_HEIGHT / 4 });
    expect(sol).toMatchObject({ network: "solana", height: CHART_HEIGHT / 4, y: 0, x: eth.x, width: eth.width });
    const [later] = chart.bars.filter((b) => b.day === "2026-05-20");
    expect(later).toMatchObject({ height: CHART_HEIGHT / 2, y: CHART_HEIGHT / 2 });
    expect(later.x).toBeCloseTo(eth.x + CHART_WIDTH / 8);
  });

  it("keeps every bar inside the chart", () => {
    const rows = periodDays(period(90).from, to).map((d, i) => sale(d, i % 2 ? "solana" : "ethereum", (i % 5) + 1));
    for (const b of salesChart(rows, period(90)).bars) {
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(CHART_WIDTH + 1e-9);
      expect(b.y).toBeGreaterThanOrEqual(-1e-9);
      expect(b.y + b.height).toBeLessThanOrEqual(CHART_HEIGHT + 1e-9);
    }
  });
});
