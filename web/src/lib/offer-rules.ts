// The offer form's check and how an offer's state reads to its buyer and its seller (docs/offers.md).
import { checkPrice, decimalToUnits } from "../../../schema/money";
import type { OfferEndReason, OfferStatus } from "../../../schema/offers";

/** What is wrong with an amount typed into the offer form, as the server would say it, or null. */
export function offerAmountProblem(text: string, ask: string, currency: string): string | null {
  const seen = checkPrice(text);
  if (!seen.ok) return seen.message.replace(/^Price/, "The amount").replace("Negative prices", "Negative amounts");
  if (seen.units >= decimalToUnits(ask)) return `An offer must be below the asking price (${ask} ${currency})`;
  return null;
}

export type OfferTone = "open" | "good" | "ended";

const REASONS: Record<OfferEndReason, string> = {
  clock: "its time ran out",
  price_changed: "the price changed",
  sold: "the address was sold",
  unlisted: "the address is no longer for sale",
  seller: "the seller declined it",
  other_accepted: "the seller accepted another offer",
  buyer: "you withdrew it",
  payment_lapsed: "the reservation ran out unpaid",
  paid: "paid",
};

/** The word for the state and, for an ended offer, why. */
export function offerStatusText(status: OfferStatus, reason: OfferEndReason | null): { label: string; detail: string | null; tone: OfferTone } {
  const detail = reason ? REASONS[reason] : null;
  switch (status) {
    case "open":
      return { label: "Open", detail: null, tone: "open" };
    case "accepted":
      return { label: "Accepted: pay now", detail: null, tone: "good" };
    case "completed":
      return { label: "Bought", detail: null, tone: "good" };
    case "declined":
      return { label: "Declined", detail, tone: "ended" };
    case "withdrawn":
      return { label: "Withdrawn", detail: null, tone: "ended" };
    case "lapsed":
      return { label: "Not paid in time", detail, tone: "ended" };
    default:
      return { label: "Expired", detail, tone: "ended" };
  }
}

/** The validity choices in words: "1 hour", "6 hours", "1 day", "3 days", "7 days", "30 days". */
export function validityLabel(hours: number): string {
  if (hours < 24) return `${hours} hour${hours === 1 ? "" : "s"}`;
  const days = hours / 24;
  return `${days} day${days === 1 ? "" : "s"}`;
}
