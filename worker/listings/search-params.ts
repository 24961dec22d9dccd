// GET /api/addresses/search query parameters (public-side.md §7, §9): validated here, at the edge, into a
// SearchQuery the query code can trust. Anything out of range is a 400 naming the parameter; unknown
// parameters are ignored; an empty value counts as not sent (the client omits empty filters, but a hand-written
// URL with `search=` should not fail).
import * as v from "valibot";
import {
  CHAR_LENGTH_MAX,
  CHAR_LENGTH_MIN,
  MAX_RESULT_WINDOW,
  MAX_SEARCH_LENGTH,
  PATTERN_FILTERS,
  type PatternFilter,
  SORT_FIELDS,
  SORT_ORDERS,
  type SortField,
  type SortOrder,
} from "../../schema/browse";
import { CATEGORIES, type Network } from "../../schema/db";

export type SearchQuery = {
  /** excludeSold=true (the default): only active, listed rows; false adds sold ones. */
  availableOnly: boolean;
  limit: number;
  offset: number;
  network: Network | null;
  category: string | null;
  minLength: number | null;
  maxLength: number | null;
  /** patternFilter + patternValue; null when no value was given (a mode alone filters nothing). */
  pattern: { mode: PatternFilter; value: string } | null;
  /** Free text matched anywhere in the address. */
  text: string | null;
  sortBy: SortField;
  sortOrder: SortOrder;
};

// Messages name no field: describeIssues (http/validate.ts) prefixes each with its parameter's name.
const wholeNumber = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return v.pipe(v.string(message), v.regex(/^\d+$/, message), v.transform(Number), v.minValue(min, message), v.maxValue(max, message));
};

const text = () =>
  v.pipe(v.string("must be text"), v.maxLength(MAX_SEARCH_LENGTH, `must be at most ${MAX_SEARCH_LENGTH} characters`), v.transform((s) => s.trim()));

const oneOf = <const T extends readonly string[]>(options: T) => v.picklist(options, `must be one of: ${options.join(", ")}`);

const fields = v.object({
  excludeSold: v.optional(oneOf(["true", "false"]), "true"),
  limit: v.optional(oneOf(["20", "50", "100"]), "20"),
  offset: v.optional(wholeNumber(0, MAX_RESULT_WINDOW), "0"),
  // Accepted because the client sends it when a wallet is connected; it proves nothing and changes nothing
  // (ownership comes from the session only).
  walletAddress: v.optional(text()),
  search: v.optional(text()),
  minCharLength: v.optional(wholeNumber(CHAR_LENGTH_MIN, CHAR_LENGTH_MAX)),
  maxCharLength: v.optional(wholeNumber(CHAR_LENGTH_MIN, CHAR_LENGTH_MAX)),
  patternFilter: v.optional(oneOf(PATTERN_FILTERS), "either"),
  patternValue: v.optional(text()),
  category: v.optional(oneOf(["all", ...CATEGORIES] as const), "all"),
  network: v.optional(oneOf(["all", "ethereum", "solana"] as const), "all"),
  sortBy: v.optional(oneOf(SORT_FIELDS), "rarity"),
  sortOrder: v.optional(oneOf(SORT_ORDERS), "desc"),
});

/** Drops parameters sent empty, so `?search=&category=` means the defaults. */
function withoutEmpty(input: unknown): unknown {
  if (!input || typeof input !== "object" || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== ""));
}

export const searchQuerySchema = v.pipe(
  v.unknown(),
  v.transform(withoutEmpty),
  fields,
  v.forward(
    v.partialCheck(
      [["minCharLength"], ["maxCharLength"]],
      (q) => q.minCharLength === undefined || q.maxCharLength === undefined || q.minCharLength <= q.maxCharLength,
      "must not be greater than maxCharLength",
    ),
    ["minCharLength"],
  ),
  v.forward(
    v.partialCheck(
      [["offset"], ["limit"]],
      (q) => q.offset + Number(q.limit) <= MAX_RESULT_WINDOW,
      `offset + limit must not exceed ${MAX_RESULT_WINDOW} (only the first ${MAX_RESULT_WINDOW} results can be paged; narrow the search to see others)`,
    ),
    ["offset"],
  ),
  v.transform(
    (q): SearchQuery => ({
      availableOnly: q.excludeSold === "true",
      limit: Number(q.limit),
      offset: q.offset,
      network: q.network === "all" ? null : q.network,
      category: q.category === "all" ? null : q.category,
      minLength: q.minCharLength ?? null,
      maxLength: q.maxCharLength ?? null,
      pattern: q.patternValue ? { mode: q.patternFilter, value: q.patternValue } : null,
      text: q.search ? q.search : null,
      sortBy: q.sortBy,
      sortOrder: q.sortOrder,
    }),
  ),
);
