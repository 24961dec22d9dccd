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

/** The columns of a listing a search's filters read. */
export type MatchableListing = {
  address: string;
  network: Network;
  category: string;
  patternLength: number;
  status: string;
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
  if (l.status !== "active" && l.status !== "sold") return false;
  return q.availableOnly ? l.status === "active" && l.isListed : l.status === "sold" || l.isListed;
}

/** search-sql.ts patternPredicate(): some end and branch of this network matches the key. */
function patternMatches(q: SearchQuery, l: MatchableListing, key: string): boolean {
  return patternEnds(q).some((end) =>
    keyBranches(q, end).some((b) => b.network === l.network && (end === "prefix" ? key.startsWith(b.value) : key.endsWith(b.value))),
  );
}

/** search-sql.ts textPredicate(): the address contains the text, Ethereum ignoring case. */
function textMatches(q: SearchQuery, l: MatchableListing): boolean {
  return textBranches(q).some((b) => b.network === l.network && (b.network === "ethereum" ? l.address.toLowerCase() : l.address).includes(b.value));
}

/**
 * Whether `listing` is among the results of `planned` (a query plannedQuery() answered; sort and paging aside).
 * Callers checking many listings against one query plan it once.
 */
export function listingMatches(planned: SearchQuery, listing: MatchableListing): boolean {
  const q = planned;
  if (!visible(q, listing)) return false;
  if (q.network && listing.network !== q.network) return false;
  if (q.category && listing.category !== q.category) return false;
  if (q.minLength !== null && listing.patternLength < q.minLength) return false;
  if (q.maxLength !== null && listing.patternLength > q.maxLength) return false;
  if (q.pattern && !patternMatches(q, listing, searchKeyOf(listing.address, listing.network))) return false;
  if (q.text && !textMatches(q, listing)) return false;
  return true;
}
