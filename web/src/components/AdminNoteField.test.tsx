import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ADMIN_NOTE } from "../../../schema/admin-note";
import { AdminNoteField, isAdminNote } from "./AdminNoteField";

const field = (note: string) =>
  renderToStaticMarkup(<AdminNoteField id="n" label="What was done (required)" note={note} onChange={() => {}} placeholder="e.g. refunded" />);

describe("AdminNoteField: the one field for an admin's note", () => {
  it("a labelled, required textarea bounded as the API bounds it, calm while empty", () => {
    const html = field("");
    expect(html).toMatch(/<label for="n"[^>]*>What was done \(required\)<textarea id="n"/);
    expect(html).toContain(`maxLength="${ADMIN_NOTE.max}"`);
    expect(html).toContain('required=""');
    expect(html).toContain('aria-invalid="false"');
    expect(html).not.toContain("n-problem");
  });

  it("says what the API would refuse once something is typed, and is quiet for a note it takes", () => {
    expect(field("x")).toContain('aria-invalid="true"');
    expect(field("x")).toContain(`The note is required (at least ${ADMIN_NOTE.min} characters).`);
    expect(field("\u200b\u200b\u200b")).toContain("The note is not in words");
    expect(field("our own test transfer")).toContain('aria-invalid="false"');
    expect(field("our own test transfer")).not.toContain("The note is");
    expect(isAdminNote("  our own test transfer ")).toBe(true);
    expect(isAdminNote("...")).toBe(false);
  });

  it("every admin note in the web is typed into it", () => {
    for (const path of ["routes/-purchase/AdminClosePurchase.tsx", "routes/-admin/PaymentsAttentionTab.tsx", "routes/-admin/PaymentDifferences.tsx"]) {
      const text = readFileSync(join(import.meta.dirname, "..", path), "utf8");
      expect(text).toContain("<AdminNoteField");
      expect(text).not.toContain("<textarea");
      expect(text).toContain("isAdminNote(note)");
    }
  });
});
