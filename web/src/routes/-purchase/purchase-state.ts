// What the purchase page shows for a purchase's state (transactions-profile-admin.md §2, §4; DESIGN §6), as
// pure functions: which panel, the header badge, how often to poll, the confirmation depth and countdown.
import type { PurchaseStatus, PurchaseView } from "../../../../schema/purchases";

export type PurchaseStage = "pay" | "confirming" | "released" | "destroyed" | "failed" | "cancelled" | "expired";

/** The panel for a purchase: pay while initiated, wait while pending, reveal while verified or completed. */
export function purchaseStage(view: Pick<PurchaseView, "status" | "privateKeyDestroyed">): PurchaseStage {
  switch (view.status) {
    case "initiated":
      return "pay";
    case "pending":
      return "confirming";
    case "verified":
    case "completed":
      return view.privateKeyDestroyed ? "destroyed" : "released";
    case "failed":
      return "failed";
    case "cancelled":
      return "cancelled";
    case "expired":
      return "expired";
  }
}

/** While confirming the page polls fast, so the key shows seconds after the required depth (DESIGN §6). */
export const FAST_POLL_MS = 2000;
/** The spec's interval otherwise: the server may find an unreported payment, or the reservation may lapse. */
export const SLOW_POLL_MS = 10_000;

/**
 * The spec: the purchase page stops polling after 5 minutes. The server does not need the page: the cron job keeps
 * verifying and settling a reported or unreported payment (DESIGN §6), so the page only stops asking, says so,
 * and offers "Check again", which polls (and re-reports the payment) for another 5 minutes.
 */
export const POLL_LIMIT_MS = 5 * 60_000;

/**
 * How often to read the purchase again: fast while a payment is on its way (pending, or a payment this page
 * just sent), slowly while awaiting payment or settling a verified payment, never once it has ended or after
 * POLL_LIMIT_MS of polling (`pollingForMs`).
 */
export function pollInterval(status: PurchaseStatus, paymentSent: boolean, pollingForMs = 0): number | false {
  if (pollingForMs >= POLL_LIMIT_MS) return false;
  if (status === "pending") return FAST_POLL_MS;
  if (status === "initiated") return paymentSent ? FAST_POLL_MS : SLOW_POLL_MS;
  if (status === "verified") return SLOW_POLL_MS;
  return false;
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
