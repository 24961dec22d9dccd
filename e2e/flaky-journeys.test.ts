import { describe, expect, it } from "vitest";
import { flakySummary, flakyVerdict, MAX_FLAKY_JOURNEYS } from "./flaky-journeys";

const journey = (name: string, passed: boolean, retries: number) => ({ name, passed, retries });

describe("counting flaky journeys", () => {
  it("a journey that passed only on its retry is flaky; one that passed at once, or failed every attempt, is not", () => {
    const verdict = flakyVerdict([
      journey("smoke > loads", true, 0),
      journey("purchase > pays", true, 1),
      journey("admin > refunds", false, 1),
      journey("checker > checks", false, 0),
    ]);
    expect(verdict).toEqual({ flaky: ["purchase > pays"], fails: false });
  });

  it(`more than ${MAX_FLAKY_JOURNEYS} flaky journey fails the run`, () => {
    expect(MAX_FLAKY_JOURNEYS).toBe(1);
    expect(flakyVerdict([]).fails).toBe(false);
    expect(flakyVerdict([journey("a", true, 1)]).fails).toBe(false);
    expect(flakyVerdict([journey("a", true, 1), journey("b", true, 1)])).toEqual({ flaky: ["a", "b"], fails: true });
    expect(flakyVerdict([journey("a", true, 1), journey("b", true, 1)], 2).fails).toBe(false);
  });

  it("the summary lists each flaky journey and says whether the run fails", () => {
    expect(flakySummary(flakyVerdict([journey("a", true, 0)]))).toBe("Flaky journeys: none (no journey needed its retry).");
    const one = flakySummary(flakyVerdict([journey("purchase > pays", true, 1)]));
    expect(one).toContain("  - purchase > pays");
    expect(one).toContain("the run passes");
    const two = flakySummary(flakyVerdict([journey("a", true, 1), journey("b", true, 2)]));
    expect(two).toMatch(/^Flaky journeys \(passed only on a retry\): 2\n {2}- a\n {2}- b\n/);
    expect(two).toContain("the run fails");
  });
});
