// The marketplace's state lives in the URL (validated search params), so a filtered view survives a reload
// and can be shared. Only values that differ from the defaults are kept, so the plain page is plain
// "/marketplace". Everything here is pure: the route validates with parseMarketSearch, the page changes the
// URL with patchMarketSearch, and the search call's query string comes from searchApiParams.
//
// Sort: the table and the filter panel share one sort (sortBy, sortOrder). The page starts at the table's
// default, createdAt descending; the specification's panel defaults (rarity, desc) are the search call's
// own defaults, which the API applies when a caller sends no sort. Sorting is not a filter: it does not count
// towards "N active" or "(filtered results)", but like every filter it returns to page 1.
import {
  CHAR_LENGTH_MAX,
  CHAR_LENGTH_MIN,
  DEFAULT_PAGE_SIZE,
  MAX_RESULT_WINDOW,
  MAX_SEARCH_LENGTH,
  type PAGE_SIZES,
  type Pagination,
  type PatternFilter,
  type SortField,
  type SortOrder,
} from "../../../schema/browse.ts";
import { CATEGORY_OPTIONS, NETWORK_OPTIONS, readSearchField } from "../../../schema/search.ts";
import { formatCount } from "../lib/number-format.ts";

/** The specification's categories ("all" means no category filter) and networks: the API's own lists. */
export { CATEGORY_OPTIONS, NETWORK_OPTIONS };
export type CategoryOption = (typeof CATEGORY_OPTIONS)[number];
export type NetworkOption = (typeof NETWORK_OPTIONS)[number];
export type PageSize = (typeof PAGE_SIZES)[number];

export type MarketSearch = {
  search?: string;
  minCharLength?: number;
  maxCharLength?: number;
  patternFilter?: PatternFilter;
  patternValue?: string;
  category?: CategoryOption;
  network?: NetworkOption;
  sortBy?: SortField;
  sortOrder?: SortOrder;
  page?: number;
  limit?: PageSize;
};

/** Every field with its default filled in: what the page shows. */
export type MarketState = Required<MarketSearch>;

export const MARKET_DEFAULTS: MarketState = {
  search: "",
  minCharLength: 0,
  maxCharLength: 0,
  patternFilter: "either",
  patternValue: "",
  category: "all",
  network: "all",
  sortBy: "createdAt",
  sortOrder: "desc",
  page: 1,
  limit: DEFAULT_PAGE_SIZE as PageSize,
};

/** The last page the API can serve for a page size (offset + limit stays within MAX_RESULT_WINDOW). */
export const maxPage = (limit: number) => Math.max(1, Math.floor(MAX_RESULT_WINDOW / limit));

// Text longer than the API accepts is cut rather than dropped, so a pasted address still searches.
const asText = (v: unknown): string | undefined => {
  const s = readSearchField("search", typeof v === "string" ? v.trim().slice(0, MAX_SEARCH_LENGTH) : v);
  return s ? s : undefined;
};
const asPage = (v: unknown, limit: number): number | undefined => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= maxPage(limit) ? n : undefined;
};

/** Drops values equal to their defaults (and undefined ones), so URLs stay canonical. */
function canonical(s: MarketSearch): MarketSearch {
  const out: MarketSearch = {};
  for (const key of Object.keys(s) as (keyof MarketSearch)[]) {
    const value = s[key];
    if (value === undefined || value === MARKET_DEFAULTS[key]) continue;
    (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/**
 * validateSearch, with the API's own field rules (schema/search.ts): anything malformed or out of range is
 * dropped (the default applies), never an error.
 */
export function parseMarketSearch(raw: Record<string, unknown>): MarketSearch {
  const limitText = readSearchField("limit", raw.limit);
  const limit = limitText === undefined ? undefined : (Number(limitText) as PageSize);
  return canonical({
    search: asText(raw.search),
    minCharLength: readSearchField("minCharLength", raw.minCharLength),
    maxCharLength: readSearchField("maxCharLength", raw.maxCharLength),
    patternFilter: readSearchField("patternFilter", raw.patternFilter),
    patternValue: asText(raw.patternValue),
    category: readSearchField("category", raw.category),
    network: readSearchField("network", raw.network),
    sortBy: readSearchField("sortBy", raw.sortBy),
    sortOrder: readSearchField("sortOrder", raw.sortOrder),
    page: asPage(raw.page, limit ?? DEFAULT_PAGE_SIZE),
    limit,
  });
}

export const marketState = (s: MarketSearch): MarketState => ({ ...MARKET_DEFAULTS, ...s });

/**
 * The next URL state after a change. Changing the search text, any filter, the sort or the page size returns
 * to page 1; only a change of page alone keeps it.
 */
export function patchMarketSearch(current: MarketSearch, patch: Partial<MarketSearch>): MarketSearch {
  const pageOnly = Object.keys(patch).every((k) => k === "page");
  const next = { ...current, ...patch };
  if (!pageOnly) delete next.page;
  return canonical(next);
}

/** The filter fields at their defaults (search text and sort untouched): the panel's Reset. */
export const FILTER_KEYS = ["minCharLength", "maxCharLength", "patternFilter", "patternValue", "category", "network"] as const;
export function resetFilters(current: MarketSearch): MarketSearch {
  const patch: Partial<MarketSearch> = {};
  for (const k of FILTER_KEYS) patch[k] = undefined;
  return patchMarketSearch(current, patch);
}

/** True when min and max are both set and min is larger: the length filter is then left out of the call. */
export const lengthRangeInverted = (s: MarketSearch) => s.minCharLength !== undefined && s.maxCharLength !== undefined && s.minCharLength > s.maxCharLength;

/** "N active": filters that narrow the results (a pattern mode without a value narrows nothing). */
export function activeFilterCount(s: MarketSearch): number {
  const inverted = lengthRangeInverted(s);
  let n = 0;
  if (s.minCharLength !== undefined && !inverted) n++;
  if (s.maxCharLength !== undefined && !inverted) n++;
  if (s.patternValue) n++;
  if (s.category && s.category !== "all") n++;
  if (s.network && s.network !== "all") n++;
  return n;
}

/** Whether "(filtered results)" is shown: a search or a filter is active. */
export const isFiltered = (s: MarketSearch) => Boolean(s.search) || activeFilterCount(s) > 0;

/**
 * Whether any filter differs from its default, counted or not (an inverted length range applies nothing but is
 * still a choice the buyer made): Reset Filters is enabled exactly then.
 */
export const filtersDiffer = (s: MarketSearch) => FILTER_KEYS.some((k) => s[k] !== undefined);

/**
 * A character-count box as typed: empty (no bound), or a whole number from 1 to 100; anything else is refused
 * with the reason shown next to the box, and the filter keeps its last good value meanwhile.
 */
export function lengthDraft(text: string): { ok: true; value: number | undefined } | { ok: false; message: string } {
  const t = text.trim();
  if (t === "") return { ok: true, value: undefined };
  const range = `a whole number from ${CHAR_LENGTH_MIN} to ${CHAR_LENGTH_MAX}`;
  if (!/^\d+$/.test(t)) return { ok: false, message: `"${t.slice(0, 12)}" is not ${range}; the filter still uses the previous value.` };
  const n = Number(t);
  if (n < CHAR_LENGTH_MIN || n > CHAR_LENGTH_MAX)
    return { ok: false, message: `${n} is outside ${CHAR_LENGTH_MIN}–${CHAR_LENGTH_MAX}; enter ${range}. The filter still uses the previous value.` };
  return { ok: true, value: n };
}

/**
 * GET /api/addresses/search's query: excludeSold=true, limit, offset, walletAddress when
 * connected, search when typed, and each non-empty, non-"all" filter, sortBy and sortOrder.
 */
export function searchApiParams(s: MarketSearch, walletAddress: string | null): string {
  const st = marketState(s);
  const p = new URLSearchParams();
  p.set("excludeSold", "true");
  p.set("limit", String(st.limit));
  p.set("offset", String((st.page - 1) * st.limit));
  if (walletAddress) p.set("walletAddress", walletAddress);
  if (st.search) p.set("search", st.search);
  if (!lengthRangeInverted(s)) {
    if (s.minCharLength !== undefined) p.set("minCharLength", String(s.minCharLength));
    if (s.maxCharLength !== undefined) p.set("maxCharLength", String(s.maxCharLength));
  }
  p.set("patternFilter", st.patternFilter);
  if (st.patternValue) p.set("patternValue", st.patternValue);
  if (st.category !== "all") p.set("category", st.category);
  if (st.network !== "all") p.set("network", st.network);
  p.set("sortBy", st.sortBy);
  p.set("sortOrder", st.sortOrder);
  return p.toString();
}

/** A table header click: the same column flips its order; a newly chosen column starts descending. */
export function nextSort(current: { sortBy: SortField; sortOrder: SortOrder }, column: SortField): { sortBy: SortField; sortOrder: SortOrder } {
  if (current.sortBy === column) return { sortBy: column, sortOrder: current.sortOrder === "desc" ? "asc" : "desc" };
  return { sortBy: column, sortOrder: "desc" };
}

/** "X-Y of total" for the rows on this page ("0-0 of 0" when there are none; "10,000+" when not exact). */
export function rangeText(pagination: Pick<Pagination, "total" | "totalIsExact">, page: number, limit: number, rowsOnPage: number): string {
  const total = `${formatCount(pagination.total)}${pagination.totalIsExact === false ? "+" : ""}`;
  if (rowsOnPage === 0) return `0-0 of ${total}`;
  const first = (page - 1) * limit + 1;
  return `${formatCount(first)}-${formatCount(first + rowsOnPage - 1)} of ${total}`;
}

/** The featured strip follows the network filter (and only it: the other filters narrow the results below). */
export const featuredNetwork = (search: MarketSearch): Exclude<NetworkOption, "all"> | undefined => (search.network === "all" ? undefined : search.network);

/**
 * The reads the page at `search` starts as it loads, as the paths its fetches ask for (a visitor whose wallet is
 * not connected yet): the featured strip's and the results'. They are the page's preload hints: the build's for
 * the plain page (vite.config.ts), the Worker's for a filtered URL (worker/landing/pages.ts). A hint the page does
 * not use is a read wasted and a console warning.
 */
export function marketplaceFirstReads(search: MarketSearch): [featured: string, results: string] {
  const network = featuredNetwork(search);
  return [`/api/addresses/featured${network ? `?network=${network}` : ""}`, `/api/addresses/search?${searchApiParams(search, null)}`];
}
