// The index that lets a new listing find its candidate saved searches without reading all of them
// (docs/collectors.md#how-matching-stays-cheap). Each saved search is filed under a few bucket keys, and each
// listing yields a few dozen probe keys, such that every listing a search matches probes at least one of the
// search's keys (worker/collectors/search-keys.test.ts checks this on generated searches and listings). The
// candidates are then checked in code by the search's own predicate (worker/listings/search-match.ts).
//
// A search is filed by the most selective thing every match must have:
//   a pattern:  p:<network>:<s|e>:<first up to 3 characters of the key from that end>, per end and network
//   else text:  t:<network>:<first up to 3 characters of the text as that network compares it>
//   else:       f:<network or *>:<category or *>
import type { Network } from "../../schema/db";
import type { MatchableListing } from "../listings/search-match";
import { searchKeyOf } from "../listings/search-match";
import type { SearchQuery } from "../listings/search-params";
import { keyBranches, patternEnds, textBranches } from "../listings/search-terms";

/** How many characters of a pattern or text a key holds. */
export const KEY_DEPTH = 3;

const reverse = (s: string) => [...s].reverse().join("");
const filterKey = (q: Pick<SearchQuery, "network" | "category">) => `f:${q.network ?? "*"}:${q.category ?? "*"}`;

/** The bucket keys of a planned query (search-match.ts plannedQuery). */
export function searchKeys(q: SearchQuery): string[] {
  const keys = new Set<string>();
  if (q.pattern) {
    for (const end of patternEnds(q)) {
      for (const b of keyBranches(q, end)) {
        const value = end === "prefix" ? b.value : reverse(b.value);
        // An empty key (a prefix that is only "0x") narrows nothing: such a search is filed by its filters.
        if (value === "") return [filterKey(q)];
        keys.add(`p:${b.network}:${end === "prefix" ? "s" : "e"}:${value.slice(0, KEY_DEPTH)}`);
      }
    }
  } else if (q.text) {
    for (const b of textBranches(q)) keys.add(`t:${b.network}:${b.value.slice(0, KEY_DEPTH)}`);
  } else {
    keys.add(filterKey(q));
  }
  return [...keys];
}

/** Every substring of `s` of 1 to KEY_DEPTH characters. */
function substrings(s: string, into: Set<string>, prefix: string) {
  for (let i = 0; i < s.length; i++) for (let n = 1; n <= KEY_DEPTH && i + n <= s.length; n++) into.add(prefix + s.slice(i, i + n));
}

/** The probe keys of a listing: one per filter bucket it falls in, the starts of its key from each end, and its short substrings. */
export function listingProbeKeys(listing: Pick<MatchableListing, "address" | "network" | "category">): string[] {
  const n: Network = listing.network;
  const keys = new Set<string>([`f:${n}:${listing.category}`, `f:${n}:*`, `f:*:${listing.category}`, "f:*:*"]);
  const key = searchKeyOf(listing.address, n);
  const rev = reverse(key);
  for (let d = 1; d <= KEY_DEPTH; d++) {
    keys.add(`p:${n}:s:${key.slice(0, d)}`);
    keys.add(`p:${n}:e:${rev.slice(0, d)}`);
  }
  // Text is compared with the whole address (Ethereum's 0x included) as textBranches folds it.
  substrings(n === "ethereum" ? listing.address.toLowerCase() : listing.address, keys, `t:${n}:`);
  return [...keys];
}
