// What a listing says about the open purchase holding it: the buyer's own ("Reserved by you", the
// time left, a way back to the purchase), someone else's ("Reserved until 10:14 PM" before anyone clicks Buy),
// or none. The listing's `reservation` is public and the same for everyone; which purchase is the viewer's comes
// from GET /api/transactions/open alone.
import type { ListingReservation } from "../../../schema/browse";
import type { OpenPurchase } from "../../../schema/purchases";
import { formatTime } from "./date-format";

export type ReservationState =
  | { kind: "free" }
  | { kind: "mine"; transactionId: string; minutesLeft: number; paymentReported: boolean }
  | { kind: "other"; until: Date; paymentReported: boolean };

export function reservationState(
  listing: { id: number; reservation: ListingReservation | null },
  own: readonly OpenPurchase[] | undefined,
  now: number,
): ReservationState {
  const mine = own?.find((p) => p.addressId === listing.id);
  if (mine) {
    const paymentReported = mine.status !== "initiated";
    const left = Date.parse(mine.expiresAt) - now;
    if (paymentReported || left > 0)
      return { kind: "mine", transactionId: mine.transactionId, minutesLeft: Math.max(1, Math.ceil(left / 60_000)), paymentReported };
  }
  const r = listing.reservation;
  if (!r) return { kind: "free" };
  const until = new Date(r.until);
  // A cached answer may outlive the reservation by a few seconds: past its time, an unpaid one holds nothing.
  if (!r.paymentReported && !(until.getTime() > now)) return { kind: "free" };
  return { kind: "other", until, paymentReported: r.paymentReported };
}

/** The words a listing shows for its reservation, the same on the card, the table and the listing page. */
export function reservationText(state: Exclude<ReservationState, { kind: "free" }>): string {
  if (state.kind === "mine") {
    if (state.paymentReported) return "Reserved by you: payment being confirmed";
    return `Reserved by you: ${state.minutesLeft} minute${state.minutesLeft === 1 ? "" : "s"} left to pay`;
  }
  return state.paymentReported ? "Reserved: a payment is being confirmed" : `Reserved until ${formatTime(state.until)}`;
}
