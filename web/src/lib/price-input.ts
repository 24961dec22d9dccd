// The owner's price edit box: a numeric input with step and minimum 0.000001 that keeps
// only an empty string or a non-negative number while typing (so "0." and "0.0" can be typed on the way to
// "0.05"), and a confirm that needs a positive number and no request in flight.

export const PRICE_INPUT_STEP = "0.000001";

/** Whether a new value of the box is kept: empty, or a number that is not negative. */
export function acceptPriceInput(value: string): boolean {
  if (value === "") return true;
  const text = value.trim();
  if (text.startsWith("-")) return false;
  const n = Number(text);
  return text !== "" && Number.isFinite(n) && n >= 0;
}

/** Confirm is disabled when empty, zero, negative, not a number, or while the request is pending. */
export function canConfirmPrice(value: string, pending: boolean): boolean {
  if (pending) return false;
  const text = value.trim();
  if (text === "" || text.startsWith("-")) return false;
  const n = Number(text);
  return Number.isFinite(n) && n > 0;
}
