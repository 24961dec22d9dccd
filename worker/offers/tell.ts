// What offers tell (docs/offers.md#notifications), as rows for worker/collectors/notify.ts: the seller hears of a
// new offer (one unread line per listing, the newest offer: one buyer cannot fill a seller's bell), the buyer of what
// became of each of their offers. Written in the batch of the change where there is one; the cron job tells what a
// trigger or the clock ended (offer-job.ts).
import { offerTo } from "../../schema/offer-lifecycle";
import type { OfferEndReason, OfferStatus } from "../../schema/offers";
import type { NotificationInput } from "../collectors/notify";

export type OfferFacts = {
  /** Absent for the seller's line, which is about the listing's offers. */
  offerId?: number;
  listingId: number;
  address: string;
  amount: string;
  currency: string;
  /** The ask, for the seller's line. */
  ask?: string;
  /** An accepted offer's purchase and its payment deadline. */
  transactionId?: string | null;
  until?: number | null;
  reason?: OfferEndReason | null;
};

const base = (f: OfferFacts) => ({ listingId: f.listingId, address: f.address, amount: f.amount, currency: f.currency });

export function offerReceived(sellerId: number, f: OfferFacts): NotificationInput {
  return {
    userId: sellerId,
    kind: "offer_received",
    subject: `listing-offers:${f.listingId}`,
    addressId: f.listingId,
    data: { ...base(f), ask: f.ask ?? "" },
  };
}

/** The buyer's notification for an offer that reached `status`, or null where nothing is told (withdrawn, completed). */
export function offerOutcome(buyerId: number, status: OfferStatus, f: OfferFacts): NotificationInput | null {
  const subject = `offer:${f.offerId ?? 0}`;
  const common = { userId: buyerId, subject, addressId: f.listingId };
  switch (status) {
    case "accepted":
      return {
        ...common,
        kind: "offer_accepted",
        data: { ...base(f), transactionId: f.transactionId ?? "", until: f.until ? new Date(f.until).toISOString() : "" },
      };
    case "declined":
      return { ...common, kind: "offer_declined", data: { ...base(f), reason: f.reason ?? "seller" } };
    case "expired":
    case "lapsed":
      return { ...common, kind: "offer_expired", data: { ...base(f), reason: f.reason ?? (status === offerTo("lapse") ? "payment_lapsed" : "clock") } };
    default:
      return null;
  }
}
