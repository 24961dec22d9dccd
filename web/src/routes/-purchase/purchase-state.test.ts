import { describe, expect, it } from "vitest";
import {
  confirmationsText,
  confirmingNote,
  FAST_POLL_MS,
  POLL_LIMIT_MS,
  pollableStatus,
  pollInterval,
  purchaseStage,
  reservationCountdown,
  SLOW_POLL_MS,
  USUAL_CONFIRMATION_MS,
} from "./purchase-state";

describe("purchaseStage", () => {
  it("pays while initiated, waits while pending, reveals while verified or completed", () => {
    expect(purchaseStage({ status: "initiated", privateKeyDestroyed: false })).toBe("pay");
    expect(purchaseStage({ status: "pending", privateKeyDestroyed: false })).toBe("confirming");
    expect(purchaseStage({ status: "verified", privateKeyDestroyed: false })).toBe("released");
    expect(purchaseStage({ status: "completed", privateKeyDestroyed: false })).toBe("released");
  });
  it("never offers the key once destroyed", () => {
    expect(purchaseStage({ status: "completed", privateKeyDestroyed: true })).toBe("destroyed");
    expect(purchaseStage({ status: "verified", privateKeyDestroyed: true })).toBe("destroyed");
  });
  it("ends unpaid purchases without a key", () => {
    expect(purchaseStage({ status: "failed", privateKeyDestroyed: false })).toBe("failed");
    expect(purchaseStage({ status: "cancelled", privateKeyDestroyed: false })).toBe("cancelled");
    expect(purchaseStage({ status: "expired", privateKeyDestroyed: false })).toBe("expired");
  });
});

describe("pollInterval", () => {
  it("polls fast while a payment is confirming or was just sent", () => {
    expect(pollInterval("pending", false)).toBe(FAST_POLL_MS);
    expect(pollInterval("initiated", true)).toBe(FAST_POLL_MS);
    expect(FAST_POLL_MS).toBeLessThanOrEqual(2000);
  });
  it("polls every 10 s while awaiting payment or settling", () => {
    expect(pollInterval("initiated", false)).toBe(SLOW_POLL_MS);
    expect(pollInterval("verified", false)).toBe(SLOW_POLL_MS);
    expect(SLOW_POLL_MS).toBe(10_000);
  });
  it("stops after 5 minutes of polling (the spec), whatever the state; Check again starts a new round", () => {
    expect(POLL_LIMIT_MS).toBe(5 * 60_000);
    for (const s of ["initiated", "pending", "verified"] as const) {
      expect(pollInterval(s, true, POLL_LIMIT_MS - 1)).not.toBe(false);
      expect(pollInterval(s, true, POLL_LIMIT_MS)).toBe(false);
      expect(pollableStatus(s, false)).toBe(true);
    }
    expect(pollableStatus("completed", true)).toBe(false);
  });
  it("stops once the purchase has ended", () => {
    for (const s of ["completed", "failed", "cancelled", "expired"] as const) expect(pollInterval(s, true)).toBe(false);
  });
});

describe("confirmationsText", () => {
  it("reads 'n of m confirmations', clamped to the required depth", () => {
    expect(confirmationsText(2, 3)).toBe("2 of 3 confirmations");
    expect(confirmationsText(0, 3)).toBe("0 of 3 confirmations");
    expect(confirmationsText(7, 3)).toBe("3 of 3 confirmations");
    expect(confirmationsText(-1, 1)).toBe("0 of 1 confirmation");
  });
});

describe("reservationCountdown", () => {
  const now = Date.parse("2026-11-23T10:00:00Z");
  it("shows minutes and seconds left", () => {
    expect(reservationCountdown("2026-11-23T10:15:00Z", now)).toBe("15:00");
    expect(reservationCountdown("2026-11-23T10:00:09Z", now)).toBe("0:09");
  });
  it("is null when run out or unknown", () => {
    expect(reservationCountdown("2026-11-23T10:00:00Z", now)).toBeNull();
    expect(reservationCountdown("2026-11-23T09:59:00Z", now)).toBeNull();
    expect(reservationCountdown(null, now)).toBeNull();
    expect(reservationCountdown("not a date", now)).toBeNull();
  });
});

describe("confirmingNote: never a time the purchase has already passed", () => {
  const reported = Date.parse("2030-01-01T10:00:00Z");
  const view = {
    paymentReportedAt: new Date(reported).toISOString(),
    paymentDeadline: new Date(reported + 20 * 60_000).toISOString(),
    lastDeadline: new Date(reported + 80 * 60_000).toISOString(),
  };
  const clock = (when: Date) => when.toISOString().slice(11, 16);

  it("fresh (up to 2 minutes after the report): the usual wait", () => {
    expect(USUAL_CONFIRMATION_MS).toBe(120_000);
    expect(confirmingNote(view, reported, clock)).toMatchObject({ stage: "usual", text: expect.stringContaining("usually 30 seconds to 2 minutes") });
    expect(confirmingNote(view, reported + 120_000, clock).stage).toBe("usual");
    expect(confirmingNote({ ...view, paymentReportedAt: null }, reported + 10 * 60_000, clock).stage).toBe("usual");
  });

  it("past the usual time: says so and names the deadline, with no promise of 2 minutes", () => {
    const note = confirmingNote(view, reported + 120_001, clock);
    expect(note.stage).toBe("slow");
    expect(note.text).toContain("10:20");
    expect(note.text).not.toMatch(/usually|2 minutes/);
    expect(confirmingNote(view, reported + 20 * 60_000, clock).stage).toBe("slow");
  });

  it("past the deadline: names the last deadline; past that: being closed", () => {
    const overdue = confirmingNote(view, reported + 20 * 60_000 + 1, clock);
    expect(overdue).toMatchObject({ stage: "overdue", text: expect.stringContaining("11:20") });
    expect(overdue.text).toContain("not confirmed by 10:20");
    expect(confirmingNote(view, reported + 80 * 60_000, clock).stage).toBe("overdue");
    const closing = confirmingNote(view, reported + 80 * 60_000 + 1, clock);
    expect(closing).toMatchObject({ stage: "closing", text: expect.stringContaining("being closed") });
    // The review's case: 23 minutes confirming never reads "usually 30 seconds to 2 minutes".
    expect(confirmingNote(view, reported + 23 * 60_000, clock).text).not.toContain("usually");
  });

  it("a page without the deadlines (an ended purchase read late) says only the usual", () => {
    expect(confirmingNote({ paymentReportedAt: view.paymentReportedAt, paymentDeadline: null, lastDeadline: null }, reported + 60 * 60_000, clock).stage).toBe(
      "usual",
    );
  });
});
