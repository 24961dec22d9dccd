// Saved searches (docs/collectors.md#saved-searches): any marketplace search, its filters as the URL holds them,
// saved with a name. The filters are validated by the search's own parameter rules (search-params.ts), stored as
// a canonical query string (one search is saved once per wallet: a unique index). Each canonical query is stored
// once (saved_queries, with the validated query the cron job matches new listings against, filed under its bucket
// keys: search-keys.ts), whatever number of wallets save it; a wallet's saved search is its subscription to it. The
// per-wallet and per-network bounds are conditions of the INSERT.
import { and, count, desc, eq, type SQL, sql } from "drizzle-orm";
import * as v from "valibot";
import { SAVED_FILTER_FIELDS, SAVED_SEARCH_LIMITS, type SavedFilters, type SavedSearchView } from "../../schema/collectors";
import { savedQueries, savedQueryKeys, savedSearches } from "../../schema/db";
import type { AuthSession } from "../auth/session";
import { columnList, type Db, writeBatch } from "../db/database";
import { ApiError } from "../http/errors";
import { describeIssues } from "../http/validate";
import { plannedQuery } from "../listings/search-match";
import { type SearchQuery, searchQuerySchema } from "../listings/search-params";
import { searchKeys } from "./search-keys";

const s = savedSearches;
const q = savedQueries;
const k = savedQueryKeys;
/** A query no wallet subscribes to any more is deleted with its keys (ids: a JSON array of query ids). */
const orphans = (ids: SQL) => sql`SELECT value FROM json_each(${ids}) WHERE NOT EXISTS (SELECT 1 FROM ${s} WHERE ${s.queryId} = value)`;
const dropOrphans = (ids: SQL) => [sql`DELETE FROM ${k} WHERE ${k.queryId} IN (${orphans(ids)})`, sql`DELETE FROM ${q} WHERE ${q.id} IN (${orphans(ids)})`];

/** Values that mean the same as leaving the filter out, so one search has one canonical form. */
const SAME_AS_ABSENT: SavedFilters = { excludeSold: "true", category: "all", network: "all", patternFilter: "either" };

/** The filters as the canonical query string: trimmed, empty and default-equal ones left out, in a fixed order. */
export function canonicalFilters(filters: SavedFilters): { filters: SavedFilters; query: string } {
  const kept: SavedFilters = {};
  const params = new URLSearchParams();
  for (const field of SAVED_FILTER_FIELDS) {
    const value = filters[field]?.trim();
    if (!value || SAME_AS_ABSENT[field] === value) continue;
    kept[field] = value;
    params.set(field, value);
  }
  return { filters: kept, query: params.toString() };
}

/** The filters as the search reads them: 400 naming the field, as GET /api/addresses/search would. */
export function filtersToQuery(filters: SavedFilters): SearchQuery {
  const parsed = v.safeParse(searchQuerySchema, filters);
  if (!parsed.success) throw new ApiError(400, `filters.${describeIssues(parsed.issues)}`);
  return parsed.output;
}

/** A validated query with no filter, the defaults a stored one's fields go over. */
const NO_FILTERS: SearchQuery = {
  availableOnly: true,
  limit: 20,
  offset: 0,
  network: null,
  category: null,
  minLength: null,
  maxLength: null,
  pattern: null,
  text: null,
  sortBy: "rarity",
  sortOrder: "desc",
};

/**
 * The validated query as stored: the fields that differ from no filter at all (the cron job reads thousands of
 * these a run; paging and sort do not take part in matching).
 */
export function storedCriteria(q: SearchQuery): string {
  const kept = Object.entries(q).filter(
    ([field, value]) => !["limit", "offset", "sortBy", "sortOrder"].includes(field) && value !== NO_FILTERS[field as keyof SearchQuery],
  );
  return JSON.stringify(Object.fromEntries(kept));
}

/** A stored query back as the search's validated query. */
export const criteriaOf = (stored: string): SearchQuery => ({ ...NO_FILTERS, ...(JSON.parse(stored) as Partial<SearchQuery>) });

/** A saved row's filters, back from its canonical query string. */
export const filtersOf = (query: string): SavedFilters => Object.fromEntries(new URLSearchParams(query)) as SavedFilters;

const view = (r: { id: number; name: string; query: string; createdAt: number; lastMatchAt: number | null }): SavedSearchView => ({
  id: r.id,
  name: r.name,
  filters: filtersOf(r.query),
  createdAt: new Date(r.createdAt).toISOString(),
  lastMatchAt: r.lastMatchAt === null ? null : new Date(r.lastMatchAt).toISOString(),
});

export async function listSavedSearches(db: Db, userId: number): Promise<SavedSearchView[]> {
  const rows = await db
    .select({ id: s.id, name: s.name, query: s.query, createdAt: s.createdAt, lastMatchAt: s.lastMatchAt })
    .from(s)
    .where(eq(s.userId, userId))
    .orderBy(desc(s.createdAt), desc(s.id));
  return rows.map(view);
}

/**
 * Saves a search. 400 for filters the search refuses or that no address can match; 409 when this wallet saved the
 * same search already, or when the wallet's or its network's saved searches are at their bound.
 */
export async function saveSearch(db: Db, session: AuthSession, name: string, input: SavedFilters, clientKey: string, now: number): Promise<SavedSearchView> {
  const { query, filters } = canonicalFilters(input);
  const criteria = filtersToQuery(filters);
  const planned = plannedQuery(criteria);
  if (!planned) throw new ApiError(400, "filters: no address can match this search (a character no address holds, or a pattern the network's alphabet lacks)");
  const keys = searchKeys(planned);
  const bounded = sql`(SELECT count(*) FROM ${s} WHERE ${s.userId} = ${session.userId}) < ${SAVED_SEARCH_LIMITS.perWallet}
    AND (SELECT count(*) FROM ${s} WHERE ${s.clientKey} = ${clientKey}) < ${SAVED_SEARCH_LIMITS.perClient}`;
  const queryId = sql`(SELECT ${q.id} FROM ${q} WHERE ${q.query} = ${query})`;
  const results = await writeBatch(db, [
    // The query, and its keys, unless some wallet saved it before.
    sql`INSERT INTO ${q} ${columnList(q.query, q.criteria)} VALUES (${query}, ${storedCriteria(criteria)}) ON CONFLICT DO NOTHING`,
    sql`INSERT INTO ${k} ${columnList(k.key, k.queryId, k.exact)}
        SELECT json_extract(j.value, '$.key'), ${queryId}, json_extract(j.value, '$.exact') FROM json_each(${JSON.stringify(keys)}) AS j
        WHERE true ON CONFLICT DO NOTHING`,
    sql`INSERT INTO ${s} ${columnList(s.userId, s.name, s.query, s.queryId, s.clientKey, s.createdAt)}
        SELECT ${session.userId}, ${name}, ${query}, ${queryId}, ${clientKey}, ${now} WHERE ${bounded}
        ON CONFLICT DO NOTHING RETURNING ${s.id}`,
    // Refused by a bound: a query saved just now for it alone goes again.
    ...dropOrphans(sql`json_array(${queryId})`),
  ]);
  const inserted = results[2];
  const id = (inserted.results[0] as { id: number } | undefined)?.id;
  if (id !== undefined) return view({ id, name, query, createdAt: now, lastMatchAt: null });
  const [same] = await db
    .select({ name: s.name })
    .from(s)
    .where(and(eq(s.userId, session.userId), eq(s.query, query)));
  if (same) throw new ApiError(409, `You saved this search already, as “${same.name}”`);
  const [{ own }] = await db.select({ own: count() }).from(s).where(eq(s.userId, session.userId));
  if (own >= SAVED_SEARCH_LIMITS.perWallet)
    throw new ApiError(409, `You have ${SAVED_SEARCH_LIMITS.perWallet} saved searches, the most a wallet may keep; delete one to save another`);
  throw new ApiError(
    409,
    `The wallets on your network have ${SAVED_SEARCH_LIMITS.perClient} saved searches, the most one network may keep; delete some to save another`,
  );
}

/** Deletes one of the caller's saved searches, and its query with the keys if no other wallet saved it; 404 for any other id. */
export async function deleteSavedSearch(db: Db, userId: number, id: number): Promise<void> {
  const mine = and(eq(s.id, id), eq(s.userId, userId));
  const [removed] = await writeBatch(db, [db.delete(s).where(mine).returning({ id: s.id, queryId: s.queryId })]);
  // The batch's raw rows: named as the columns.
  const row = removed.results[0] as { query_id: number } | undefined;
  if (!row) throw new ApiError(404, "Saved search not found");
  await writeBatch(db, dropOrphans(sql`${JSON.stringify([row.query_id])}`));
}
