// The one field an admin types a note into (closing a purchase, dismissing a refund, resolving a difference): the
// note rule of schema/admin-note.ts decides, as the API does, and says what is wrong once something is typed.
import type { ReactNode } from "react";
import { ADMIN_NOTE, adminNoteProblem } from "../../../schema/admin-note";

const TEXTAREA =
  "mt-1 w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-white focus-visible:outline-2 focus-visible:outline-violet-400";

/** Whether the API would take the note (the submit buttons are disabled until it would). */
export const isAdminNote = (note: string) => adminNoteProblem(note) === null;

export function AdminNoteField({
  id,
  label,
  note,
  onChange,
  rows = 2,
  placeholder,
  layout = "inline",
}: {
  id: string;
  label: ReactNode;
  note: string;
  onChange: (note: string) => void;
  rows?: number;
  placeholder?: string;
  /** dialog: a block under a dialog's text; inline: beside the form's buttons in a row. */
  layout?: "dialog" | "inline";
}) {
  const problem = note === "" ? null : adminNoteProblem(note);
  return (
    <label htmlFor={id} className={layout === "dialog" ? "block text-sm text-slate-300" : "flex-1 text-xs text-slate-400"}>
      {label}
      <textarea
        id={id}
        value={note}
        onChange={(e) => onChange(e.target.value)}
        rows={rows}
        maxLength={ADMIN_NOTE.max}
        required
        placeholder={placeholder}
        aria-invalid={problem !== null}
        aria-describedby={problem ? `${id}-problem` : undefined}
        className={layout === "dialog" ? `${TEXTAREA} block` : TEXTAREA}
      />
      {problem && (
        <span id={`${id}-problem`} className="mt-1 block text-xs text-amber-300">
          The note is {problem}.
        </span>
      )}
    </label>
  );
}
