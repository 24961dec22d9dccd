// Which saved queries the new and cheaper listings of one cron batch match (docs/collectors.md#how-matching-stays-cheap).
// Identical searches are one query (saved_queries) however many wallets saved it. Each listing's probe keys
// (search-keys.ts) are looked up in saved_query_keys (an index lookup each). A hit on an exact key is a match (a
// query that is a pattern alone, or filters alone); the other hits are read and checked in code with the query's own
// predicate (search-match.ts). What is kept is one summary per matching query (how many listings, the last one, the
// last one of another seller, and the subscribing sellers' own listings it matched), not one entry per (search,
// listing): memory follows the queries that match, not the wallets subscribed to them nor the pairs. The subscribers
// are then told a chunk at a time (notification-job.ts).
import { sql } from "drizzle-orm";
import { savedQueries, savedQueryKeys, savedSearches } from "../../schema/db";
import { batchAll, type Db } from "../db/database";
import { compileMatcher, type MatchableListing, plannedQuery, prepareListing } from "../listings/search-match";
import { criteriaOf } from "./saved-searches";
import { listingProbeKeys } from "./search-keys";

/** Keys or ids per statement (one JSON parameter each, well under D1's 2 MB a value). */
const PER_STATEMENT = 10_000;

/** A listing the saved searches are checked against: for sale now (listed, or cheaper, in this run). */
export type ChangedListing = MatchableListing & { id: number; sellerId: number | null; reason: "new" | "cheaper" };

/** What one saved query matched in a batch. */
export type QueryMatch = {
  queryId: number;
  /** Listings of this batch that match. */
  count: number;
  /** The last of them (events are read in order). */
  latest: ChangedListing;
  /** The last of them whose seller is not latest's: what latest's seller is told about instead of their own. */
  other: ChangedListing | null;
  /** Per subscribing seller (a seller with saved searches), how many of the matches are their own listings. */
  own: Map<number, number>;
};

export type MatchReport = { matches: QueryMatch[]; hits: number; searchesRead: number; candidatesChecked: number };

type Hit = { key: string; id: number; exact: number };

const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / PER_STATEMENT) }, (_, i) => items.slice(i * PER_STATEMENT, (i + 1) * PER_STATEMENT));

/** How many wallets subscribe to each of `queryIds` (none: absent), counted on the (query_id, id) index. */
export async function subscriberCounts(db: Db, queryIds: number[]): Promise<Map<number, number>> {
  if (queryIds.length === 0) return new Map();
  const s = savedSearches;
  const rows = await batchAll<{ q: number; n: number }[][]>(
    db,
    chunks(queryIds).map(
      (part) =>
        sql`SELECT ${s.queryId} AS q, count(*) AS n FROM ${s} WHERE ${s.queryId} IN (SELECT value FROM json_each(${JSON.stringify(part)})) GROUP BY ${s.queryId}`,
    ),
  );
  return new Map(rows.flat().map((r) => [r.q, r.n]));
}

export async function matchSavedQueries(db: Db, listings: ChangedListing[]): Promise<MatchReport> {
  const none: MatchReport = { matches: [], hits: 0, searchesRead: 0, candidatesChecked: 0 };
  if (listings.length === 0) return none;
  const k = savedQueryKeys;
  const q = savedQueries;
  const s = savedSearches;
  const keys = new Set<string>();
  for (const l of listings) for (const key of listingProbeKeys(l)) keys.add(key);
  const sellers = [...new Set(listings.map((l) => l.sellerId).filter((id) => id !== null))];
  const [hitChunks, subscribingSellers] = await Promise.all([
    batchAll<Hit[][]>(
      db,
      chunks([...keys]).map(
        (part) =>
          sql`SELECT ${k.key} AS key, ${k.queryId} AS id, ${k.exact} AS exact FROM ${k} WHERE ${k.key} IN (SELECT value FROM json_each(${JSON.stringify(part)}))`,
      ),
    ),
    sellers.length === 0
      ? Promise.resolve([])
      : db.all<{ userId: number }>(
          sql`SELECT DISTINCT ${s.userId} AS userId FROM ${s} WHERE ${s.userId} IN (SELECT value FROM json_each(${JSON.stringify(sellers)}))`,
        ),
  ]);
  keys.clear();
  const byKey = new Map<string, Hit[]>();
  let hits = 0;
  for (const hit of hitChunks.flat()) {
    hits++;
    const list = byKey.get(hit.key);
    if (list) list.push(hit);
    else byKey.set(hit.key, [hit]);
  }
  if (hits === 0) return none;

  const unread = [...new Set(hitChunks.flat().flatMap((h) => (h.exact ? [] : [h.id])))];
  const rows =
    unread.length === 0
      ? []
      : (
          await batchAll<{ id: number; criteria: string }[][]>(
            db,
            chunks(unread).map(
              (ids) => sql`SELECT ${q.id} AS id, ${q.criteria} AS criteria FROM ${q} WHERE ${q.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
            ),
          )
        ).flat();
  const matchers = new Map(
    rows.map((r) => {
      const planned = plannedQuery(criteriaOf(r.criteria));
      return [r.id, planned ? compileMatcher(planned) : () => false] as const;
    }),
  );
  const subscribing = new Set(subscribingSellers.map((r) => r.userId));

  const matched = new Map<number, QueryMatch>();
  const record = (queryId: number, listing: ChangedListing) => {
    const match = matched.get(queryId);
    if (!match) {
      const own = new Map<number, number>();
      if (listing.sellerId !== null && subscribing.has(listing.sellerId)) own.set(listing.sellerId, 1);
      matched.set(queryId, { queryId, count: 1, latest: listing, other: null, own });
      return;
    }
    match.count++;
    if (match.latest.sellerId !== listing.sellerId) match.other = match.latest;
    match.latest = listing;
    if (listing.sellerId !== null && subscribing.has(listing.sellerId)) match.own.set(listing.sellerId, (match.own.get(listing.sellerId) ?? 0) + 1);
  };
  let candidatesChecked = 0;
  for (const listing of listings) {
    // The queries this listing's keys found: exact if any of its keys that found it is.
    const found = new Map<number, boolean>();
    for (const key of listingProbeKeys(listing)) for (const hit of byKey.get(key) ?? []) found.set(hit.id, found.get(hit.id) === true || hit.exact === 1);
    if (found.size === 0) continue;
    let prepared: ReturnType<typeof prepareListing> | null = null;
    for (const [id, exact] of found) {
      if (exact) {
        record(id, listing);
        continue;
      }
      candidatesChecked++;
      prepared ??= prepareListing(listing);
      if (matchers.get(id)?.(prepared)) record(id, listing);
    }
  }
  return { matches: [...matched.values()].sort((x, y) => x.queryId - y.queryId), hits, searchesRead: rows.length, candidatesChecked };
}
