import { describe, expect, it } from "vitest";
import { acceptPriceInput, canConfirmPrice } from "./price-input";

describe("acceptPriceInput", () => {
  it("keeps empty and positive values, and zero states on the way to a price", () => {
    for (const v of ["", "1", "0.5", "0.000001", "0", "0.", "0.0", "12.34567890"]) expect(acceptPriceInput(v)).toBe(true);
  });
  it("refuses negatives and text", () => {
    for (const v of ["-1", "-0", "abc", "1e", " "]) expect(acceptPriceInput(v)).toBe(false);
  });
});

describe("canConfirmPrice", () => {
  it("needs a positive number", () => {
    expect(canConfirmPrice("0.1", false)).toBe(true);
    expect(canConfirmPrice("", false)).toBe(false);
    expect(canConfirmPrice("0", false)).toBe(false);
    expect(canConfirmPrice("0.000", false)).toBe(false);
    expect(canConfirmPrice("-2", false)).toBe(false);
  });
  it("is disabled while the request is pending", () => {
    expect(canConfirmPrice("0.1", true)).toBe(false);
  });
});
