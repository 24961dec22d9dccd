import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { idMessage, idParam, isRowId, rowIdInput } from "./ids";
import { MakeOfferRequest } from "./offers";
import { InitiateRequest } from "./purchases";

const row = idParam("listing");
const uuid = idParam("transaction");
const parsed = (schema: v.GenericSchema, input: unknown) => {
  const r = v.safeParse(schema, input);
  return r.success ? { ok: r.output } : { refused: r.issues[0].message };
};

const A_UUID = "0b6f1c2e-6a3c-4c84-9d8e-2f1f0f5a9e11";

describe("row ids (listings, offers, orders, ...)", () => {
  it("takes a whole number from 1 in plain decimal, up to 15 digits, as its exact number", () => {
    for (const [text, n] of [
      ["1", 1],
      ["42", 42],
      ["1000", 1000],
      ["999999999999999", 999_999_999_999_999],
    ] as const) {
      expect(parsed(row, { id: text }), text).toEqual({ ok: { id: n } });
      expect(isRowId(text), text).toBe(true);
    }
  });

  it("refuses every other spelling: zero, signs, leading zeros, exponents, hex, decimals, spaces, non-ASCII digits, past 2^53", () => {
    const hostile = [
      "",
      "0",
      "00",
      "01",
      "007",
      "-1",
      "+1",
      "1e3",
      "1E3",
      "0x10",
      "0o7",
      "0b1",
      "1.0",
      "1.5",
      ".5",
      "1_000",
      "1,000",
      " 1",
      "1 ",
      "1\n",
      "\t1",
      "1\u0000",
      "Infinity",
      "NaN",
      "null",
      "\u0661", // Arabic-Indic one
      "\uff11", // fullwidth one
      "\u0967", // Devanagari one
      "1\u200b", // a zero-width space after it
      "1000000000000000", // 16 digits
      "9007199254740993", // 2^53 + 1: Number() would round it
      "9".repeat(400),
      "user",
      "search",
      "../1",
      "1/2",
      "%31",
    ];
    for (const text of hostile) {
      expect(parsed(row, { id: text }), JSON.stringify(text)).toEqual({ refused: "must be a listing id (a whole number from 1)" });
      expect(isRowId(text), JSON.stringify(text)).toBe(false);
    }
  });

  it("refuses a param that is not text at all", () => {
    for (const id of [1, null, undefined, ["1"], { toString: () => "1" }]) expect(parsed(row, { id })).toHaveProperty("refused");
  });

  it("in a body: a number or its text, surrounding spaces ignored, the same bounds", () => {
    const body = rowIdInput("addressId must be a listing id");
    expect(parsed(body, 7)).toEqual({ ok: 7 });
    expect(parsed(body, " 7 ")).toEqual({ ok: 7 });
    expect(parsed(body, 999_999_999_999_999)).toEqual({ ok: 999_999_999_999_999 });
    for (const x of [0, -1, 1.5, 1e15, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, "01", "1e3", "0x10", "", true, null, [7], {}]) {
      expect(parsed(body, x), String(x)).toEqual({ refused: "addressId must be a listing id" });
    }
  });
});

describe("UUID ids (purchases, payments, differences)", () => {
  it("takes crypto.randomUUID()'s lowercase 8-4-4-4-12 form, as text", () => {
    expect(parsed(uuid, { id: A_UUID })).toEqual({ ok: { id: A_UUID } });
    expect(parsed(uuid, { id: crypto.randomUUID() })).toHaveProperty("ok");
  });

  it("refuses anything else of 36 characters or near it", () => {
    for (const text of [
      "",
      "-".repeat(36),
      "0".repeat(36),
      A_UUID.toUpperCase(),
      A_UUID.replaceAll("-", ""),
      `{${A_UUID}}`,
      `${A_UUID} `,
      `${A_UUID}\n`,
      `${A_UUID}0`,
      A_UUID.slice(1),
      "0b6f1c2e6-a3c-4c84-9d8e-2f1f0f5a9e11", // the dashes moved
      "0b6f1c2g-6a3c-4c84-9d8e-2f1f0f5a9e11", // not hex
      "42",
    ]) {
      expect(parsed(uuid, { id: text }), JSON.stringify(text)).toEqual({ refused: "must be a transaction id" });
    }
  });
});

describe("messages", () => {
  it("say what the id names, with the article English wants, and the row ids' form", () => {
    expect(idMessage("offer")).toBe("must be an offer id (a whole number from 1)");
    expect(idMessage("order")).toBe("must be an order id (a whole number from 1)");
    expect(idMessage("saved search")).toBe("must be a saved search id (a whole number from 1)");
    expect(idMessage("sale")).toBe("must be a sale id");
    expect(idMessage("payment")).toBe("must be a payment id");
  });

  it("a listing id in an offer's or a purchase's body is refused with the same words (written out there, for the bundle)", () => {
    const issue = (schema: v.GenericSchema, body: object) => v.safeParse(schema, body).issues?.find((i) => v.getDotPath(i) === "addressId")?.message;
    expect(issue(MakeOfferRequest, { addressId: "01" })).toBe(`addressId ${idMessage("listing")}`);
    expect(issue(InitiateRequest, { addressId: "01" })).toBe(idMessage("listing"));
  });
});
