// One amount check for the offer form and POST /api/offers (checkOfferAmount): hostile amounts are refused with the
// offer's own words, and an amount is compared with the ask exactly, never through a float.
import { describe, expect, it } from "vitest";
import { checkOfferAmount } from "./offer-amount";

const form = (message: string) => ({ ok: false, problem: "form", message });
const notBelow = (ask: string) => ({ ok: false, problem: "not_below", message: `An offer must be below the asking price (${ask} ETH)` });

describe("checkOfferAmount", () => {
  it("takes a positive amount strictly below the ask, as exact units", () => {
    expect(checkOfferAmount("0.4", "0.5", "ETH")).toEqual({ ok: true, units: 40_000_000n });
    expect(checkOfferAmount(" 0.49999999 ", "0.5", "ETH")).toEqual({ ok: true, units: 49_999_999n });
    expect(checkOfferAmount(0.25, "0.5", "ETH")).toEqual({ ok: true, units: 25_000_000n });
    // exponent notation is a number as JSON writes one (1e-7 is how JavaScript prints 0.0000001), read exactly
    expect(checkOfferAmount("4e-1", "0.5", "ETH")).toEqual({ ok: true, units: 40_000_000n });
    expect(checkOfferAmount(1e-7, "0.5", "ETH")).toEqual({ ok: true, units: 10n });
  });

  it("refuses the ask itself and anything above it, one unit included", () => {
    expect(checkOfferAmount("0.5", "0.5", "ETH")).toEqual(notBelow("0.5"));
    expect(checkOfferAmount("0.50000001", "0.5", "ETH")).toEqual(notBelow("0.5"));
    expect(checkOfferAmount("2", "0.5", "ETH")).toEqual(notBelow("0.5"));
    expect(checkOfferAmount("5e-1", "0.5", "ETH")).toEqual(notBelow("0.5"));
    // the smallest ask has nothing below it
    expect(checkOfferAmount("0.00000001", "0.00000001", "ETH")).toEqual(notBelow("0.00000001"));
  });

  it.each([
    ["", "The amount is required"],
    [null, "The amount is required"],
    [undefined, "The amount is required"],
    ["-1", "Negative amounts are not allowed"],
    [-0.1, "Negative amounts are not allowed"],
    [-0, "Negative amounts are not allowed"],
    ["0", "The amount must be a positive number greater than 0"],
    ["0.00000000", "The amount must be a positive number greater than 0"],
    ["abc", "The amount must be a positive number greater than 0"],
    ["NaN", "The amount must be a positive number greater than 0"],
    [Number.NaN, "The amount must be a positive number greater than 0"],
    [Number.POSITIVE_INFINITY, "The amount must be a positive number greater than 0"],
    ["0x10", "The amount must be a positive number greater than 0"],
    ["1,5", "The amount must be a positive number greater than 0"],
    ["٠.٤", "The amount must be a positive number greater than 0"],
    [{ n: 1 }, "The amount must be a positive number greater than 0"],
    [[0.1], "The amount must be a positive number greater than 0"],
    [true, "The amount must be a positive number greater than 0"],
    ["0.123456789", "The amount can have at most 8 decimal places"],
    ["1e-9", "The amount can have at most 8 decimal places"],
    [0.1 + 0.2, "The amount can have at most 8 decimal places"],
    ["1e400", "The amount must be at most 90000000"],
    [1e21, "The amount must be at most 90000000"],
    // 2^53 + 1 units and 2^53 coins: past what D1 hands back to JavaScript exactly
    ["90071992.54740993", "The amount must be at most 90000000"],
    [2 ** 53, "The amount must be at most 90000000"],
    ["9".repeat(41), "The amount must be a positive number greater than 0"],
  ])("refuses %j as not an amount: %s", (input, message) => {
    expect(checkOfferAmount(input, "100000000", "ETH")).toEqual(form(message));
  });

  it("checks the form before the ask: a malformed amount is never reported as too high", () => {
    expect(checkOfferAmount("1e400", "0.5", "ETH")).toMatchObject({ problem: "form" });
    expect(checkOfferAmount("0.123456789", "0.1", "ETH")).toMatchObject({ problem: "form" });
  });
});
