import { describe, expect, it } from "vitest";
import { OFFER_VALIDITY_CHOICES } from "../../../schema/offers";
import { exampleOffer, offerAmountProblem, offerStatusText, validityLabel } from "./offer-rules";

describe("offer status words", () => {
  it("says why an ended offer ended, and only then", () => {
    expect(offerStatusText("open", null)).toEqual({ label: "Open", detail: null, tone: "open" });
    expect(offerStatusText("declined", "other_accepted")).toEqual({ label: "Declined", detail: "the seller accepted another offer", tone: "ended" });
    expect(offerStatusText("expired", "price_changed")).toMatchObject({ label: "Expired", detail: "the price changed" });
    expect(offerStatusText("lapsed", "payment_lapsed")).toMatchObject({ label: "Not paid in time", tone: "ended" });
    expect(offerStatusText("accepted", null)).toMatchObject({ label: "Accepted: pay now", tone: "good" });
    expect(offerStatusText("paused", null)).toMatchObject({ label: "Paused", tone: "open", detail: expect.stringContaining("opens again") });
  });

  it("names every validity choice", () => {
    expect(OFFER_VALIDITY_CHOICES.map(validityLabel)).toEqual(["1 hour", "6 hours", "1 day", "3 days", "7 days", "30 days"]);
  });
});

describe("the offer form's amount", () => {
  it("takes a positive amount below the ask, with at most 8 decimals", () => {
    expect(offerAmountProblem("0.4", "0.5", "ETH")).toBeNull();
    expect(offerAmountProblem("0.49999999", "0.5", "ETH")).toBeNull();
    expect(offerAmountProblem("0.5", "0.5", "ETH")).toBe("An offer must be below the asking price (0.5 ETH)");
    expect(offerAmountProblem("2", "0.5", "ETH")).toContain("below the asking price");
    expect(offerAmountProblem("", "0.5", "ETH")).toBe("The amount is required");
    expect(offerAmountProblem("-1", "0.5", "ETH")).toBe("Negative amounts are not allowed");
    expect(offerAmountProblem("abc", "0.5", "ETH")).toContain("positive number");
    expect(offerAmountProblem("0.123456789", "0.5", "ETH")).toContain("at most 8 decimal places");
  });
});

describe("exampleOffer", () => {
  it("shows nine tenths of the ask in the listing's own scale, never more than the ask", () => {
    expect(exampleOffer("0.00488")).toBe("0.004392");
    expect(exampleOffer("1")).toBe("0.9");
    expect(exampleOffer("2.5")).toBe("2.25");
    expect(exampleOffer("0.00000002")).toBe("0.00000001");
  });

  it("has no example for an ask with nothing below it, or one it cannot read", () => {
    expect(exampleOffer("0.00000001")).toBe("");
    expect(exampleOffer("")).toBe("");
    expect(exampleOffer("abc")).toBe("");
  });
});
