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

export type BadgeColour = "green" | "yellow" | "blue" | "red" | "grey";

/** The header badge: blue awaiting payment, yellow confirming, green paid, red failed, grey ended unpaid. */
export function statusBadge(status: PurchaseStatus): { label: string; colour: BadgeColour } {
  switch (status) {
    case "initiated":
      return { label: "Awaiting Payment", colour: "blue" };
    case "pending":
      return { label: "Confirming", colour: "yellow" };
    case "verified":
      return { label: "Verified", colour: "green" };
    case "completed":
      return { label: "Completed", colour: "green" };
    case "failed":
      return { label: "Failed", colour: "red" };
    case "cancelled":
      return { label: "Cancelled", colour: "grey" };
    case "expired":
      return { label: "Expired", colour: "grey" };
  }
}

/** While confirming the page polls fast, so the key shows seconds after the required depth (DESIGN §6). */
export const FAST_POLL_MS = 2000;
/** The spec's interval otherwise: the server may find an unreported payment, or the reservation may lapse. */
export const SLOW_POLL_MS = 10_000;

/**
 * How often to read the purchase again: fast while a payment is on its way (pending, or a payment this page
 * just sent), slowly while awaiting payment or settling a verified payment, never once it has ended.
 */
export function pollInterval(status: PurchaseStatus, paymentSent: boolean): number | false {
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

const FAILURE_TEXT: Record<string, string> = {
  underpaid: "The payment was less than the total due.",
  "wrong-sender": "The payment came from another wallet than the one you bought with.",
  "wrong-recipient": "The payment went to another address than the marketplace's.",
  reverted: "The payment transaction failed on chain (reverted).",
  "wrong-chain": "The payment was made on another network or chain.",
  "missing-reference": "The transfer did not carry this purchase's reference, so it could not be matched to it.",
  "hash-used": "That transaction already paid for another purchase.",
  reorged: "The payment disappeared from the chain (reorganisation) before it was final.",
  "not-found": "The payment could not be found on chain.",
  expired: "The reservation ran out before a payment arrived.",
  "before-reservation": "That transaction was sent before this reservation was made, so it cannot pay for it.",
  "listing-sold": "The address was sold to another buyer first.",
};

/** Plain words for a stored failure reason; an unknown reason is shown as the server wrote it. */
export function failureText(reason: string | null): string {
  if (!reason) return "The payment could not be verified.";
  return FAILURE_TEXT[reason] ?? reason;
}
