// The offer form's check and how an offer's state reads to its buyer and its seller (docs/offers.md).
import { decimalToUnits, unitsToDecimal } from "../../../schema/money";
import { checkOfferAmount } from "../../../schema/offer-amount";
import type { OfferEndReason, OfferStatus } from "../../../schema/offers";

/** What is wrong with an amount typed into the offer form, as the server would say it (the same check), or null. */
export function offerAmountProblem(text: string, ask: string, currency: string): string | null {
  const seen = checkOfferAmount(text, ask, currency);
  return seen.ok ? null : seen.message;
}

/**
 * The amount the offer field shows as its example: nine tenths of the ask, in the listing's own scale (an example of
 * "0.1" on a listing asking 0.00488 read as a suggestion to offer twenty times the price). Empty for an ask too small
 * to have one below it.
 */
export function exampleOffer(ask: string): string {
  let units: bigint;
  try {
    units = decimalToUnits(ask);
  } catch {
    return "";
  }
  const example = (units * 9n) / 10n;
  return example > 0n && example < units ? unitsToDecimal(example) : "";
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

/** Waiting for the seller: open, or paused behind another accepted offer. Its buyer may withdraw it. */
export const isWaiting = (status: OfferStatus) => status === "open" || status === "paused";

/** The word for the state and, for an ended offer, why. */
export function offerStatusText(status: OfferStatus, reason: OfferEndReason | null): { label: string; detail: string | null; tone: OfferTone } {
  const detail = reason ? REASONS[reason] : null;
  switch (status) {
    case "open":
      return { label: "Open", detail: null, tone: "open" };
    case "paused":
      return { label: "Paused", detail: "the seller accepted another offer; yours opens again if that one is not paid", tone: "open" };
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

/**
 * Where an offer stands, in the seller's words (docs/offers.md#accepting): open ones can be answered; a paused one
 * waits behind the accepted one and opens again if that is not paid; a lapsed one was accepted and never paid.
 */
export function sellerStanding(status: OfferStatus, reason: OfferEndReason | null): { label: string; detail: string | null } {
  switch (status) {
    case "open":
      return { label: "Open", detail: null };
    case "paused":
      return { label: "Paused", detail: "another offer's reservation holds the address; this one opens again if that is not paid" };
    case "accepted":
      return { label: "Accepted", detail: "awaiting the buyer's payment" };
    case "lapsed":
      return { label: "Lapsed", detail: "accepted, but the buyer did not pay in time" };
    default: {
      const { label, detail } = offerStatusText(status, reason);
      return { label, detail };
    }
  }
}
