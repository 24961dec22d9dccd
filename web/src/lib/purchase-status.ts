// One truth about a purchase: the words and the badge for each (status, failure reason), and what the buyer can
// do with its key, used by the purchase page, My Purchases and anything else that shows a purchase. The server's
// status is shown as it is; nothing here re-judges it. Each table is a Record over every status of
// schema/purchase-lifecycle.ts, so a new status fails the typecheck until it has its words.
import { isIn, PAYABLE, type PurchaseStatus, SOLD } from "../../../schema/purchase-lifecycle";

export type BadgeColour = "green" | "yellow" | "blue" | "red" | "grey";

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
  unverified: "The payment could not be confirmed on chain before the purchase's last deadline.",
  "admin-closed": "An administrator closed this purchase.",
};

/** Plain words for a stored failure reason; an unknown reason is shown as the server wrote it. */
export function failureText(reason: string | null): string {
  if (!reason) return "The payment could not be verified.";
  return FAILURE_TEXT[reason] ?? reason;
}

export type PurchaseStatusDisplay = {
  /** The badge's word. */
  label: string;
  colour: BadgeColour;
  /** One sentence on what the state means for the buyer. */
  detail: string;
};

const DISPLAY: Record<PurchaseStatus, (failureReason: string | null) => PurchaseStatusDisplay> = {
  initiated: () => ({ label: "Awaiting Payment", colour: "blue", detail: "Reserved for you; pay before the reservation runs out." }),
  pending: () => ({ label: "Confirming", colour: "yellow", detail: "Your payment was reported and is being confirmed on chain." }),
  // Never written (schema/purchase-lifecycle.ts); paid if it ever appeared.
  verified: () => ({ label: "Verified", colour: "green", detail: "Your payment is confirmed; the private key is yours." }),
  completed: () => ({ label: "Completed", colour: "green", detail: "Paid and delivered." }),
  failed: (reason) => ({ label: "Failed", colour: "red", detail: `${failureText(reason)} No key was released.` }),
  cancelled: () => ({ label: "Cancelled", colour: "grey", detail: "The reservation was cancelled before any payment; no key was released." }),
  expired: () => ({ label: "Expired", colour: "grey", detail: "The reservation ran out before a payment arrived; no key was released." }),
};

/** The badge and sentence for a purchase: blue awaiting payment, yellow confirming, green paid, red failed, grey ended unpaid. */
export function purchaseStatusDisplay(status: PurchaseStatus, failureReason: string | null): PurchaseStatusDisplay {
  return DISPLAY[status](failureReason);
}

/**
 * What the buyer can do with the key: reveal it (SOLD, the statuses the server releases it in), nothing yet
 * (PAYABLE: awaiting or confirming payment), nothing ever (the purchase ended unpaid), or it was destroyed.
 * A paid custom order is "buyer": its key was made in the buyer's browser and the store never held it, so
 * there is nothing to reveal or destroy (docs/custom-orders.md#paying-and-delivery).
 */
export function keyAvailability(
  status: PurchaseStatus,
  privateKeyDestroyed: boolean,
  customOrder = false,
): "access" | "buyer" | "destroyed" | "later" | "none" {
  if (isIn(SOLD, status)) return customOrder ? "buyer" : privateKeyDestroyed ? "destroyed" : "access";
  if (isIn(PAYABLE, status)) return "later";
  return "none";
}
