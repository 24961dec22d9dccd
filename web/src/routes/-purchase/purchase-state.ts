// What the purchase page shows for a purchase's state (docs/payments.md#deadlines), as pure functions: which
// panel, the header badge, how often to poll, the confirmation depth and countdown.
import type { PurchaseStatus } from "../../../../schema/purchase-lifecycle";
import type { PurchaseView } from "../../../../schema/purchases";

export type PurchaseStage = "pay" | "confirming" | "released" | "destroyed" | "failed" | "cancelled" | "expired";

/** The panel for each status (a Record over every status: a new one fails the typecheck until it has a panel). */
const STAGE: Record<PurchaseStatus, PurchaseStage | "key"> = {
  initiated: "pay",
  pending: "confirming",
  verified: "key",
  completed: "key",
  failed: "failed",
  cancelled: "cancelled",
  expired: "expired",
};

/** The panel for a purchase: pay while initiated, wait while pending, reveal while verified or completed. */
export function purchaseStage(view: Pick<PurchaseView, "status" | "privateKeyDestroyed">): PurchaseStage {
  const stage = STAGE[view.status];
  if (stage !== "key") return stage;
  return view.privateKeyDestroyed ? "destroyed" : "released";
}

/** While confirming the page polls fast, so the key shows seconds after the required depth. */
export const FAST_POLL_MS = 2000;
/** The interval otherwise: the server may find an unreported payment, or the reservation may lapse. */
export const SLOW_POLL_MS = 10_000;

/**
 * The purchase page stops polling after 5 minutes. The server does not need the page: the cron job keeps
 * verifying and settling a reported or unreported payment, so the page only stops asking, says so,
 * and offers "Check again", which polls (and re-reports the payment) for another 5 minutes.
 */
export const POLL_LIMIT_MS = 5 * 60_000;

const POLL: Record<PurchaseStatus, (paymentSent: boolean) => number | false> = {
  initiated: (paymentSent) => (paymentSent ? FAST_POLL_MS : SLOW_POLL_MS),
  pending: () => FAST_POLL_MS,
  verified: () => SLOW_POLL_MS,
  completed: () => false,
  failed: () => false,
  cancelled: () => false,
  expired: () => false,
};

/**
 * How often to read the purchase again: fast while a payment is on its way (pending, or a payment this page
 * just sent), slowly while awaiting payment or settling a verified payment, never once it has ended or after
 * POLL_LIMIT_MS of polling (`pollingForMs`).
 */
export function pollInterval(status: PurchaseStatus, paymentSent: boolean, pollingForMs = 0): number | false {
  if (pollingForMs >= POLL_LIMIT_MS) return false;
  return POLL[status](paymentSent);
}

/** "2 of 3 confirmations" (never more than required: beyond depth it is simply final). */
export function confirmationsText(confirmations: number, required: number): string {
  const req = Math.max(1, required);
  const shown = Math.min(Math.max(0, Math.floor(confirmations)), req);
  return `${shown} of ${req} confirmation${req === 1 ? "" : "s"}`;
}

/** Time left on the reservation as "m:ss", or null once it has run out. */
export function reservationCountdown(expiresAt: string | null, now: number): string | null {
  if (!expiresAt) return null;
  const left = Math.floor((new Date(expiresAt).getTime() - now) / 1000);
  if (!Number.isFinite(left) || left <= 0) return null;
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** Whether the page is in a state it would poll in (so a stopped poll is worth saying). */
export const pollableStatus = (status: PurchaseStatus, paymentSent: boolean) => pollInterval(status, paymentSent) !== false;

/** How long a payment usually takes to reach its confirmations, as the confirming panel first says. */
export const USUAL_CONFIRMATION_MS = 2 * 60_000;

export type ConfirmingNote = { stage: "usual" | "slow" | "overdue" | "closing"; text: string };

/**
 * What the confirming panel says, never promising a time its state has already passed (docs/buying.md): the usual
 * wait while the payment is fresh, then that it is slow and when a payment not found ends the purchase (the
 * deadline), then the last deadline (the node not answering), then that the purchase is being closed.
 * `clock` words a time ("10:14 PM"); `now` and the view's times are compared as instants.
 */
export function confirmingNote(
  view: Pick<PurchaseView, "paymentReportedAt" | "paymentDeadline" | "lastDeadline">,
  now: number,
  clock: (when: Date) => string,
): ConfirmingNote {
  const at = (iso: string | null) => (iso === null ? Number.NaN : Date.parse(iso));
  const deadline = at(view.paymentDeadline);
  const last = at(view.lastDeadline);
  const fresh = view.paymentReportedAt === null || now <= at(view.paymentReportedAt) + USUAL_CONFIRMATION_MS;
  const refund = "a payment that arrives after that is listed for a refund.";
  if (now > last) return { stage: "closing", text: `The last deadline (${clock(new Date(last))}) has passed, so this purchase is being closed: ${refund}` };
  if (now > deadline)
    return {
      stage: "overdue",
      text: `The payment was not confirmed by ${clock(new Date(deadline))}. It is checked until ${clock(new Date(last))} at the latest, in case the blockchain node was not answering; then the purchase ends and ${refund}`,
    };
  if (fresh || Number.isNaN(deadline))
    return {
      stage: "usual",
      text: "The private key is revealed here as soon as the payment has the required confirmations (usually 30 seconds to 2 minutes). This page updates by itself.",
    };
  return {
    stage: "slow",
    text: `This is taking longer than usual. We keep checking: if the payment is not found on chain by ${clock(new Date(deadline))}, the purchase ends and ${refund}`,
  };
}
