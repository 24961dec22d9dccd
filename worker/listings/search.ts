// The marketplace search, built to stay fast at a million listings (docs/search.md#latest-figures has the numbers). It
// reads in one direction: choose a plan from the query (search-plan.ts), build its SQL (search-sql.ts), run it
// here and turn the rows into a page and a total. Every plan is one D1 round trip (filtered plans: a second
// one when the bucket list moved, search-buckets.ts).
import { MAX_RESULT_WINDOW, type Pagination } from "../../schema/browse";
import { type Db, batchAll } from "../db/database";
import type { UsdRates } from "../domain/prices";
import { decodeListing, type ListingRow } from "./listing-view";
import { bucketListSql, knownBuckets, parseBucketList, rememberBuckets } from "./search-buckets";
import { choosePlan } from "./search-plan";
import type { SearchQuery } from "./search-params";
import { needsBuckets, type PlanSql, planSql } from "./search-sql";

export { PATTERN_CANDIDATE_MAX, SCAN_DEPTH } from "./search-plan";

/**
 * `total` is exact when `totalIsExact`; otherwise a scan stopped early and `total` counts the matches it saw,
 * the only ones that can be paged (at least that many exist).
 */
export type SearchResult = { rows: ListingRow[]; total: number; totalIsExact: boolean };

type BucketListRow = { list: string };
/** A raw row of a one-statement plan: the totals, and a listing (listingSelectList) or, for an empty page, none (id null). */
type MatchRow = Record<string, unknown> & { id: number | null; _total: number; _found: number; _scanned: number };

export async function searchListings(db: Db, q: SearchQuery, rates: UsdRates): Promise<SearchResult> {
  const plan = choosePlan(q);
  if (!needsBuckets(plan)) return (await run(db, planSql(plan, rates), false)).result;
  // The SQL names the buckets this isolate knows; the same batch reads the current list. A different list
  // means the answer may miss a bucket: run again with the one just read (bucket sets change rarely: a first
  // listing of a new length, the last of one gone).
  let buckets = await knownBuckets(db);
  for (let attempt = 0; attempt < 5; attempt++) {
    const { result, bucketKey } = await run(db, planSql(plan, rates, buckets), true);
    if (bucketKey === buckets.key) return result;
    buckets = parseBucketList(bucketKey ?? "");
    rememberBuckets(buckets);
  }
  throw new Error("listing buckets kept changing during a search");
}

/**
 * The listings of a one-statement plan's answer without its totals columns. Its first row carries the totals
 * even for an empty page (a row without a listing, id null), so the totals always arrive.
 */
const pageRows = (rows: MatchRow[]): ListingRow[] => rows.filter((r) => r.id !== null).map(decodeListing);

/** Runs a plan's SQL in one D1 round trip, with the current bucket list when `checkBuckets`. */
async function run(db: Db, built: PlanSql, checkBuckets: boolean): Promise<{ result: SearchResult; bucketKey: string | null }> {
  const check = checkBuckets ? [bucketListSql] : [];
  switch (built.kind) {
    case "nothing":
      return { result: { rows: [], total: 0, totalIsExact: true }, bucketKey: null };
    case "page-and-count": {
      const [rows, counted, list] = (await batchAll<unknown[][]>(db, [built.page, built.count, ...check])) as [
        Record<string, unknown>[],
        { n: number }[],
        BucketListRow[]?,
      ];
      return { result: { rows: rows.map(decodeListing), total: Number(counted[0]?.n ?? 0), totalIsExact: true }, bucketKey: list?.[0]?.list ?? null };
    }
    case "page-with-total": {
      const [rows, list] = (await batchAll<unknown[][]>(db, [built.statement, ...check])) as [MatchRow[], BucketListRow[]?];
      const n = Number(rows[0]?._total ?? 0);
      const over = n > built.countCap;
      const result = {
        rows: pageRows(rows),
        total: over ? built.countCap : n,
        totalIsExact: !over,
      };
      return { result, bucketKey: list?.[0]?.list ?? null };
    }
    case "matches": {
      const [rows, list] = (await batchAll<unknown[][]>(db, [built.statement, ...check])) as [MatchRow[], BucketListRow[]?];
      const meta = rows[0] ?? { _total: 0, _found: 0, _scanned: 0 };
      // Candidates within the cap were all checked; a scan that read fewer listings than its depth saw them all.
      const exact = Number(meta._found) <= built.cap || Number(meta._scanned) < built.depth;
      const result = {
        rows: pageRows(rows),
        total: Number(meta._total),
        totalIsExact: exact,
      };
      return { result, bucketKey: list?.[0]?.list ?? null };
    }
  }
}

/**
 * Pagination from offset and limit. Pages stop at MAX_RESULT_WINDOW, and at the total when it
 * is a scan's lower bound (nothing past it was looked at).
 */
export function paginate(offset: number, limit: number, total: number, totalIsExact: boolean): Pagination {
  const reachable = Math.min(total, MAX_RESULT_WINDOW);
  return {
    page: Math.floor(offset / limit) + 1,
    totalPages: Math.ceil(reachable / limit),
    total,
    hasPrevPage: offset > 0,
    hasNextPage: offset + limit < reachable,
    totalIsExact,
  };
}
