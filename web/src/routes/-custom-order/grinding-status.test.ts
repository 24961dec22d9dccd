import { describe, expect, it } from "vitest";
import { GRINDER_LEASE_MS } from "../../../../schema/custom-orders";
import { type GrindingOrder, grindingStatus, quoteGrinderNote } from "./grinding-status";

const NOW = Date.parse("2030-01-10T12:00:00Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const base: GrindingOrder = {
  status: "grinding",
  expectedAttempts: String(2 ** 32),
  progress: null,
  grindDeadline: new Date(NOW + 6 * 86400_000).toISOString(),
  createdAt: ago(86400_000),
  queueAhead: 0,
  grinders: { online: 1, lastReportAt: ago(5_000), fastestRate: 1e6 },
};

describe("the order page's grinding status", () => {
  it("states attempts against the expected, the rate, an estimate that does not pretend to count down, and the deadline", () => {
    const s = grindingStatus({ ...base, progress: { attempts: 1_200_000_000, rate: 2_000_000, at: ago(4_000) } }, NOW);
    expect(s.progressText).toBe("1.2 billion of about 4.3 billion expected attempts (27%)");
    expect(s.percent).toBeCloseTo(27.94, 1);
    expect(s.rateText).toBe("2 million attempts a second");
    // ln 2 × 2^32 / 2e6 ≈ 1,489 s; ln 10 × 2^32 / 2e6 ≈ 4,945 s
    expect(s.estimateText).toMatch(/^Even odds within 25 minutes, 9 in 10 within 1.4 hours at this rate/);
    expect(s.deadlineText).toBe("in 6 days");
    expect(s.deadline.toISOString()).toBe(base.grindDeadline);
    expect(s.deadlineAtRisk).toBe(false);
    expect(s.silenceText).toBeNull();
    expect(s.queueText).toBeNull();
  });

  it("past the expected count it says that is luck, and the bar stays full", () => {
    const s = grindingStatus({ ...base, progress: { attempts: 2 ** 33, rate: 2e6, at: ago(1_000) } }, NOW);
    expect(s.percent).toBe(100);
    expect(s.progressText).toMatch(/^8.6 billion attempts, past the 4.3 billion expected: that is luck/);
  });

  it("before the first report: no attempts, no rate and no estimate yet", () => {
    const s = grindingStatus({ ...base, progress: { attempts: 0, rate: 0, at: ago(1_000) } }, NOW);
    expect(s).toMatchObject({ progressText: "No attempts yet; about 4.3 billion are expected", rateText: null, estimateText: null, silenceText: null });
  });

  it("warns when nine in ten searches at this rate would end after the deadline", () => {
    const slow = grindingStatus({ ...base, progress: { attempts: 10, rate: 1_000, at: ago(1_000) } }, NOW);
    expect(slow.deadlineAtRisk).toBe(true);
  });

  it("says plainly when the grinder on the order has gone quiet past the lease, and what it means for the buyer", () => {
    const fresh = grindingStatus({ ...base, progress: { attempts: 5, rate: 5, at: ago(GRINDER_LEASE_MS - 1) } }, NOW);
    expect(fresh.silenceText).toBeNull();
    const quiet = grindingStatus({ ...base, progress: { attempts: 5, rate: 5, at: ago(7 * 60_000 + 30_000) } }, NOW);
    expect(quiet.silenceText).toMatch(/^No grinder has reported for 7 minutes\. /);
    expect(quiet.silenceText).toMatch(/If it is not found by the deadline, it expires and you pay nothing/);
    const hours = grindingStatus({ ...base, progress: { attempts: 5, rate: 5, at: ago(3 * 3600_000) } }, NOW);
    expect(hours.silenceText).toMatch(/^No grinder has reported for 3 hours\./);
  });

  it("a waiting order: its place in the queue and the grinders at work, or that none has reported", () => {
    const open: GrindingOrder = { ...base, status: "open", queueAhead: 2 };
    expect(grindingStatus(open, NOW)).toMatchObject({ queueText: "2 orders ahead of yours; 1 grinder at work", silenceText: null, rateText: null });
    expect(grindingStatus({ ...open, queueAhead: 0, grinders: { online: 3, lastReportAt: ago(1), fastestRate: 1 } }, NOW).queueText).toBe(
      "Next in line; 3 grinders at work",
    );
    const none = grindingStatus({ ...open, queueAhead: 1, grinders: { online: 0, lastReportAt: ago(12 * 60_000), fastestRate: null } }, NOW);
    expect(none.queueText).toBe("1 order ahead of yours");
    expect(none.silenceText).toMatch(/^No grinder has reported for 12 minutes\. Your order keeps its place/);
    const never = grindingStatus({ ...open, grinders: { online: 0, lastReportAt: null, fastestRate: null } }, NOW);
    expect(never.silenceText).toMatch(/^No grinder has reported yet\./);
    // a lapsed claim's attempts still show while the order waits for the next grinder
    expect(grindingStatus({ ...open, progress: { attempts: 65536, rate: 9, at: ago(600_000) } }, NOW).progressText).toMatch(/^65.5 thousand of about/);
  });

  it("a passed deadline reads as passed; an order without one is held to a week from placing", () => {
    expect(grindingStatus({ ...base, grindDeadline: ago(1) }, NOW).deadlineText).toBe("passed");
    const legacy = grindingStatus({ ...base, grindDeadline: null, createdAt: ago(86400_000) }, NOW);
    expect(legacy.deadline.getTime()).toBe(NOW + 6 * 86400_000);
  });
});

describe("the quote's word on the grinders running now", () => {
  const quote = { grindRate: 2e9, expectedAttempts: String(2 ** 32), grindHours: 168, grinders: { online: 1, lastReportAt: ago(1_000), fastestRate: 2.7e9 } };

  it("says nothing while a grinder as fast as the quote runs", () => {
    expect(quoteGrinderNote(quote, NOW)).toBeNull();
    expect(quoteGrinderNote({ ...quote, grinders: { ...quote.grinders, fastestRate: null } }, NOW)).toBeNull();
  });

  it("says when none runs, since when, and that an order then waits and costs nothing if never found", () => {
    expect(quoteGrinderNote({ ...quote, grinders: { online: 0, lastReportAt: null, fastestRate: null } }, NOW)).toBe(
      "No grinder is running right now (none has reported yet): your order would wait in the queue until one runs. An order not found within 7 days expires and costs nothing.",
    );
    expect(quoteGrinderNote({ ...quote, grinders: { online: 0, lastReportAt: ago(3 * 3600_000), fastestRate: null } }, NOW)).toMatch(
      /^No grinder is running right now \(the last one reported 3 hours ago\)/,
    );
  });

  it("says nothing more while a grinder runs, however slow: the quote's time is already at its rate, so the two never disagree", () => {
    expect(quoteGrinderNote({ ...quote, grinders: { ...quote.grinders, fastestRate: 1_000_000 } }, NOW)).toBeNull();
  });
});
