// Request pieces several listing routes validate the same way.
import * as v from "valibot";
import { type IdKind, idParam } from "../../schema/ids";
import { validate } from "./validate";

/**
 * A route's plain `:id`, checked by schema/ids.ts's rule for its kind: a row id as its number, a UUID as its text;
 * anything else a 400 "id: must be a listing id (a whole number from 1)". Put it first on the route, so a
 * malformed id is that 400 whoever asks, before a sign-in, setting or rate check answers something else.
 */
export const validId = <K extends IdKind>(kind: K) => validate("param", idParam(kind));

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
