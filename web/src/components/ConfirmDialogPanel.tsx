// The confirmation dialog itself (ConfirmDialog.tsx loads it the first time one opens): Radix's dialog, focus trapped,
// Escape and the overlay close it, role="alertdialog"; the way out first and focused.
import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";

export type ConfirmTone = "danger" | "primary";

export type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A question naming the action: "Accept this offer?", "Delete this listing?". */
  title: string;
  /** What happens, and whether it can be undone. */
  children: ReactNode;
  /** An input the action needs (a required note), under the explanation and apart from it. */
  field?: ReactNode;
  /** The action cannot be confirmed yet (the field is not filled in as it must be). */
  confirmDisabled?: boolean;
  /** The confirming button's words: the action itself ("Accept offer"), never "OK" or "Yes". */
  confirmLabel: string;
  /** The button that leaves everything as it was, when "Cancel" would be ambiguous ("Keep Reservation"). */
  cancelLabel?: string;
  /** Shown on the confirming button while the action runs ("Accepting..."). */
  pendingLabel?: string;
  pending?: boolean;
  onConfirm: () => void;
  /** danger: cannot be undone (red); primary: binding but expected (violet). */
  tone?: ConfirmTone;
  /** The button that opens the dialog, when the dialog owns it (Radix's Trigger). */
  trigger?: ReactNode;
};

const CONFIRM_CLASS: Record<ConfirmTone, string> = {
  danger: "bg-red-600 hover:bg-red-500 focus-visible:outline-red-400 border-red-800",
  primary: "bg-violet-600 hover:bg-violet-500 focus-visible:outline-violet-400 border-violet-800",
};

export default function ConfirmDialogPanel({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  cancelLabel,
  pendingLabel,
  pending = false,
  onConfirm,
  tone = "danger",
  field,
  confirmDisabled,
}: ConfirmDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70" />
        <Dialog.Content
          role="alertdialog"
          data-testid="confirm-dialog"
          className={`fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[min(94vw,32rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border bg-slate-900 p-6 shadow-xl ${tone === "danger" ? "border-red-800" : "border-violet-800"}`}
        >
          <ConfirmBody
            title={title}
            confirmLabel={confirmLabel}
            cancelLabel={cancelLabel}
            pendingLabel={pendingLabel}
            pending={pending}
            onConfirm={onConfirm}
            tone={tone}
            field={field}
            confirmDisabled={confirmDisabled}
          >
            {children}
          </ConfirmBody>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The dialog's inside: title, explanation, Cancel then the action. Apart so a test can render it without a portal. */
export function ConfirmBody({
  title,
  children,
  confirmLabel,
  cancelLabel = "Cancel",
  pendingLabel,
  pending = false,
  onConfirm,
  tone = "danger",
  field,
  confirmDisabled = false,
}: Omit<ConfirmDialogProps, "open" | "onOpenChange" | "trigger">) {
  return (
    <>
      <Dialog.Title className="text-lg font-semibold text-white">{title}</Dialog.Title>
      <Dialog.Description asChild>
        <div className="mt-3 space-y-3 text-sm text-slate-300">{children}</div>
      </Dialog.Description>
      {field && <div className="mt-4">{field}</div>}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Dialog.Close asChild>
          <button
            type="button"
            disabled={pending}
            // biome-ignore lint/a11y/noAutofocus: a confirmation opens on Cancel, so a stray Enter never confirms.
            autoFocus
            className="rounded-lg border border-slate-700 px-4 py-2 text-sm font-semibold text-slate-200 hover:border-slate-500 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:opacity-60"
          >
            {cancelLabel}
          </button>
        </Dialog.Close>
        <button
          type="button"
          disabled={pending || confirmDisabled}
          aria-busy={pending}
          onClick={onConfirm}
          className={`rounded-lg px-4 py-2 text-sm font-semibold text-white focus-visible:outline-2 focus-visible:outline-offset-2 disabled:opacity-70 ${pending ? "disabled:cursor-wait" : "disabled:cursor-not-allowed"} ${CONFIRM_CLASS[tone]}`}
          data-testid="confirm-action"
        >
          {pending ? (pendingLabel ?? `${confirmLabel}...`) : confirmLabel}
        </button>
      </div>
    </>
  );
}
