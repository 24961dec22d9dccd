// The one confirmation dialog for every destructive or binding action (docs/front-end.md#accessibility-and-phone): accepting
// an offer, cancelling an order, deleting a listing, destroying a key. One look and one behaviour everywhere: a
// title that names the action, what it does and whether it can be undone, the way out first (and focused, so Enter
// alone never confirms), the confirming button named by its action, and no closing while the action runs.
// Built on Radix's dialog (focus trapped, Escape and the overlay close it) with role="alertdialog", loaded the first
// time one opens (ConfirmDialogPanel.tsx): the listing page, a landing page, offers one to its owner, and Radix's
// dialog would otherwise weigh on every visitor's first load (npm run check's budget).
import { cloneElement, isValidElement, lazy, type MouseEvent, type ReactElement, Suspense } from "react";

import type { ConfirmDialogProps } from "./ConfirmDialogPanel";

const ConfirmDialogPanel = lazy(() => import("./ConfirmDialogPanel"));

export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, onOpenChange, trigger } = props;
  return (
    <>
      {isValidElement<{ onClick?: (e: MouseEvent) => void }>(trigger) && <OpensDialog trigger={trigger} open={open} onOpen={() => onOpenChange(true)} />}
      {open && (
        <Suspense fallback={null}>
          <ConfirmDialogPanel {...props} />
        </Suspense>
      )}
    </>
  );
}

/** The button that opens the dialog, as Radix's Trigger would make it: it opens it and says that it does. */
function OpensDialog({ trigger, open, onOpen }: { trigger: ReactElement<{ onClick?: (e: MouseEvent) => void }>; open: boolean; onOpen: () => void }) {
  return cloneElement(trigger, {
    "aria-haspopup": "dialog",
    "aria-expanded": open,
    onClick: (e: MouseEvent) => {
      trigger.props.onClick?.(e);
      if (!e.defaultPrevented) onOpen();
    },
  } as Partial<typeof trigger.props>);
}
