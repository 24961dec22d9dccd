// The note an admin gives with an action that changes money or a purchase for good (closing a purchase, dismissing a
// refund, resolving a reconciliation difference): one rule for the API's requests (schema/purchases.ts) and the web's
// field (web/src/components/AdminNoteField.tsx). The note is kept in the audit trail, so it must say something:
// trimmed, at least one letter or digit (a note of zero-width spaces or dots passes a length check and says
// nothing), and bounded so one note cannot bloat the audit rows.
import * as v from "valibot";

export const ADMIN_NOTE = { min: 3, max: 1000 } as const;

const WORDS = /[\p{L}\p{N}]/u;

/** A request's note field; `purpose` ends "must say ...": "why the purchase is closed". */
export const adminNote = (purpose: string) =>
  v.pipe(
    v.string("must be a string"),
    v.trim(),
    v.minLength(ADMIN_NOTE.min, `must say ${purpose} (at least ${ADMIN_NOTE.min} characters)`),
    v.maxLength(ADMIN_NOTE.max, `is too long (${ADMIN_NOTE.max} characters at most)`),
    v.regex(WORDS, `must say ${purpose} in words (letters or digits)`),
  );

/** What the API would refuse in a note being typed, in the field's words, or null when it would take it. */
export function adminNoteProblem(text: string): string | null {
  const note = text.trim();
  if (note.length < ADMIN_NOTE.min) return `required (at least ${ADMIN_NOTE.min} characters)`;
  if (note.length > ADMIN_NOTE.max) return `too long (${ADMIN_NOTE.max} characters at most)`;
  if (!WORDS.test(note)) return "not in words (it needs a letter or a digit)";
  return null;
}
