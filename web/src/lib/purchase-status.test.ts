// One mapping from (status, failure reason) to what the purchase page and My Purchases show.
import { describe, expect, it } from "vitest";
import { PURCHASE_STATUSES } from "../../../schema/purchase-lifecycle";
import { FAILURE_REASONS } from "../../../schema/purchases";
import { failureText, keyAvailability, purchaseStatusDisplay } from "./purchase-status";

describe("purchaseStatusDisplay: every state", () => {
  it.each([
    ["initiated", "Awaiting Payment", "blue"],
    ["pending", "Confirming", "yellow"],
    ["verified", "Verified", "green"],
    ["completed", "Completed", "green"],
    ["failed", "Failed", "red"],
    ["cancelled", "Cancelled", "grey"],
    ["expired", "Expired", "grey"],
  ] as const)("%s: %s (%s)", (status, label, colour) => {
    expect(purchaseStatusDisplay(status, null)).toMatchObject({ label, colour });
  });

  it("covers every status the API has, each with its own label (no state reads as another)", () => {
    const labels = PURCHASE_STATUSES.map((s) => purchaseStatusDisplay(s, null).label);
    expect(new Set(labels).size).toBe(PURCHASE_STATUSES.length);
  });

  it("a cancelled purchase is Cancelled, never Pending, and promises no key (the My Purchases bug)", () => {
    expect(purchaseStatusDisplay("cancelled", null).label).toBe("Cancelled");
    expect(purchaseStatusDisplay("cancelled", null).detail).toMatch(/no key was released/);
    expect(keyAvailability("cancelled", false)).toBe("none");
  });

  it.each(FAILURE_REASONS)("failed with reason %s says why, in words, and that no key was released", (reason) => {
    const { label, detail } = purchaseStatusDisplay("failed", reason);
    expect(label).toBe("Failed");
    expect(detail).toBe(`${failureText(reason)} No key was released.`);
    expect(failureText(reason)).not.toBe(reason);
  });

  it("an unknown or missing reason is still shown", () => {
    expect(failureText(null)).toMatch(/could not be verified/);
    expect(failureText("something new")).toBe("something new");
  });
});

describe("keyAvailability", () => {
  it("the key is offered exactly in the statuses the server releases it (verified, completed)", () => {
    expect(PURCHASE_STATUSES.filter((s) => keyAvailability(s, false) === "access")).toEqual(["verified", "completed"]);
    expect(keyAvailability("completed", true)).toBe("destroyed");
    expect(PURCHASE_STATUSES.filter((s) => keyAvailability(s, false) === "later")).toEqual(["initiated", "pending"]);
    expect(PURCHASE_STATUSES.filter((s) => keyAvailability(s, false) === "none")).toEqual(["failed", "cancelled", "expired"]);
  });
});
