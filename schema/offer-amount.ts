// An offer's amount against the listing's ask (docs/offers.md#making-an-offer): one check for the offer form
// (web/src/lib/offer-rules.ts) and POST /api/offers (worker/offers/make.ts). Apart from schema/offers.ts, which
// schema/db/offers.ts reads: the price rules it uses reach schema/db, and that would be an import cycle.
import { checkPrice, decimalToUnits } from "./money";

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
  // The price rules' messages (schema/listings.ts PRICE_MESSAGES) in an offer's words; a rewording, not a second table,
  // because the listing page is on the home route's script budget.
  if (!seen.ok) return { ok: false, problem: "form", message: seen.message.replace(/^Price/, "The amount").replace("Negative prices", "Negative amounts") };
  if (seen.units >= decimalToUnits(ask)) return { ok: false, problem: "not_below", message: `An offer must be below the asking price (${ask} ${currency})` };
  return { ok: true, units: seen.units };
}
