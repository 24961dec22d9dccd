import { describe, expect, it } from "vitest";
import { acceptPriceInput, canConfirmPrice, priceError } from "./price-input";

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
  it("is the create form's check: every priceError message disables it", () => {
    for (const v of ["1e3", "0.123456789", "90000001", ".", "abc"]) {
      expect(priceError(v)).not.toBeNull();
      expect(canConfirmPrice(v, false)).toBe(false);
    }
    expect(canConfirmPrice("90000000", false)).toBe(true);
  });
  it("is disabled while the request is pending", () => {
    expect(canConfirmPrice("0.1", true)).toBe(false);
  });
});

describe("priceError", () => {
  it("gives the spec's messages", () => {
    expect(priceError("")).toBe("Price is required");
    expect(priceError("  ")).toBe("Price is required");
    expect(priceError("-1")).toBe("Negative prices are not allowed");
    expect(priceError("0")).toBe("Price must be a positive number greater than 0");
    expect(priceError("abc")).toBe("Price must be a positive number greater than 0");
    expect(priceError("1e3")).toBe("Price must be a positive number greater than 0");
    expect(priceError(".")).toBe("Price must be a positive number greater than 0");
    expect(priceError("0.123456789")).toBe("Price can have at most 8 decimal places");
    expect(priceError("90000001")).toBe("Price must be at most 90000000");
    expect(priceError("0.5")).toBeNull();
    expect(priceError(".5")).toBeNull();
  });
});
