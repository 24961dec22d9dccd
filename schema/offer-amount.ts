// An offer's amount against the listing's ask (docs/offers.md#making-an-offer): one check for the offer form
// (web/src/lib/offer-rules.ts) and POST /api/offers (worker/offers/make.ts). Apart from schema/offers.ts, which
// schema/db/offers.ts reads: the price rules it uses reach schema/db, and that would be an import cycle.
import { PRICE_MESSAGES } from "./listings";
import { checkPrice, decimalToUnits } from "./money";

/** The listing price rules' messages (schema/listings.ts PRICE_MESSAGES) in an offer's words. */
const AMOUNT_MESSAGES: Record<keyof typeof PRICE_MESSAGES, string> = {
  required: "The amount is required",
  positive: "The amount must be a positive number greater than 0",
  negative: "Negative amounts are not allowed",
  decimals: "The amount can have at most 8 decimal places",
  tooLarge: `The amount must be at most ${PRICE_MESSAGES.tooLarge.replace(/^\D+/, "")}`,
};

export type OfferAmountCheck =
  | { ok: true; units: bigint }
  /** form: not an amount at all (the API's 400); not_below: an amount, but not below the ask (its 409). */
  | { ok: false; problem: "form" | "not_below"; message: string };

/**
 * An offered amount against the listing's ask, for the offer form and POST /api/offers alike: the listing price
 * rules (schema/money.ts checkPrice: a positive decimal, at most 8 decimals, at most the largest price, no float on
 * the way), then strictly below the ask. `ask` is the listing's stored price text.
 */
export function checkOfferAmount(input: unknown, ask: string, currency: string): OfferAmountCheck {
  const seen = checkPrice(input);
  if (!seen.ok) {
    const key = (Object.keys(PRICE_MESSAGES) as (keyof typeof PRICE_MESSAGES)[]).find((k) => PRICE_MESSAGES[k] === seen.message);
    return { ok: false, problem: "form", message: AMOUNT_MESSAGES[key ?? "positive"] };
  }
  if (seen.units >= decimalToUnits(ask)) return { ok: false, problem: "not_below", message: `An offer must be below the asking price (${ask} ${currency})` };
  return { ok: true, units: seen.units };
}
