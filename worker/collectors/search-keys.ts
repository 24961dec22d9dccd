// The index that lets a new listing find the saved searches it may match without reading all of them
// (docs/collectors.md#how-matching-stays-cheap). Each saved search is filed under a few keys, and each listing
// yields its probe keys, such that every listing a search matches probes at least one of the search's keys
// (worker/test/search-match.test.ts checks this on generated searches and listings). What a probe finds is then
// checked in code by the search's own predicate (worker/listings/search-match.ts), unless the key is exact: the key
// holds all the search asks, so every listing for sale that probes it matches (the test checks this too).
//
// A search is filed by the most selective thing every match must have:
//   a pattern:  p:<network>:<s|e>:<the key from that end>, per end and network, its first PATTERN_KEY_LENGTH
//               characters: a listing probes every start of its key from both ends, so for patterns up to that
//               length a probe that finds the search is already a pattern match
//   else text:  t:<network>:<the text as that network compares it, its first TEXT_KEY_LENGTH characters>: a
//               listing probes every piece of its address that long or shorter
//   else:       f:<network or *>:<category or *>
import type { Network } from "../../schema/db";
import { type MatchableListing, searchKeyOf } from "../listings/search-match";
import type { SearchQuery } from "../listings/search-params";
import { keyBranches, patternEnds, textBranches } from "../listings/search-terms";

/** Longer patterns are filed by their start (rare: few vanity patterns are that long). */
export const PATTERN_KEY_LENGTH = 12;
/** Longer texts are filed by their start. Each listing probes about 4 × its length text keys. */
export const TEXT_KEY_LENGTH = 4;

const reverse = (s: string) => [...s].reverse().join("");
const filterKey = (q: Pick<SearchQuery, "network" | "category">) => `f:${q.network ?? "*"}:${q.category ?? "*"}`;

/** A key a search is filed under; `exact`: a listing for sale that probes it matches the search, nothing else to check. */
export type SearchKey = { key: string; exact: boolean };

/**
 * The keys a planned query (search-match.ts plannedQuery) is filed under. A key is exact when it holds everything the
 * search asks besides visibility (a listing for sale passes it whichever excludeSold says): a pattern alone, whole
 * in the key (a probe equal to it is a pattern match); a text alone, whole in the key (a probe equal to it is a piece
 * of the address); filters without a length bound (the key is the network and the category). Anything else (a length
 * bound, a category beside a pattern or text, a pattern or text longer than the key) is checked in code.
 */
export function searchKeys(q: SearchQuery): SearchKey[] {
  const keys = new Map<string, boolean>();
  const patternAlone = !q.text && q.category === null && q.minLength === null && q.maxLength === null;
  if (q.pattern) {
    for (const end of patternEnds(q)) {
      for (const b of keyBranches(q, end)) {
        const value = end === "prefix" ? b.value : reverse(b.value);
        // An empty key (a prefix that is only "0x") narrows nothing: such a search is filed by its filters.
        if (value === "") return [{ key: filterKey(q), exact: false }];
        keys.set(`p:${b.network}:${end === "prefix" ? "s" : "e"}:${value.slice(0, PATTERN_KEY_LENGTH)}`, patternAlone && value.length <= PATTERN_KEY_LENGTH);
      }
    }
  } else if (q.text) {
    const textAlone = q.category === null && q.minLength === null && q.maxLength === null;
    for (const b of textBranches(q)) keys.set(`t:${b.network}:${b.value.slice(0, TEXT_KEY_LENGTH)}`, textAlone && b.value.length <= TEXT_KEY_LENGTH);
  } else {
    // Network and category are the key itself; only a length bound is left to check.
    keys.set(filterKey(q), q.minLength === null && q.maxLength === null);
  }
  return [...keys].map(([key, exact]) => ({ key, exact }));
}

/** The probe keys of a listing: its filter buckets, every start of its key from each end, every short piece of its address. */
export function listingProbeKeys(listing: Pick<MatchableListing, "address" | "network" | "category">): string[] {
  const n: Network = listing.network;
  const keys = new Set<string>([`f:${n}:${listing.category}`, `f:${n}:*`, `f:*:${listing.category}`, "f:*:*"]);
  const key = searchKeyOf(listing.address, n);
  const rev = reverse(key);
  for (let d = 1; d <= Math.min(PATTERN_KEY_LENGTH, key.length); d++) {
    keys.add(`p:${n}:s:${key.slice(0, d)}`);
    keys.add(`p:${n}:e:${rev.slice(0, d)}`);
  }
  // Text is compared with the whole address (Ethereum's 0x included), folded as textBranches folds it.
  const text = n === "ethereum" ? listing.address.toLowerCase() : listing.address;
  for (let i = 0; i < text.length; i++) for (let len = 1; len <= TEXT_KEY_LENGTH && i + len <= text.length; len++) keys.add(`t:${n}:${text.slice(i, i + len)}`);
  return [...keys];
}
