// Every note an admin gives with an action (closing a purchase, dismissing a refund, resolving a difference) is read
// by one rule (schema/admin-note.ts): trimmed, words in it, 3 to 1000 characters; the web's field asks the same.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ADMIN_NOTE, adminNoteProblem } from "./admin-note";
import { ClosePurchaseRequest, DismissRefundRequest, ResolveDifferenceRequest } from "./admin-payments";

const REQUESTS = { close: ClosePurchaseRequest, dismiss: DismissRefundRequest, resolve: ResolveDifferenceRequest };
const read = (schema: (typeof REQUESTS)[keyof typeof REQUESTS], note: unknown) => v.safeParse(schema, { note });

describe("an admin's note", () => {
  for (const [action, schema] of Object.entries(REQUESTS)) {
    it(`${action}: keeps the note trimmed, from ${ADMIN_NOTE.min} to ${ADMIN_NOTE.max} characters`, () => {
      expect(read(schema, "  our own test transfer \n")).toMatchObject({ success: true, output: { note: "our own test transfer" } });
      expect(read(schema, "abc").success).toBe(true);
      expect(read(schema, "x".repeat(ADMIN_NOTE.max)).success).toBe(true);
    });

    it.each([
      ["nothing", ""],
      ["only spaces", "     "],
      ["too short once trimmed", "  x  "],
      ["too long", "x".repeat(ADMIN_NOTE.max + 1)],
      ["zero-width spaces only", "\u200b\u200b\u200b\u200b"],
      ["punctuation only", "..."],
      ["a byte-order mark and joiners", "\ufeff\u200d\u2060"],
      ["not text", 12],
      ["null", null],
    ])(`${action}: refuses %s`, (_what, note) => {
      expect(read(schema, note).success).toBe(false);
    });
  }

  it("the web's field says what the API would refuse, and nothing else", () => {
    expect(adminNoteProblem("")).toBe(`required (at least ${ADMIN_NOTE.min} characters)`);
    expect(adminNoteProblem("  x ")).toBe(`required (at least ${ADMIN_NOTE.min} characters)`);
    expect(adminNoteProblem("\u200b\u200b\u200b")).toBe("not in words (it needs a letter or a digit)");
    expect(adminNoteProblem("x".repeat(ADMIN_NOTE.max + 1))).toBe(`too long (${ADMIN_NOTE.max} characters at most)`);
    expect(adminNoteProblem(" stuck for an hour ")).toBeNull();
    for (const note of ["", "  x ", "\u200b\u200b\u200b", "...", "x".repeat(ADMIN_NOTE.max + 1), "ok!", " stuck for an hour "]) {
      for (const schema of Object.values(REQUESTS)) expect(read(schema, note).success).toBe(adminNoteProblem(note) === null);
    }
  });
});
