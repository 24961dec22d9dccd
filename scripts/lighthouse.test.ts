import { describe, expect, it } from "vitest";
import { BUDGET, budgetFailures, medianRun, type RouteResult } from "./lighthouse";

const run = (over: Partial<RouteResult>): RouteResult => ({
  performance: 100,
  accessibility: 100,
  seo: 100,
  bestPractices: 100,
  fcpMs: 800,
  lcpMs: 900,
  cls: 0,
  tbtMs: 0,
  ttiMs: 2800,
  failedA11y: [],
  ...over,
});

describe("medianRun", () => {
  it("is the run nearest the median FCP and TTI, as Lighthouse picks it, not the median score", () => {
    const runs = [
      run({ performance: 99, fcpMs: 790, ttiMs: 2700, tbtMs: 10 }),
      run({ performance: 90, fcpMs: 800, ttiMs: 2810, tbtMs: 200 }),
      run({ performance: 100, fcpMs: 760, ttiMs: 1100, tbtMs: 0 }),
      run({ performance: 95, fcpMs: 900, ttiMs: 3100, tbtMs: 120 }),
      run({ performance: 97, fcpMs: 810, ttiMs: 2900, tbtMs: 60 }),
    ];
    // Medians: FCP 800, TTI 2810; the median score (97) would have picked the last run.
    expect(medianRun(runs)).toBe(runs[1]);
    expect(medianRun([runs[3]])).toBe(runs[3]);
  });
});

describe("budgetFailures", () => {
  it("names each figure outside the budget", () => {
    expect(budgetFailures(run({}))).toEqual([]);
    expect(budgetFailures(run({ tbtMs: BUDGET.tbtMs, lcpMs: 2500, cls: 0.05, performance: 94, accessibility: 98, failedA11y: ["color-contrast"] }))).toEqual([
      "performance 94 < 95",
      "accessibility 98 < 100 (color-contrast)",
      "LCP 2500 ms >= 2000 ms",
      "CLS 0.050 >= 0.05",
      "TBT 150 ms >= 150 ms",
    ]);
  });
});
