import { describe, expect, it } from "vitest";
import { HttpError } from "../../api/http";
import { fieldErrors, firstRefused } from "./field-errors";

const refusal = (status: number, body: unknown) => new HttpError(status, JSON.stringify(body), "Bad Request");
const LABELS = { exchangeFeePercentage: "Exchange fee", minimumFee: "Minimum fee", effectiveFrom: "Effective from" };

describe("a refused settings change, at its fields", () => {
  it("puts each refused field's problem at the field, after its label, and nothing above Save", () => {
    const err = refusal(400, {
      error: "Validation Error",
      message: "exchangeFeePercentage: enter a percentage such as 2.5; minimumFee: use at most 8 decimals",
      fields: { exchangeFeePercentage: "enter a percentage such as 2.5", minimumFee: "use at most 8 decimals" },
    });
    expect(fieldErrors(err, LABELS)).toEqual({
      fields: { exchangeFeePercentage: "Exchange fee: enter a percentage such as 2.5", minimumFee: "Minimum fee: use at most 8 decimals" },
      form: null,
    });
  });

  it("keeps what names no field of the form above Save, and a refusal without fields as the server says it", () => {
    const err = refusal(400, {
      error: "Validation Error",
      message: "…",
      fields: { minimumFee: "use at most 8 decimals", network: "choose ethereum or solana" },
    });
    expect(fieldErrors(err, LABELS)).toEqual({ fields: { minimumFee: "Minimum fee: use at most 8 decimals" }, form: "network: choose ethereum or solana" });
    expect(fieldErrors(refusal(429, { error: "Too Many Requests", message: "Slow down" }), LABELS)).toEqual({ fields: {}, form: "Slow down" });
    expect(fieldErrors(new Error("Failed to fetch"), LABELS)).toEqual({ fields: {}, form: "Failed to fetch" });
  });

  it("ignores a `fields` that is not a map of texts, and the object's own prototype names", () => {
    expect(fieldErrors(refusal(400, { error: "x", message: "m", fields: ["a"] }), LABELS)).toEqual({ fields: {}, form: "m" });
    expect(fieldErrors(refusal(400, { error: "x", message: "m", fields: { minimumFee: 3, toString: "no" } }), LABELS)).toEqual({
      fields: {},
      form: "m",
    });
  });

  it("words a problem as the form asks: Admin > Supply shows its sentences bare under their fields", () => {
    const err = refusal(400, {
      error: "Validation Error",
      message: "…",
      fields: { patternLength: "Ethereum leading zeros take 3 to 12 characters", network: "network must be ethereum or solana" },
    });
    expect(fieldErrors(err, { patternLength: "Characters" }, (_, problem) => problem)).toEqual({
      fields: { patternLength: "Ethereum leading zeros take 3 to 12 characters" },
      form: "network: network must be ethereum or solana",
    });
  });

  it("sends the focus to the first refused field of the form", () => {
    const errors = fieldErrors(
      refusal(409, { error: "Conflict", message: "m", fields: { effectiveFrom: "choose another time", minimumFee: "enter at most 1000" } }),
      LABELS,
    );
    expect(firstRefused(errors, ["exchangeFeePercentage", "minimumFee", "effectiveFrom"])).toBe("minimumFee");
  });
});
