// A vitest reporter for the journeys: CI runs a failed journey once more (vitest.config.ts here), so a journey that
// fails half the time would pass three runs in four. This one lists every journey that passed only on a retry as
// flaky at the end of the run, and fails the run when more than MAX_FLAKY_JOURNEYS of them were
// (docs/testing.md#browser-journeys-e2e).
import type { Reporter, TestModule } from "vitest/node";

/** How many journeys a run may pass only on their retry: one is the noise of a small shared machine, two are not. */
export const MAX_FLAKY_JOURNEYS = 1;

/** A journey's outcome: passed or not in the end, after how many retries. */
export type JourneyOutcome = { name: string; passed: boolean; retries: number };

/**
 * The flaky journeys (passed, but only after a retry) and whether they fail the run. A journey that failed every
 * attempt is not counted here: it fails the run by itself.
 */
export function flakyVerdict(outcomes: readonly JourneyOutcome[], max = MAX_FLAKY_JOURNEYS): { flaky: string[]; fails: boolean } {
  const flaky = outcomes.filter((o) => o.passed && o.retries > 0).map((o) => o.name);
  return { flaky, fails: flaky.length > max };
}

/** The summary printed at the end of a run. */
export function flakySummary(verdict: { flaky: readonly string[]; fails: boolean }, max = MAX_FLAKY_JOURNEYS): string {
  if (verdict.flaky.length === 0) return "Flaky journeys: none (no journey needed its retry).";
  const list = verdict.flaky.map((name) => `  - ${name}`).join("\n");
  const rule = verdict.fails
    ? `more than ${max} journey passed only on its retry: the run fails. Fix them; a journey that fails now and then fails for users too.`
    : `at most ${max} may pass only on its retry; the run passes.`;
  return `Flaky journeys (passed only on a retry): ${verdict.flaky.length}\n${list}\n${rule}`;
}

function outcomes(testModules: readonly TestModule[]): JourneyOutcome[] {
  return testModules.flatMap((module) =>
    [...module.children.allTests()].map((test) => ({
      name: `${module.relativeModuleId} > ${test.fullName}`,
      passed: test.result().state === "passed",
      retries: test.diagnostic()?.retryCount ?? 0,
    })),
  );
}

export default class FlakyJourneysReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]) {
    const verdict = flakyVerdict(outcomes(testModules));
    process.stdout.write(`\n${flakySummary(verdict)}\n\n`);
    if (verdict.fails) process.exitCode = 1;
  }
}
