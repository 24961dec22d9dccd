import { describe, expect, it } from "vitest";
import { availabilityText, buyButton, isNew, ownerStatusBadge, promotionTint, transactionDisplay } from "./listing-state";

describe("badges", () => {
  const now = Date.parse("2026-11-22T12:00:00Z");
  const day = 86_400_000;
  it("NEW within 7 days", () => {
    expect(isNew(new Date(now - 7 * day).toISOString(), now)).toBe(true);
    expect(isNew(now - 7 * day - 1, now)).toBe(false);
    expect(isNew(now - 1000, now)).toBe(true);
    expect(isNew("not a date", now)).toBe(false);
    expect(isNew(now + 10 * day, now)).toBe(false);
  });

  it("promotion tint", () => {
    expect(promotionTint("featured")).toBe("purple");
    expect(promotionTint("promoted")).toBe("orange");
    expect(promotionTint("standard")).toBeNull();
    expect(promotionTint("none")).toBeNull();
  });
});

describe("listing state", () => {
  it.each([
    [{ status: "active", isListed: true }, true, "Buy Now", "Listed", "Available for Purchase"],
    [{ status: "sold", isListed: false }, false, "Sold", "Sold", "Not Available"],
    [{ status: "sold", isListed: true }, false, "Sold", "Sold", "Not Available"],
    [{ status: "deleted", isListed: true }, false, "Deleted", "Deleted", "Not Available"],
    [{ status: "inactive", isListed: true }, false, "Unavailable", "Unavailable", "Not Available"],
    [{ status: "pending", isListed: true }, false, "Unavailable", "Unavailable", "Not Available"],
    [{ status: "active", isListed: false }, false, "Not Listed", "Unavailable", "Not Available"],
  ])("%j", (listing, enabled, label, badge, availability) => {
    expect(buyButton(listing)).toEqual({ enabled, label });
    expect(ownerStatusBadge(listing)).toBe(badge);
    expect(availabilityText(listing)).toBe(availability);
  });

  it("Reserved while an open purchase holds an available listing, not once an unpaid one lapsed", () => {
    const now = Date.parse("2026-03-05T22:00:00Z");
    const at = (m: number) => new Date(now + m * 60_000).toISOString();
    const active = { status: "active", isListed: true };
    expect(availabilityText({ ...active, reservation: { until: at(5), paymentReported: false } }, now)).toBe("Reserved");
    expect(availabilityText({ ...active, reservation: { until: at(-5), paymentReported: true } }, now)).toBe("Reserved");
    expect(availabilityText({ ...active, reservation: { until: at(-1), paymentReported: false } }, now)).toBe("Available for Purchase");
    expect(availabilityText({ status: "sold", isListed: false, reservation: { until: at(5), paymentReported: true } }, now)).toBe("Not Available");
  });
});

describe("transactions", () => {
  it("display mapping", () => {
    expect(transactionDisplay("pending")).toEqual({ type: "Listed", status: "Active" });
    expect(transactionDisplay("completed")).toEqual({ type: "Sale", status: "Completed" });
    for (const s of ["cancelled", "failed", "expired", "initiated", ""]) expect(transactionDisplay(s)).toEqual({ type: "Cancelled", status: "Cancelled" });
  });
});
