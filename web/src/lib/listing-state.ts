// What a listing's state reads as on the browsing screens: the NEW badge and the promotion tint, the Buy button,
// the owner's badge, the listing page's availability, and a transactions-table row's type and status.
import type { ListingReservation } from "../../../schema/browse";

export const NEW_WITHIN_MS = 7 * 24 * 60 * 60 * 1000;

/** NEW: created within the last 7 days. */
export function isNew(createdAt: string | number | Date, now: number = Date.now()): boolean {
  const t = new Date(createdAt).getTime();
  return Number.isFinite(t) && now - t <= NEW_WITHIN_MS && t <= now + 60_000;
}

/** Promotion tint: featured purple, promoted orange, standard (or the marketplace's "none") nothing. */
export function promotionTint(promotionType: string | null | undefined): "purple" | "orange" | null {
  if (promotionType === "featured") return "purple";
  if (promotionType === "promoted") return "orange";
  return null;
}

type ListingState = { status: string; isListed: boolean };

/** Buy button: enabled only for an active, listed listing; otherwise disabled with the reason. */
export function buyButton(
  listing: ListingState,
): { enabled: true; label: "Buy Now" } | { enabled: false; label: "Sold" | "Deleted" | "Unavailable" | "Not Listed" } {
  if (listing.status === "sold") return { enabled: false, label: "Sold" };
  if (listing.status === "deleted") return { enabled: false, label: "Deleted" };
  if (!listing.isListed) return { enabled: false, label: "Not Listed" };
  if (listing.status !== "active") return { enabled: false, label: "Unavailable" };
  return { enabled: true, label: "Buy Now" };
}

/** The owner's status badge: Listed, Sold, Deleted or Unavailable. */
export function ownerStatusBadge(listing: ListingState): "Listed" | "Sold" | "Deleted" | "Unavailable" {
  if (listing.status === "sold") return "Sold";
  if (listing.status === "deleted") return "Deleted";
  return listing.status === "active" && listing.isListed ? "Listed" : "Unavailable";
}

/** The listing page's Status: "Reserved" while an open purchase holds it (whose is the buy box's to say). */
export function availabilityText(
  listing: ListingState & { reservation?: ListingReservation | null },
  now = Date.now(),
): "Available for Purchase" | "Reserved" | "Not Available" {
  if (listing.status !== "active" || !listing.isListed) return "Not Available";
  const r = listing.reservation;
  return r && (r.paymentReported || Date.parse(r.until) > now) ? "Reserved" : "Available for Purchase";
}

/** Transactions table: pending -> Listed / Active, completed -> Sale / Completed, anything else Cancelled. */
export function transactionDisplay(status: string): { type: "Listed" | "Sale" | "Cancelled"; status: "Active" | "Completed" | "Cancelled" } {
  if (status === "pending") return { type: "Listed", status: "Active" };
  if (status === "completed") return { type: "Sale", status: "Completed" };
  return { type: "Cancelled", status: "Cancelled" };
}
