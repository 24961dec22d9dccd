import { describe, expect, it } from "vitest";
import {
  confirmationsText,
  FAST_POLL_MS,
  POLL_LIMIT_MS,
  pollableStatus,
  pollInterval,
  purchaseStage,
  reservationCountdown,
  SLOW_POLL_MS,
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
