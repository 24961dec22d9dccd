import { describe, expect, it } from "vitest";
import { priceVerdict } from "./price-verdict";

describe("priceVerdict", () => {
  it("within 10% of the estimate reads in line", () => {
    expect(priceVerdict("1.1", "1")).toEqual({ tone: "in-line", text: "in line with the estimated value" });
    expect(priceVerdict("0.9", "1")).toEqual({ tone: "in-line", text: "in line with the estimated value" });
  });

  it("above and below in percent, far above as a multiple", () => {
    expect(priceVerdict("1.5", "1")).toEqual({ tone: "above", text: "50% above the estimated value" });
    expect(priceVerdict("0.25", "1")).toEqual({ tone: "below", text: "75% below the estimated value" });
    expect(priceVerdict("3.5", "1")).toEqual({ tone: "above", text: "3.5× the estimated value" });
    expect(priceVerdict("123", "1")).toEqual({ tone: "above", text: "123× the estimated value" });
  });

  it("no verdict without two positive numbers", () => {
    expect(priceVerdict("1", "0")).toBeNull();
    expect(priceVerdict("0", "1")).toBeNull();
    expect(priceVerdict("abc", "1")).toBeNull();
    expect(priceVerdict("1", "Infinity")).toBeNull();
  });
});
