// The one rule for each shape of id the API takes in a path or a body, for the Worker's routes, their bodies and
// the web's pages. Routes name a plain `:id` and check it with idParam(kind) (worker/http/params.ts: validId),
// so a malformed id is a 400 with the same message on every route, before anything else on the route runs
// (docs/api.md#conventions).
import * as v from "valibot";

/**
 * A row id (a listing, an offer, a custom order, ...): a whole number from 1 in plain ASCII decimal, no sign, no
 * leading zero, no exponent or hex, at most 15 digits so that Number() of it is exact (2^53 has 16 digits).
 */
export const ROW_ID_PATTERN = "[1-9][0-9]{0,14}";
/** A purchase's, payment's or reconciliation difference's id: crypto.randomUUID()'s lowercase 8-4-4-4-12 form. */
export const UUID_PATTERN = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

const ROW_ID = /* @__PURE__ */ new RegExp(`^${ROW_ID_PATTERN}$`);
const UUID = /* @__PURE__ */ new RegExp(`^${UUID_PATTERN}$`);

/** True for text that is a row id exactly as the API accepts it. */
export const isRowId = (text: string): boolean => ROW_ID.test(text);

/** A row id in text (a path parameter) as its number; `message` says what was expected. */
export const rowIdText = (message: string) => v.pipe(v.string(message), v.regex(ROW_ID, message), v.transform(Number));

/** A row id in a JSON body: a number or its text (surrounding spaces ignored), as its number. */
export const rowIdInput = (message: string) =>
  v.pipe(
    v.union([v.number(), v.string()], message),
    v.transform((x) => (typeof x === "string" ? x.trim() : String(x))),
    v.regex(ROW_ID, message),
    v.transform(Number),
  );

/** What each route's `:id` names, and its shape. */
const ID_KINDS = {
  listing: "row",
  offer: "row",
  order: "row",
  notification: "row",
  "saved search": "row",
  "supply target": "row",
  "supply claim": "row",
  transaction: "uuid",
  sale: "uuid",
  payment: "uuid",
  difference: "uuid",
} as const;
export type IdKind = keyof typeof ID_KINDS;

const article = (word: string) => (/^[aeiou]/.test(word) ? "an" : "a");

/** The message for a malformed id of this kind ("must be a listing id (a whole number from 1)"). */
export function idMessage(kind: IdKind): string {
  const what = `must be ${article(kind)} ${kind} id`;
  return ID_KINDS[kind] === "row" ? `${what} (a whole number from 1)` : what;
}

/** A UUID id in text (a path parameter), as it is; `message` says what was expected. */
const uuidText = (message: string) => v.pipe(v.string(message), v.regex(UUID, message));

type IdSchema<K extends IdKind> = (typeof ID_KINDS)[K] extends "row" ? ReturnType<typeof rowIdText> : ReturnType<typeof uuidText>;

/** The `:id` param of a route: a row id as its number, a UUID as its text. */
export function idParam<K extends IdKind>(kind: K): v.ObjectSchema<{ id: IdSchema<K> }, undefined> {
  const message = idMessage(kind);
  const id = (ID_KINDS[kind] === "row" ? rowIdText(message) : uuidText(message)) as IdSchema<K>;
  return v.object({ id });
}
