import { describe, expect, it } from "vitest";
import { BUDGET, budgetFailures, median, medianFigures, type RouteResult, runWithRetry } from "./lighthouse";

const run = (over: Partial<RouteResult>): RouteResult => ({
  performance: 100,
  accessibility: 100,
  seo: 100,
  bestPractices: 100,
  fcpMs: 800,
  lcpMs: 900,
  cls: 0,
  tbtMs: 0,
  ttiMs: 1500,
  requests: 20,
  scripts: 10,
  scriptKb: 150,
  failedA11y: [],
  ...over,
});

describe("medianFigures", () => {
  it("judges each figure by its own median over the runs, not by one run's figures", () => {
    const runs = [
      run({ performance: 98, fcpMs: 776, tbtMs: 154, failedA11y: ["color-contrast"], accessibility: 98 }),
      run({ performance: 100, fcpMs: 790, tbtMs: 42 }),
      run({ performance: 100, fcpMs: 800, tbtMs: 74, lcpMs: 2100 }),
      run({ performance: 100, fcpMs: 760, tbtMs: 55, cls: 0.2 }),
      run({ performance: 99, fcpMs: 810, tbtMs: 102, ttiMs: 3000, requests: 40 }),
    ];
    // The first run alone (TBT 154) would fail the budget; the median TBT is 74.
    expect(medianFigures(runs)).toEqual({
      performance: 100,
      accessibility: 100,
      seo: 100,
      bestPractices: 100,
      fcpMs: 790,
      lcpMs: 900,
      cls: 0,
      tbtMs: 74,
      ttiMs: 1500,
      requests: 20,
      scripts: 10,
      scriptKb: 150,
      failedA11y: ["color-contrast"],
    });
  });

  it("takes the middle value, or the mean of the middle two", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([40, 10, 30, 20])).toBe(25);
    expect(median([7])).toBe(7);
    expect(() => median([])).toThrow(/no values/);
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

describe("runWithRetry", () => {
  const NO_NAVSTART =
    "lighthouse failed (exit 1):\nRuntime error encountered: Something went wrong with recording the trace over your page load. Please run Lighthouse again. (NO_NAVSTART)";

  it("tries a run again when Lighthouse could not record it, up to the limit", () => {
    const logged: string[] = [];
    let calls = 0;
    const flaky = () => {
      calls += 1;
      if (calls < 3) throw new Error(NO_NAVSTART);
      return "report";
    };
    expect(runWithRetry(flaky, 3, (m) => logged.push(m))).toBe("report");
    expect(calls).toBe(3);
    expect(logged).toHaveLength(2);
    calls = 0;
    expect(() => runWithRetry(flaky, 2, () => {})).toThrow(/NO_NAVSTART/);
    expect(calls).toBe(2);
  });

  it("does not retry any other failure", () => {
    let calls = 0;
    expect(() =>
      runWithRetry(
        () => {
          calls += 1;
          throw new Error("wrangler dev did not become healthy");
        },
        3,
        () => {},
      ),
    ).toThrow(/healthy/);
    expect(calls).toBe(1);
  });
});
