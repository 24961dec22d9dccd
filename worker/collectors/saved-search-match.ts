// Which saved searches the new and cheaper listings of one cron run match (docs/collectors.md#how-matching-stays-cheap).
// Each listing's probe keys (search-keys.ts) are looked up in saved_search_keys (an index lookup each). A hit on an
// exact key is a match (a search that is a pattern alone); for the other hits only those searches are read and
// checked in code, against the listings that found them, with the search's own predicate (search-match.ts). The
// cost follows the changed listings and what they match, not every saved search times every listing.
import { sql } from "drizzle-orm";
import { savedSearches, savedSearchKeys } from "../../schema/db";
import { batchAll, type Db } from "../db/database";
import { compileMatcher, type MatchableListing, plannedQuery, prepareListing } from "../listings/search-match";
import { criteriaOf } from "./saved-searches";
import { listingProbeKeys } from "./search-keys";

/** Keys or ids per statement (one JSON parameter each, well under D1's 2 MB a value). */
const PER_STATEMENT = 10_000;

/** A listing the saved searches are checked against: for sale now (listed, or cheaper, in this run). */
export type ChangedListing = MatchableListing & { id: number; sellerId: number | null; reason: "new" | "cheaper" };

export type SearchMatch = {
  searchId: number;
  userId: number;
  /** Listings of this run that match. */
  count: number;
  /** The last of them (events are read in order). */
  latest: ChangedListing;
};

export type MatchReport = { matches: SearchMatch[]; hits: number; searchesRead: number; candidatesChecked: number };

type Hit = { key: string; id: number; userId: number; exact: number };

const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / PER_STATEMENT) }, (_, i) => items.slice(i * PER_STATEMENT, (i + 1) * PER_STATEMENT));

export async function matchSavedSearches(db: Db, listings: ChangedListing[]): Promise<MatchReport> {
  const none: MatchReport = { matches: [], hits: 0, searchesRead: 0, candidatesChecked: 0 };
  if (listings.length === 0) return none;
  const k = savedSearchKeys;
  const s = savedSearches;
  // Which listings probe each key.
  const probers = new Map<string, number[]>();
  listings.forEach((l, i) => {
    for (const key of listingProbeKeys(l)) {
      const list = probers.get(key);
      if (list) list.push(i);
      else probers.set(key, [i]);
    }
  });
  const hits = (
    await batchAll<Hit[][]>(
      db,
      chunks([...probers.keys()]).map(
        (keys) => sql`SELECT ${k.key} AS key, ${k.searchId} AS id, ${k.userId} AS userId, ${k.exact} AS exact
                      FROM ${k} WHERE ${k.key} IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`,
      ),
    )
  ).flat();
  if (hits.length === 0) return none;

  // Per listing: the searches its exact keys found (matches) and the others (to check).
  const exact: Map<number, number>[] = listings.map(() => new Map());
  const toCheck: Map<number, number>[] = listings.map(() => new Map());
  for (const hit of hits) for (const i of probers.get(hit.key) ?? []) (hit.exact ? exact : toCheck)[i].set(hit.id, hit.userId);
  const unread = [...new Set(toCheck.flatMap((m) => [...m.keys()]))];
  const rows =
    unread.length === 0
      ? []
      : (
          await batchAll<{ id: number; criteria: string }[][]>(
            db,
            chunks(unread).map(
              (ids) => sql`SELECT ${s.id} AS id, ${s.criteria} AS criteria FROM ${s} WHERE ${s.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
            ),
          )
        ).flat();
  const matchers = new Map(
    rows.map((r) => {
      const planned = plannedQuery(criteriaOf(r.criteria));
      return [r.id, planned ? compileMatcher(planned) : () => false] as const;
    }),
  );

  const matched = new Map<number, SearchMatch>();
  const record = (id: number, userId: number, listing: ChangedListing) => {
    const match = matched.get(id);
    if (match) {
      match.count++;
      match.latest = listing;
    } else matched.set(id, { searchId: id, userId, count: 1, latest: listing });
  };
  let candidatesChecked = 0;
  listings.forEach((listing, i) => {
    // A seller is not told about their own listing.
    for (const [id, userId] of exact[i]) if (userId !== listing.sellerId) record(id, userId, listing);
    if (toCheck[i].size === 0) return;
    const prepared = prepareListing(listing);
    for (const [id, userId] of toCheck[i]) {
      if (exact[i].has(id) || userId === listing.sellerId) continue;
      candidatesChecked++;
      if (matchers.get(id)?.(prepared)) record(id, userId, listing);
    }
  });
  return { matches: [...matched.values()], hits: hits.length, searchesRead: rows.length, candidatesChecked };
}
