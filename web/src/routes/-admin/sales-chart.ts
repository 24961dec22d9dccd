// The geometry of Admin > Analytics' sales chart: one slot per UTC day of the period asked (from its first day
// to its last, days with no sale included), so 7, 30 and 90 days differ at a glance and a single day with sales
// is one bar in its own day's place; a day's networks are stacked in that one bar. Coordinates are in the
// SVG's viewBox (CHART_WIDTH x CHART_HEIGHT), which the page stretches to the chart's box; the axis labels are
// HTML under it (their `at` is a fraction of the width), so they keep a readable size at any width.
import type { Network } from "../../../../schema/db";

export const CHART_WIDTH = 600;
export const CHART_HEIGHT = 160;
/** The part of a day's slot its bar takes; the rest is the gap between bars. */
export const BAR_FILL = 0.7;

const DAY_MS = 86_400_000;
const NETWORK_ORDER: Network[] = ["ethereum", "solana"];

export type SalesRow = { day: string; network: Network; sales: number; volume: string; currency: string };
export type Bar = { day: string; network: Network; sales: number; volume: string; currency: string; x: number; y: number; width: number; height: number };
export type Tick = { day: string; at: number; align: "start" | "middle" | "end" };
export type SalesChart = { days: string[]; bars: Bar[]; max: number; total: number; ticks: Tick[] };

/** Every UTC day (YYYY-MM-DD) from `from`'s day to `to`'s day, both included. */
export function periodDays(from: string, to: string): string[] {
  const first = Math.floor(Date.parse(from) / DAY_MS);
  const last = Math.floor(Date.parse(to) / DAY_MS);
  const days: string[] = [];
  for (let d = first; d <= last; d++) days.push(new Date(d * DAY_MS).toISOString().slice(0, 10));
  return days;
}

export function salesChart(rows: readonly SalesRow[], period: { from: string; to: string }): SalesChart {
  const days = periodDays(period.from, period.to);
  const index = new Map(days.map((d, i) => [d, i]));
  const perDay = new Map<string, SalesRow[]>();
  for (const r of rows) if (index.has(r.day)) perDay.set(r.day, [...(perDay.get(r.day) ?? []), r]);
  const dayTotal = (day: string) => (perDay.get(day) ?? []).reduce((n, r) => n + r.sales, 0);
  const max = Math.max(1, ...days.map(dayTotal));
  const slot = CHART_WIDTH / Math.max(1, days.length);
  const width = slot * BAR_FILL;
  const scale = CHART_HEIGHT / max;
  const bars: Bar[] = [];
  for (const [day, dayRows] of perDay) {
    const x = index.get(day)! * slot + (slot - width) / 2;
    let top = CHART_HEIGHT;
    for (const network of NETWORK_ORDER) {
      const r = dayRows.find((row) => row.network === network);
      if (!r || r.sales <= 0) continue;
      const height = r.sales * scale;
      top -= height;
      bars.push({ day, network, sales: r.sales, volume: r.volume, currency: r.currency, x, y: top, width, height });
    }
  }
  bars.sort((a, b) => a.x - b.x);
  // The first and last day at the chart's ends, and the middle day under its bar.
  const centre = (i: number) => ((i + 0.5) * slot) / CHART_WIDTH;
  const ticks: Tick[] = [];
  if (days.length > 0) ticks.push({ day: days[0], at: 0, align: "start" });
  if (days.length > 2) {
    const mid = Math.floor((days.length - 1) / 2);
    ticks.push({ day: days[mid], at: centre(mid), align: "middle" });
  }
  if (days.length > 1) ticks.push({ day: days[days.length - 1], at: 1, align: "end" });
  return { days, bars, max, total: bars.reduce((n, b) => n + b.sales, 0), ticks };
}
