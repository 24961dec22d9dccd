// Withdrawing one's own offer, from the listing page and from Profile > My offers: it asks first (ConfirmDialog), for
// a withdrawn offer cannot be reopened (a new one can be made, from its listing page).
import { type ReactElement, useState } from "react";
import { ConfirmDialog } from "../ConfirmDialog";

/**
 * `trigger`: the button that opens the confirmation. `onWithdraw` is called only from the dialog's confirming button,
 * and closes it once the withdrawal has settled.
 */
export function WithdrawOffer({
  amount,
  pending,
  onWithdraw,
  trigger,
}: {
  /** "0.015 ETH" */
  amount: string;
  pending: boolean;
  onWithdraw: (done: () => void) => void;
  trigger: ReactElement;
}) {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      title="Withdraw this offer?"
      confirmLabel="Withdraw offer"
      cancelLabel="Keep offer"
      pendingLabel="Withdrawing..."
      pending={pending}
      onConfirm={() => onWithdraw(() => setOpen(false))}
      trigger={trigger}
    >
      <p>
        Your offer of <strong className="text-white">{amount}</strong> ends now: the seller can no longer accept it. You can make a new offer from the
        listing&apos;s page while it is for sale.
      </p>
    </ConfirmDialog>
  );
}
