// Request pieces several listing routes validate the same way.
import * as v from "valibot";

export const LISTING_ID_MESSAGE = "must be a listing id (a whole number from 1)";

/** `/:id{[0-9]+}` as a number; the route pattern already limits it to digits, this bounds it. */
export const listingIdParam = v.object({
  id: v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,14}$/, LISTING_ID_MESSAGE), v.transform(Number)),
});

/** A whole number in a query string, within [min, max]. */
export const queryInt = (name: string, min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^[0-9]{1,9}$/, `${name} must be a whole number`),
    v.transform(Number),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );

/** The spec's walletAddress query parameter: accepted (the client sends it) but never trusted; the session decides. */
export const ignoredWalletQuery = v.optional(v.pipe(v.string(), v.maxLength(128, "walletAddress is too long")));

/**
 * Message for a JSON body that is not an object or lacks a required field ("network is required"), instead
 * of valibot's generic "Invalid key: Expected ...".
 */
export function bodyMessage(issue: { expected: string | null; received: string }): string {
  const key = issue.expected?.match(/^"(.+)"$/)?.[1];
  return key ? `${key} is required` : "Request body must be a JSON object";
}
