// An admin's way out for a stuck purchase (docs/payments.md#deadlines): on the purchase page, while it awaits or
// confirms a payment, "Close this purchase" asks in the one confirmation dialog (ConfirmDialog) for a note (required,
// kept in the audit trail), then closes it: the listing is free again and a payment that arrives is listed for
// refund. Shown to admins only; the server checks the role again.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ADMIN_NOTE } from "../../../../schema/admin-note";
import type { ClosedPayment } from "../../../../schema/admin-payments";
import type { PurchaseView } from "../../../../schema/purchases";
import { closePurchase } from "../../api/admin-purchases";
import { errorMessage } from "../../api/error-message";
import { refreshAfterPurchase } from "../../api/purchases";
import { AdminNoteField, isAdminNote } from "../../components/AdminNoteField";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { toast } from "../../components/toast-store";

const PAYMENT_TEXT: Record<ClosedPayment, string> = {
  none: "No payment was reported for it.",
  listed: "Its payment is final and is now listed under Admin → Payments for a refund.",
  watching: "Its payment is not final or not visible yet; if it arrives it is listed under Admin → Payments for a refund.",
};

export function AdminClosePurchase({ view }: { view: Pick<PurchaseView, "id" | "status"> }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const valid = isAdminNote(note);
  const close = useMutation({
    mutationFn: () => closePurchase(view.id, note.trim()),
    onSuccess: async (answer) => {
      toast({ title: "Purchase closed", description: `The listing is free again. ${PAYMENT_TEXT[answer.payment]}`, variant: "success" });
      setOpen(false);
      setNote("");
      await refreshAfterPurchase(queryClient);
    },
    onError: (err) => toast({ title: "Close Failed", description: errorMessage(err) || "The purchase could not be closed.", variant: "destructive" }),
  });
  return (
    <section className="rounded-2xl border border-slate-700 bg-slate-900/60 p-5 sm:p-6" aria-labelledby={`${id}-title`} data-testid="admin-close-purchase">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        Admin: close this purchase
      </h2>
      <p className="mt-2 text-sm text-slate-300">
        For a purchase that is stuck. It fails as closed by an administrator and the listing can be bought again; any payment that arrives for it is listed for
        a refund. Every purchase also ends by itself at its last deadline.
      </p>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Close this purchase?"
        confirmLabel="Close purchase"
        cancelLabel="Keep it open"
        pendingLabel="Closing..."
        pending={close.isPending}
        confirmDisabled={!valid}
        onConfirm={() => valid && close.mutate()}
        trigger={
          <button
            type="button"
            className="mt-4 rounded-lg border border-red-700 px-4 py-2 text-sm font-semibold text-red-200 hover:border-red-500 focus-visible:outline-2 focus-visible:outline-violet-400"
          >
            Close this purchase
          </button>
        }
        field={
          <AdminNoteField
            id={`${id}-note`}
            label={`Note (required, at least ${ADMIN_NOTE.min} characters)`}
            note={note}
            onChange={setNote}
            rows={3}
            layout="dialog"
          />
        }
      >
        <p>
          The purchase ({view.status === "pending" ? "confirming a payment" : "awaiting payment"}) fails and cannot be reopened. Say why: the note is kept in
          the audit trail.
        </p>
      </ConfirmDialog>
    </section>
  );
}
