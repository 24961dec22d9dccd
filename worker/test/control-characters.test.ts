// Every text field that refuses control characters refuses each of them, with the field named, and changes
// nothing (worker/http/validate.ts noControlCharacters: one check for the address checker, the ownership
// check, listing creation and the admin search).
import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { CONTROL_CHARACTER, noControlCharacters } from "../http/validate";
import { client, refusal } from "./client";

const CONTROLS = [...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)), "\u007f"];

describe("control characters", () => {
  it("the shared check refuses C0 and DEL and takes everything else", () => {
    const field = v.pipe(v.string(), noControlCharacters("address"));
    for (const c of CONTROLS) {
      const result = v.safeParse(field, `0xdead${c}beef`);
      expect(result.success, JSON.stringify(c)).toBe(false);
      expect(result.issues?.[0].message).toBe("address must not contain control characters");
    }
    for (const text of ["0xdeadbeef", " So1ana ", "é…€\u0080\u00a0", ""]) expect(v.safeParse(field, text).success, text).toBe(true);
    expect(CONTROL_CHARACTER.test("\u0080")).toBe(false);
  });

  it("the address checker answers 400 naming the field", async () => {
    for (const c of ["\u0000", "\n", "\u007f"]) {
      const res = await client().addresses.validate.$post({ json: { address: `0x0000${c}dead`, network: "ethereum" } });
      expect(res.status).toBe(400);
      expect((await refusal(res)).message).toBe("address: address must not contain control characters");
    }
  });

  it("a GET check with a control character in the query is refused the same way", async () => {
    const res = await client().addresses.validate.$get({ query: { address: "0xdead\u0001beef" } });
    expect(res.status).toBe(400);
  });
});
