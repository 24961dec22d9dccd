// What the operator is told about a price before listing (docs/listings.md#prices-an-operator-can-trust): the
// price beside the store's own estimated value, a warning in words when the price gives most of that value away
// or the address shows no notable pattern, and the two ways a bulk upload may be priced. Shared by the
// Worker (the bulk endpoint and the single create) and the browser (the preview and the single form), so both
// say the same.

/** A price under estimate / UNDERPRICED_DIVISOR is flagged: a fifth of the store's own estimated value. */
export const UNDERPRICED_DIVISOR = 5;

/**
 * How a bulk upload is priced: "table" is the specification's fixed price by matched length; "estimate" is the
 * estimated value the listing's own page will show (the rarity engine's difficulty, the claimed pattern's where
 * it is harder, and the calibrated multiplier for its kind).
 */
export const BULK_PRICINGS = ["table", "estimate"] as const;
export type BulkPricing = (typeof BULK_PRICINGS)[number];

/** Said by the API when an address with no notable pattern is sent without the confirmation flag. */
export const NO_PATTERN_MESSAGE =
  "This address shows no notable pattern (rarity 0): a random key makes one like it more often than 1 in 2,900 tries. Confirm that you want to list it anyway (confirmNoPattern: true)";

export type PriceWarning = { kind: "underpriced" | "no-pattern"; message: string };

/**
 * The warnings for one price, in words: `estimate` is the estimated value in the same currency, `notable` whether
 * the address shows a pattern at all. No warning for an unreadable price (the form's own checks say why).
 */
export function priceWarnings(input: { price: string; estimate: string | null; currency: string; notable: boolean }): PriceWarning[] {
  const warnings: PriceWarning[] = [];
  if (!input.notable) {
    warnings.push({ kind: "no-pattern", message: "No notable pattern (rarity 0): a random key makes an address like it more often than 1 in 2,900 tries" });
  }
  const price = Number(input.price);
  const estimate = Number(input.estimate);
  if (input.estimate !== null && Number.isFinite(price) && price > 0 && Number.isFinite(estimate) && estimate > 0 && price < estimate / UNDERPRICED_DIVISOR) {
    const percent = Math.round((1 - price / estimate) * 100);
    warnings.push({
      kind: "underpriced",
      message: `Price ${input.price} ${input.currency} is under a fifth of the estimated value ${input.estimate} ${input.currency} (${percent}% below it)`,
    });
  }
  return warnings;
}
