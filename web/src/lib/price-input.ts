// A listing's price as a person types it: one check, priceError, for the create form and the owner's price edit (on
// the card and on the listing page), giving the specification's messages. The edit box is a numeric input with
// step and minimum 0.000001 that keeps only an empty string or a non-negative number while typing (so "0." and
// "0.0" can be typed on the way to "0.05"), and its confirm needs a price priceError accepts and no request in flight.
import { PRICE_MESSAGES } from "../../../schema/listings";

/** The largest price storage takes (schema/listings.ts PRICE_MESSAGES.tooLarge). */
const MAX_PRICE = 90_000_000;

/** The price's inline message, or null when it may be sent. */
export function priceError(input: string): string | null {
  const text = input.trim();
  if (text === "") return PRICE_MESSAGES.required;
  if (text.startsWith("-")) return PRICE_MESSAGES.negative;
  if (!/^\d*\.?\d*$/.test(text) || text === ".") return PRICE_MESSAGES.positive;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) return PRICE_MESSAGES.positive;
  if ((text.split(".")[1] ?? "").length > 8) return PRICE_MESSAGES.decimals;
  if (n > MAX_PRICE) return PRICE_MESSAGES.tooLarge;
  return null;
}

export const PRICE_INPUT_STEP = "0.000001";

/** Whether a new value of the box is kept: empty, or a number that is not negative. */
export function acceptPriceInput(value: string): boolean {
  if (value === "") return true;
  const text = value.trim();
  if (text.startsWith("-")) return false;
  const n = Number(text);
  return text !== "" && Number.isFinite(n) && n >= 0;
}

/** Confirm is disabled while priceError has a message (empty, zero, negative, too many decimals, too large) or the request is pending. */
export function canConfirmPrice(value: string, pending: boolean): boolean {
  return !pending && priceError(value) === null;
}
