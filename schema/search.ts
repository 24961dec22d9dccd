// The marketplace search's parameters, defined once in valibot. The Worker validates
// GET /api/addresses/search with them strictly (worker/listings/search-params.ts: anything malformed is a 400
// naming the parameter); the marketplace route's validateSearch reads its URL with the same rules, leniently
// (web/src/server-rendered/marketplace-search.ts: a malformed value is dropped and its default applies). Each field
// takes the parameter's text, as a query string carries it.
import * as v from "valibot";
import { CHAR_LENGTH_MAX, CHAR_LENGTH_MIN, MAX_RESULT_WINDOW, MAX_SEARCH_LENGTH, PAGE_SIZES, PATTERN_FILTERS, SORT_FIELDS, SORT_ORDERS } from "./browse.ts";
// Type only: the web bundle must not pull in the drizzle tables.
import type { CATEGORIES } from "./db/listings";

// Messages name no field: the Worker's describeIssues prefixes each with its parameter's name.
const wholeNumber = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return v.pipe(v.string(message), v.regex(/^\d+$/, message), v.transform(Number), v.minValue(min, message), v.maxValue(max, message));
};

const text = () =>
  v.pipe(
    v.string("must be text"),
    v.maxLength(MAX_SEARCH_LENGTH, `must be at most ${MAX_SEARCH_LENGTH} characters`),
    v.transform((s) => s.trim()),
  );

const oneOf = <const T extends readonly string[]>(options: T) => v.picklist(options, `must be one of: ${options.join(", ")}`);

/** "all" and every category of schema/db CATEGORIES (spelled out here so the web app imports no table code). */
export const CATEGORY_OPTIONS = ["all", "leading-zeros", "trailing-zeros", "word-like", "palindrome", "sequential", "custom"] as const;
type Category = (typeof CATEGORIES)[number];
type Option = (typeof CATEGORY_OPTIONS)[number];
// Fails to compile when a category is added or removed on one side only.
const categoriesAgree: [Exclude<Category, Option> | Exclude<Option, Category | "all">] extends [never] ? true : false = true;
void categoriesAgree;
export const NETWORK_OPTIONS = ["all", "ethereum", "solana"] as const;
const PAGE_SIZE_TEXT = PAGE_SIZES.map(String) as ["20", "50", "100"];

/** One schema per search parameter, from its text. */
export const SEARCH_FIELDS = {
  excludeSold: oneOf(["true", "false"]),
  limit: oneOf(PAGE_SIZE_TEXT),
  offset: wholeNumber(0, MAX_RESULT_WINDOW),
  // Accepted because the client sends it when a wallet is connected; it proves nothing and changes nothing.
  walletAddress: text(),
  search: text(),
  minCharLength: wholeNumber(CHAR_LENGTH_MIN, CHAR_LENGTH_MAX),
  maxCharLength: wholeNumber(CHAR_LENGTH_MIN, CHAR_LENGTH_MAX),
  patternFilter: oneOf(PATTERN_FILTERS),
  patternValue: text(),
  category: oneOf(CATEGORY_OPTIONS),
  network: oneOf(NETWORK_OPTIONS),
  sortBy: oneOf(SORT_FIELDS),
  sortOrder: oneOf(SORT_ORDERS),
};

export type SearchField = keyof typeof SEARCH_FIELDS;

/** A field's value read leniently (URL state): the router may hand numbers, so they are read as their text. */
export function readSearchField<K extends SearchField>(field: K, raw: unknown): v.InferOutput<(typeof SEARCH_FIELDS)[K]> | undefined {
  if (typeof raw !== "string" && typeof raw !== "number") return undefined;
  const result = v.safeParse(SEARCH_FIELDS[field], String(raw));
  return result.success ? (result.output as v.InferOutput<(typeof SEARCH_FIELDS)[K]>) : undefined;
}
