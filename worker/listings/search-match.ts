// Whether one listing is among a search's results, decided in code: for saved searches, which the cron job checks
// against new and cheaper listings only (worker/collectors/saved-search-match.ts). It reads the query the way the
// search itself does: the planner's normalisation (search-plan.ts: "0x…" text is an Ethereum prefix, a pattern only
// one network's alphabet holds searches that network), then per row what search-sql.ts checks in SQL: visibility,
// the column filters, the pattern (keyBranches: Ethereum lower-case hex after 0x, Solana exact) and the text
// (textBranches: Ethereum ignoring case, Solana exact). worker/test/search-match.test.ts runs both over the same
// listings and queries and requires the same answers.
import type { Network } from "../../schema/db";
import { choosePlan } from "./search-plan";
import type { SearchQuery } from "./search-params";
import { keyBranches, patternEnds, textBranches } from "./search-terms";
import { inListingSet, isOnMarket, LISTING_BROWSABLE, type ListingStatus, listingTo } from "../../schema/listing-lifecycle";

/** The columns of a listing a search's filters read. */
export type MatchableListing = {
  address: string;
  network: Network;
  category: string;
  patternLength: number;
  status: ListingStatus;
  isListed: boolean;
};

/** The address as patterns match it: search_key in schema/db/listings.ts (Ethereum: lower-case hex after 0x). */
export function searchKeyOf(address: string, network: Network): string {
  if (network !== "ethereum") return address;
  return (/^0x/i.test(address) ? address.slice(2) : address).toLowerCase();
}

/** A query as the search plans it; null when no address can match it (the "nothing" plan). */
export function plannedQuery(q: SearchQuery): SearchQuery | null {
  const plan = choosePlan(q);
  return plan.kind === "nothing" ? null : plan.q;
}

/** search-sql.ts visibility(): browsable, then available only, or available and sold. */
function visible(q: SearchQuery, l: MatchableListing): boolean {
  if (!inListingSet(LISTING_BROWSABLE, l.status)) return false;
  return q.availableOnly ? isOnMarket(l) : l.status === listingTo("sell") || l.isListed;
}

/** A listing with what the text and pattern checks compare, computed once for many searches. */
export type PreparedListing = MatchableListing & { searchKey: string; folded: string };

export function prepareListing(l: MatchableListing): PreparedListing {
  return { ...l, searchKey: searchKeyOf(l.address, l.network), folded: l.network === "ethereum" ? l.address.toLowerCase() : l.address };
}

/**
 * The check of one planned query (plannedQuery's answer; sort and paging aside), with its pattern and text branches
 * worked out once: a listing is among its results when it is visible as the query asks, passes the column filters,
 * and some branch of its network matches its key (search-sql.ts patternPredicate: a prefix or suffix of the key)
 * and its address (textPredicate: contains the text, Ethereum ignoring case).
 */
export function compileMatcher(planned: SearchQuery): (listing: PreparedListing) => boolean {
  const q = planned;
  const patterns = patternEnds(q).flatMap((end) => keyBranches(q, end).map((b) => ({ ...b, end })));
  const texts = textBranches(q);
  return (l) => {
    if (!visible(q, l)) return false;
    if (q.network && l.network !== q.network) return false;
    if (q.category && l.category !== q.category) return false;
    if (q.minLength !== null && l.patternLength < q.minLength) return false;
    if (q.maxLength !== null && l.patternLength > q.maxLength) return false;
    if (q.pattern && !patterns.some((b) => b.network === l.network && (b.end === "prefix" ? l.searchKey.startsWith(b.value) : l.searchKey.endsWith(b.value))))
      return false;
    if (q.text && !texts.some((b) => b.network === l.network && l.folded.includes(b.value))) return false;
    return true;
  };
}

/** Whether `listing` is among the results of `planned` (one listing, one query; compileMatcher for many). */
export const listingMatches = (planned: SearchQuery, listing: MatchableListing): boolean => compileMatcher(planned)(prepareListing(listing));
