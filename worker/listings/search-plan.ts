// Step 1 of the marketplace search: choose a plan from the validated query alone (no database). Step 2,
// search-sql.ts, builds the plan's one statement; step 3, search.ts, runs it and reads the answer.
//
// The plans, and why each is bounded (docs/search.md#latest-figures has the figures):
//  - "ordered": no pattern and no text. Walk a sort index (or, under category / character-count filters, the
//    same order inside each (category, length) bucket, merged lazily: search-buckets.ts) for offset + limit
//    entries; the exact total comes from listing_counts. Cost grows with the page's depth, which
//    MAX_RESULT_WINDOW bounds.
//  - "pattern-walk": a pattern alone, of any length. Its matches are ranges of the covering prefix/suffix index,
//    which also holds every filter and sort key; the statement first counts each range up to RANGE_SORT_MAX + 1.
//    A range of at most RANGE_SORT_MAX matches is sorted from the index alone (only the page's rows are read);
//    a larger one is walked in the page's order through an index of the key's first character (every match
//    shares it), checking the rest of the key and the filters inside the index, so the page reads about
//    offset + limit entries divided by the pattern's share of that character, and sorts nothing. The counts
//    are also the total up to MAX_RESULT_WINDOW ("10,000+" past it). "0x" alone is every Ethereum listing and
//    goes to "ordered".
//  - "candidates": a pattern beside a text (an index range of the covering prefix/suffix index) or a text of two characters
//    or more (the trigram index) names few enough listings: read at most `cap` of them, sort, count exactly.
//    When there are more than `cap`, the same statement answers from a bounded scan instead (below).
//  - "scan": a text too common to list (one character, or more than `cap` candidates). Read the
//    first SCAN_DEPTH listings of the chosen order and keep those that match: they are exactly the best
//    matches in that order. The total is exact when the scan reached the end of the order, otherwise it is a
//    lower bound (totalIsExact false, shown "N+") and paging stops there: narrowing the search reaches more.
//  - "nothing": a text or pattern no address can contain (wrong alphabet, "%", quotes, "é"...).
import type { SearchQuery } from "./search-params";
import { MAX_RESULT_WINDOW } from "../../schema/browse";
import { keyBranches, patternEnds, textBranches } from "./search-terms";

/** Pattern candidates are index-only (no row reads), so many can be sorted. */
export const PATTERN_CANDIDATE_MAX = 20_000;
/**
 * A pattern's index range is sorted up to this many matches and walked in sort order past it. Sorting costs
 * about the range's size; a walk reads (offset + limit) / (the range's share of its first character's entries),
 * so a page of a range just over this reads at most that character's entries (the largest, Ethereum's "0", about
 * 135,000 at a million listings), and only when the page is deep and the pattern's matches lie against the
 * order. It is the window itself because the range counts are also the total: every range is counted up to
 * window + 1 anyway, and a larger switch made every big range's count longer (20,000: 1-3 ms more for short
 * patterns and "either", for a gain on deep pages only; docs/search.md#decisions-and-what-they-measured).
 */
export const RANGE_SORT_MAX = MAX_RESULT_WINDOW;
/**
 * Two characters have no trigram of their own: their candidates are every trigram starting with them (an OR
 * of 36 lists) plus the addresses ending with them. Past a few thousand listings there are always more than
 * any cap (about 15,000 for "Mo" at a million listings, 68,000 for "ab"), and counting up to the cap is what
 * such a search paid for before its scan: so the cap is the scan's depth.
 */
export const SHORT_TEXT_CANDIDATE_MAX = 2_000;
/** Text candidates each cost a row read (filters, Solana's exact case, the sort key). */
export const TEXT_CANDIDATE_MAX = 10_000;
/**
 * How many listings of the chosen order a scan reads (each a row read). Large enough that a one-character
 * text (found in about half of all addresses) fills dozens of pages, small enough to stay a few milliseconds.
 */
export const SCAN_DEPTH = 2_000;

/** How the chosen order is walked: one sort index, or per (category, length) bucket and merged. */
export type OrderWalk = "sort-index" | "buckets";

export type SearchPlan =
  | { kind: "nothing"; q: SearchQuery }
  | { kind: "ordered"; q: SearchQuery; walk: OrderWalk }
  | { kind: "pattern-walk"; q: SearchQuery; sortMax: number }
  | { kind: "candidates"; q: SearchQuery; walk: OrderWalk; from: "pattern" | "text"; cap: number; scanDepth: number }
  | { kind: "scan"; q: SearchQuery; walk: OrderWalk; depth: number };

/**
 * "0x…" can only be the start of an Ethereum address (Solana's alphabet has no 0, hex has no x): as text it is
 * that prefix pattern, served by the prefix index; "0x" alone, as text or as a prefix, is every Ethereum
 * listing, which the sort indexes filter by network without reading rows.
 */
function ethereumPrefix(q: SearchQuery): SearchQuery {
  const text = q.text?.toLowerCase();
  if (text && !q.pattern && /^0x[0-9a-f]*$/.test(text)) {
    if (q.network === "solana") return q;
    const rest = text.slice(2);
    return { ...q, text: null, network: "ethereum", pattern: rest ? { mode: "prefix", value: rest } : null };
  }
  if (q.pattern && q.pattern.mode !== "suffix" && q.pattern.value.toLowerCase() === "0x" && q.network !== "solana") {
    return { ...q, network: "ethereum", pattern: null };
  }
  return q;
}

/**
 * A text or pattern only one network's addresses can hold ("0000": Solana has no 0; "zz": hex has no z) is
 * searched in that network alone: the same answer, and scans walk only listings that can match.
 */
function possibleNetwork(q: SearchQuery): SearchQuery {
  if (q.network || (!q.text && !q.pattern)) return q;
  const holders = new Set<string>();
  const sets: Set<string>[] = [];
  if (q.text) sets.push(new Set(textBranches(q).map((b) => b.network)));
  if (q.pattern) sets.push(new Set(patternEnds(q).flatMap((end) => keyBranches(q, end).map((b) => b.network))));
  for (const network of ["ethereum", "solana"] as const) if (sets.every((set) => set.has(network))) holders.add(network);
  return holders.size === 1 ? { ...q, network: [...holders][0] as SearchQuery["network"] } : q;
}

export function choosePlan(query: SearchQuery): SearchPlan {
  const q = possibleNetwork(ethereumPrefix(query));
  const walk: OrderWalk = q.category !== null || q.minLength !== null || q.maxLength !== null ? "buckets" : "sort-index";
  const patternPossible = !q.pattern || patternEnds(q).some((end) => keyBranches(q, end).length > 0);
  const textPossible = !q.text || textBranches(q).length > 0;
  if (!patternPossible || !textPossible) return { kind: "nothing", q };
  if (!q.pattern && !q.text) return { kind: "ordered", q, walk };
  // Any pattern, one character included, is one range of one first character per end and network.
  if (q.pattern && !q.text) return { kind: "pattern-walk", q, sortMax: RANGE_SORT_MAX };
  // A pattern is an index range with every filter inside: the better source of candidates beside a text.
  if (q.pattern) return { kind: "candidates", q, walk, from: "pattern", cap: PATTERN_CANDIDATE_MAX, scanDepth: SCAN_DEPTH };
  // One character has no trigram to look up, and is in most addresses anyway.
  if (q.text!.length < 2) return { kind: "scan", q, walk, depth: SCAN_DEPTH };
  const cap = q.text!.length === 2 ? SHORT_TEXT_CANDIDATE_MAX : TEXT_CANDIDATE_MAX;
  return { kind: "candidates", q, walk, from: "text", cap, scanDepth: SCAN_DEPTH };
}
