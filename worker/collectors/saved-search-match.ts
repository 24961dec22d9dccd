// Which saved searches the new and cheaper listings of one cron run match (docs/collectors.md#how-matching-stays-cheap).
// Each listing's probe keys (search-keys.ts) name the buckets its candidate searches are filed under; those
// searches are read in one D1 round trip and checked in code with the search's own predicate (search-match.ts).
// The cost follows the changed listings and the searches in their buckets, not every saved search times every
// listing.
import { sql } from "drizzle-orm";
import type { SavedFilters } from "../../schema/collectors";
import { savedSearches, savedSearchKeys } from "../../schema/db";
import { batchAll, type Db } from "../db";
import { listingMatches, type MatchableListing, plannedQuery } from "../listings/search-match";
import type { SearchQuery } from "../listings/search-params";
import { filtersOf } from "./saved-searches";
import { listingProbeKeys } from "./search-keys";

/** Probe keys per statement (one JSON parameter each). */
const PROBES_PER_STATEMENT = 5_000;

export type ChangedListing = MatchableListing & { id: number; sellerId: number | null; reason: "new" | "cheaper" };

export type SearchMatch = {
  searchId: number;
  userId: number;
  name: string;
  filters: SavedFilters;
  /** Listings of this run that match. */
  count: number;
  /** The last of them (events are read in order). */
  latest: ChangedListing;
};

export type MatchReport = { matches: SearchMatch[]; searchesRead: number; candidatesChecked: number };

type Candidate = { id: number; userId: number; name: string; query: string; planned: SearchQuery | null };
type CandidateRow = { key: string; id: number; userId: number; name: string; query: string; criteria: string };

export async function matchSavedSearches(db: Db, listings: ChangedListing[]): Promise<MatchReport> {
  if (listings.length === 0) return { matches: [], searchesRead: 0, candidatesChecked: 0 };
  const probes = listings.map((l) => listingProbeKeys(l));
  const all = [...new Set(probes.flat())];
  const s = savedSearches;
  const k = savedSearchKeys;
  const statements = [];
  for (let i = 0; i < all.length; i += PROBES_PER_STATEMENT) {
    statements.push(
      sql`SELECT ${k.key} AS key, ${s.id} AS id, ${s.userId} AS userId, ${s.name} AS name, ${s.query} AS query, ${s.criteria} AS criteria
          FROM ${k} JOIN ${s} ON ${s.id} = ${k.searchId}
          WHERE ${k.key} IN (SELECT value FROM json_each(${JSON.stringify(all.slice(i, i + PROBES_PER_STATEMENT))}))`,
    );
  }
  const answers = await batchAll<CandidateRow[][]>(db, statements);
  const buckets = new Map<string, Candidate[]>();
  const searches = new Map<number, Candidate>();
  for (const row of answers.flat()) {
    let candidate = searches.get(row.id);
    if (!candidate) {
      candidate = { id: row.id, userId: row.userId, name: row.name, query: row.query, planned: plannedQuery(JSON.parse(row.criteria) as SearchQuery) };
      searches.set(row.id, candidate);
    }
    const bucket = buckets.get(row.key);
    if (bucket) bucket.push(candidate);
    else buckets.set(row.key, [candidate]);
  }

  const found = new Map<number, SearchMatch>();
  let candidatesChecked = 0;
  listings.forEach((listing, i) => {
    // A search filed under two of this listing's keys ("either" a prefix or a suffix) is checked once.
    const checked = new Set<number>();
    for (const probe of probes[i]) {
      for (const c of buckets.get(probe) ?? []) {
        if (checked.has(c.id)) continue;
        checked.add(c.id);
        candidatesChecked++;
        // A seller is not told about their own listing.
        if (c.userId === listing.sellerId || !c.planned || !listingMatches(c.planned, listing)) continue;
        const match = found.get(c.id);
        if (match) {
          match.count++;
          match.latest = listing;
        } else found.set(c.id, { searchId: c.id, userId: c.userId, name: c.name, filters: filtersOf(c.query), count: 1, latest: listing });
      }
    }
  });
  return { matches: [...found.values()], searchesRead: searches.size, candidatesChecked };
}
