import { describe, expect, it } from "vitest";
import type { OpenPurchase } from "../../../schema/purchases";
import { reservationState, reservationText } from "./reservation";

const now = Date.parse("2026-03-05T22:00:00Z");
const inMinutes = (m: number) => new Date(now + m * 60_000).toISOString();
const listing = (reservation: { until: string; paymentReported: boolean } | null) => ({ id: 7, reservation });
const mine = (over: Partial<OpenPurchase> = {}): OpenPurchase => ({
  transactionId: "t-1",
  addressId: 7,
  status: "initiated",
  expiresAt: inMinutes(14),
  ...over,
});

describe("reservationState", () => {
  it("free: no reservation, or an unpaid one past its time (a cached answer outliving it)", () => {
    expect(reservationState(listing(null), [], now)).toEqual({ kind: "free" });
    expect(reservationState(listing({ until: inMinutes(-1), paymentReported: false }), [], now)).toEqual({ kind: "free" });
    expect(reservationState(listing({ until: inMinutes(0), paymentReported: false }), undefined, now)).toEqual({ kind: "free" });
  });

  it("the viewer's own: the purchase id and the minutes left, rounded up", () => {
    const held = listing({ until: inMinutes(14), paymentReported: false });
    expect(reservationState(held, [mine({ expiresAt: inMinutes(13.2) })], now)).toEqual({
      kind: "mine",
      transactionId: "t-1",
      minutesLeft: 14,
      paymentReported: false,
    });
    // Even when the listing answer (cached, or from a replica) does not show the reservation yet.
    expect(reservationState(listing(null), [mine()], now)).toMatchObject({ kind: "mine" });
    // A payment reported: still theirs, whatever the time.
    expect(reservationState(held, [mine({ status: "pending", expiresAt: inMinutes(-3) })], now)).toMatchObject({ kind: "mine", paymentReported: true });
  });

  it("another listing's purchase is not this one's; a lapsed own reservation is not shown as the viewer's", () => {
    const held = listing({ until: inMinutes(5), paymentReported: false });
    expect(reservationState(held, [mine({ addressId: 8 })], now)).toMatchObject({ kind: "other" });
    expect(reservationState(listing(null), [mine({ expiresAt: inMinutes(-1) })], now)).toEqual({ kind: "free" });
  });

  it("someone else's: until when, or a payment being confirmed", () => {
    expect(reservationState(listing({ until: inMinutes(5), paymentReported: false }), [], now)).toEqual({
      kind: "other",
      until: new Date(inMinutes(5)),
      paymentReported: false,
    });
    expect(reservationState(listing({ until: inMinutes(-5), paymentReported: true }), [], now)).toMatchObject({ kind: "other", paymentReported: true });
  });
});

describe("reservationText", () => {
  it("the same words everywhere", () => {
    expect(reservationText({ kind: "mine", transactionId: "t", minutesLeft: 1, paymentReported: false })).toBe("Reserved by you: 1 minute left to pay");
    expect(reservationText({ kind: "mine", transactionId: "t", minutesLeft: 12, paymentReported: false })).toBe("Reserved by you: 12 minutes left to pay");
    expect(reservationText({ kind: "mine", transactionId: "t", minutesLeft: 12, paymentReported: true })).toBe("Reserved by you: payment being confirmed");
    expect(reservationText({ kind: "other", until: new Date(now), paymentReported: false })).toMatch(/^Reserved until \d{1,2}:\d\d [AP]M$/);
    expect(reservationText({ kind: "other", until: new Date(now), paymentReported: true })).toBe("Reserved: a payment is being confirmed");
  });
});
