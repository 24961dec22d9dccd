// GET /api/addresses/search query parameters: validated here, at the edge, into a
// SearchQuery the query code can trust. Anything out of range is a 400 naming the parameter; unknown
// parameters are ignored; an empty value counts as not sent (the client omits empty filters, but a hand-written
// URL with `search=` should not fail).
import * as v from "valibot";
import { MAX_RESULT_WINDOW, type PatternFilter, type SortField, type SortOrder } from "../../schema/browse";
import type { Network } from "../../schema/db";
import { SEARCH_FIELDS as F } from "../../schema/search";

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

// The field rules are shared with the marketplace page's URL reading (schema/search.ts); the defaults and the
// cross-field checks are the API's.
const fields = v.object({
  excludeSold: v.optional(F.excludeSold, "true"),
  limit: v.optional(F.limit, "20"),
  offset: v.optional(F.offset, "0"),
  walletAddress: v.optional(F.walletAddress),
  search: v.optional(F.search),
  minCharLength: v.optional(F.minCharLength),
  maxCharLength: v.optional(F.maxCharLength),
  patternFilter: v.optional(F.patternFilter, "either"),
  patternValue: v.optional(F.patternValue),
  category: v.optional(F.category, "all"),
  network: v.optional(F.network, "all"),
  sortBy: v.optional(F.sortBy, "rarity"),
  sortOrder: v.optional(F.sortOrder, "desc"),
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
