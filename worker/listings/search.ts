// The marketplace search, built to stay fast at a million listings (README "Browse API" has the numbers).
//
// Plans (one D1 round trip each in the common case):
//  - Sort-index plan: walk the partial index of the sort (rarity, createdAt; price per network and currency,
//    merged in USD at the current rate), checking the column filters inside the index, and stop after
//    offset + limit matches. Used when nothing selective narrows the search, with the exact total from
//    listing_counts (kept by triggers).
//  - Candidate plan: when a pattern or free text matches few listings, collect them (pattern: from the covering
//    prefix/suffix index without reading rows; text: from the trigram index, then their rows), sort just
//    those, and count them in the same statement.
//  - A pattern or text matching very many listings goes back to the sort-index plan with a per-row check, and
//    its total says "more than the window" (MAX_RESULT_WINDOW, totalIsExact false) instead of counting on.
// Paging is bounded by MAX_RESULT_WINDOW, so no plan walks further than that.
import { type SQL, sql } from "drizzle-orm";
import { MAX_RESULT_WINDOW, type Pagination } from "../../schema/browse";
import type { Db } from "../db";
import type { UsdRates } from "../domain/prices";
import { type ListingRow, listingColumns } from "./listing-view";
import { batchAll } from "./raw-batch";
import type { SearchQuery } from "./search-params";
import { and, columnFilters, networksOf, patternCandidates, patternPredicate, textCandidates, textPredicate, visibility } from "./search-sql";

/**
 * Pattern matches sorted straight from the covering index up to this many (index-only, no row reads); above
 * it (more than 2% of a million listings) the sort index finds a page sooner.
 */
export const PATTERN_CANDIDATE_MAX = 20_000;
/** Text matches sorted directly up to this many (each costs a row read); more means a common text. */
export const TEXT_CANDIDATE_MAX = MAX_RESULT_WINDOW;

export type SearchResult = { rows: ListingRow[]; total: number; totalIsExact: boolean };

const CURRENCIES = ["ETH", "SOL"] as const;
const EMPTY: SearchResult = { rows: [], total: 0, totalIsExact: true };

const dir = (q: SearchQuery) => sql.raw(q.sortOrder === "asc" ? "ASC" : "DESC");

function sortKey(q: SearchQuery, rates: UsdRates): SQL {
  // Price: 1e-8 units times the coin's current USD rate, so ETH and SOL listings compare by value.
  if (q.sortBy === "price") return sql`(price_units * (CASE currency WHEN 'ETH' THEN ${rates.ethPrice} ELSE ${rates.solPrice} END))`;
  return sql.raw(q.sortBy === "rarity" ? "rarity_score" : "created_at");
}

/** Wraps an id-and-key page query so only the page's rows are read in full, in page order. */
function withRows(page: SQL, q: SearchQuery): SQL {
  const d = dir(q);
  return sql`WITH page AS (${page}) SELECT ${sql.raw(listingColumns("a"))} FROM page JOIN addresses a ON a.id = page.id ORDER BY page.k ${d}, page.id ${d}`;
}

/**
 * Sort-index plan, as (id, k) of the page. Price merges one index range per (network, currency), each cut at
 * offset + limit, in USD.
 */
function sortIndexIds(q: SearchQuery, rates: UsdRates, predicates: SQL[], onlyIf?: SQL): SQL {
  const d = dir(q);
  const where = [visibility(q), ...columnFilters(q), ...predicates];
  // `onlyIf` false makes every LIMIT 0, and SQLite ends a LIMIT 0 query before it reads anything.
  const limit = (n: number) => (onlyIf ? sql`(CASE WHEN ${onlyIf} THEN ${n} ELSE 0 END)` : sql`${n}`);
  if (q.sortBy !== "price") {
    const index = sql.raw(q.sortBy === "rarity" ? "addresses_search_rarity" : "addresses_search_created");
    const col = sortKey(q, rates);
    return sql`SELECT id, ${col} AS k FROM addresses INDEXED BY ${index} WHERE ${and(where)} ORDER BY ${col} ${d}, id ${d} LIMIT ${limit(q.limit)} OFFSET ${q.offset}`;
  }
  const depth = q.offset + q.limit;
  const branches = networksOf(q).flatMap((network) =>
    CURRENCIES.map((currency) => {
      const rate = currency === "ETH" ? rates.ethPrice : rates.solPrice;
      const branchWhere = and([...where, sql`network = ${network}`, sql`currency = ${currency}`]);
      return sql`SELECT * FROM (SELECT id, price_units * ${rate} AS k FROM addresses INDEXED BY addresses_search_price WHERE ${branchWhere} ORDER BY price_units ${d}, id ${d} LIMIT ${limit(depth)})`;
    }),
  );
  return sql`SELECT id, k FROM (${sql.join(branches, sql` UNION ALL `)}) ORDER BY k ${d}, id ${d} LIMIT ${limit(q.limit)} OFFSET ${q.offset}`;
}

const sortIndexPage = (q: SearchQuery, rates: UsdRates, predicates: SQL[]) => withRows(sortIndexIds(q, rates, predicates), q);

/**
 * Filtered-sort plan, for category or character-count filters. Those correlate with every sort (longer patterns
 * are rarer and pricier), so walking the global sort index could skip most of a million entries before a page
 * fills. Instead: for each (category, pattern length) bucket that has listings under the filters (from
 * listing_counts), take the first offset + limit entries of that bucket's own sort-ordered index range, then
 * merge. One statement; the per-bucket picks travel as JSON because SQLite has no LATERAL join.
 */
function bucketPage(q: SearchQuery, rates: UsdRates): SQL {
  const d = dir(q);
  const depth = q.offset + q.limit;
  const byPrice = q.sortBy === "price";
  const index = sql.raw(q.sortBy === "rarity" ? "addresses_search_len_rarity" : byPrice ? "addresses_search_len_price" : "addresses_search_len_created");
  const col = sql.raw(q.sortBy === "rarity" ? "rarity_score" : byPrice ? "price_units" : "created_at");
  const state = q.availableOnly ? sql`state = 'available'` : sql`state IN ('available', 'sold')`;
  // Price buckets are also split by network and currency (the index is ordered by raw units within a currency).
  const bucketCols = sql.raw(byPrice ? "category AS c, pattern_length AS len, network AS net, currency AS cur" : "category AS c, pattern_length AS len");
  const bucketMatch = byPrice
    ? sql`category = buckets.c AND pattern_length = buckets.len AND network = buckets.net AND currency = buckets.cur`
    : sql`category = buckets.c AND pattern_length = buckets.len`;
  const key = byPrice
    ? sql`json_extract(value, '$[0]') * (CASE buckets_cur WHEN 'ETH' THEN ${rates.ethPrice} ELSE ${rates.solPrice} END)`
    : sql`json_extract(value, '$[0]')`;
  return withRows(
    sql`WITH buckets AS (SELECT DISTINCT ${bucketCols} FROM listing_counts WHERE ${and([state, ...columnFilters(q), sql`listings > 0`])}),
    picks AS (
      SELECT ${sql.raw(byPrice ? "buckets.cur" : "NULL")} AS buckets_cur, (SELECT json_group_array(json_array(s, id)) FROM (
        SELECT ${col} AS s, id FROM addresses INDEXED BY ${index}
        WHERE ${and([visibility(q), ...columnFilters(q), bucketMatch])}
        ORDER BY ${col} ${d}, id ${d} LIMIT ${depth})) AS arr
      FROM buckets),
    merged AS (SELECT json_extract(value, '$[1]') AS id, ${key} AS k FROM picks, json_each(picks.arr))
    SELECT id, k FROM merged ORDER BY k ${d}, id ${d} LIMIT ${q.limit} OFFSET ${q.offset}`,
    q,
  );
}

type PlanRow = Omit<ListingRow, "id"> & { id: number | null; _total: number; _found: number };

/**
 * Candidate plan, one statement: `cand` holds at most `cap` candidates; `hits` those that pass every
 * condition, with their sort key; the result is the page's rows plus the totals (always at least one row,
 * so the totals arrive even for an empty page). `rowPredicates` null: cand already has (id, k) filtered
 * from a covering index, and no row is read except the page's. `fallback(guard)`: the page to use instead
 * when there are more than `cap` candidates, reading nothing unless `guard` holds; likewise `hits` is empty
 * over the cap, so whichever page is not wanted costs nothing.
 */
async function candidatePlan(
  db: Db,
  q: SearchQuery,
  rates: UsdRates,
  plan: { cand: SQL; cap: number; rowPredicates: SQL[] | null; fallback?: (guard: SQL) => SQL },
) {
  const { cand, cap, rowPredicates, fallback } = plan;
  const d = dir(q);
  // LIMIT -1 is no limit; LIMIT 0 ends the query before it reads anything.
  const underCap = sql`LIMIT (CASE WHEN (SELECT n FROM found) <= ${cap} THEN -1 ELSE 0 END)`;
  const hits =
    rowPredicates === null
      ? sql`SELECT id, k FROM cand ${underCap}`
      : sql`SELECT a.id, ${sortKey(q, rates)} AS k FROM cand JOIN addresses AS a NOT INDEXED ON a.id = cand.id
            WHERE ${and([visibility(q), ...columnFilters(q), ...rowPredicates])} ${underCap}`;
  const fromHits = sql`SELECT id, k FROM hits ORDER BY k ${d}, id ${d} LIMIT ${q.limit} OFFSET ${q.offset}`;
  const page = fallback ? sql`SELECT * FROM (${fromHits}) UNION ALL SELECT * FROM (${fallback(sql`(SELECT n FROM found) > ${cap}`)})` : fromHits;
  const rows = await db.all<PlanRow>(sql`
    WITH cand AS MATERIALIZED (SELECT * FROM (${cand}) LIMIT ${cap + 1}),
    found AS (SELECT count(*) AS n FROM cand),
    hits AS MATERIALIZED (${hits}),
    page AS (${page}),
    meta AS (SELECT (SELECT count(*) FROM hits) AS total, (SELECT n FROM found) AS found)
    SELECT meta.total AS _total, meta.found AS _found, ${sql.raw(listingColumns("a"))}
    FROM meta LEFT JOIN page ON 1 LEFT JOIN addresses a ON a.id = page.id
    ORDER BY page.k ${d}, page.id ${d}`);
  const meta = rows[0] ?? { _total: 0, _found: 0 };
  return {
    overflow: Number(meta._found) > cap,
    total: Number(meta._total),
    rows: rows.filter((r): r is PlanRow & { id: number } => r.id !== null).map(({ _total, _found, ...row }) => row as ListingRow),
  };
}

/** A page and a count in one D1 round trip. */
async function pageAndCount(db: Db, page: SQL, count: SQL): Promise<[ListingRow[], number]> {
  const [rows, counted] = await batchAll<[ListingRow[], { n: number }[]]>(db, [page, count]);
  return [rows, Number(counted[0]?.n ?? 0)];
}

/** Exact count of browsable listings under the column filters, from the trigger-kept listing_counts. */
function countsTableTotal(q: SearchQuery): SQL {
  const parts: SQL[] = [q.availableOnly ? sql`state = 'available'` : sql`state IN ('available', 'sold')`, ...columnFilters(q)];
  return sql`SELECT coalesce(sum(listings), 0) AS n FROM listing_counts WHERE ${and(parts)}`;
}

/** Counts rows matching everything, stopping once more than MAX_RESULT_WINDOW are found. */
function cappedCount(q: SearchQuery, predicates: SQL[]): SQL {
  const where = and([visibility(q), ...columnFilters(q), ...predicates]);
  return sql`SELECT count(*) AS n FROM (SELECT 1 FROM addresses INDEXED BY addresses_search_rarity WHERE ${where} LIMIT ${MAX_RESULT_WINDOW + 1})`;
}

export async function searchListings(db: Db, q: SearchQuery, rates: UsdRates): Promise<SearchResult> {
  const patternHits = q.pattern ? patternCandidates(q, sortKey(q, rates)) : null;
  const patternWhere = q.pattern ? patternPredicate(q) : null;
  const textWhere = q.text ? textPredicate(q) : null;
  // A pattern or text no address can contain (wrong alphabet, %, _, quotes...) matches nothing.
  if ((q.pattern && (!patternHits || !patternWhere)) || (q.text && !textWhere)) return EMPTY;

  if (!q.pattern && !q.text) {
    const bucketed = q.category !== null || q.minLength !== null || q.maxLength !== null;
    const [rows, total] = await pageAndCount(db, bucketed ? bucketPage(q, rates) : sortIndexPage(q, rates, []), countsTableTotal(q));
    return { rows, total, totalIsExact: true };
  }

  if (patternHits && patternWhere && !textWhere) {
    // Over the cap (a common pattern, say "0000") matches are dense enough that the sort index finds a page at
    // once, in the same statement. The candidates already passed every filter, so there are more than the
    // window can page: counting further would only cost time.
    const plan = await candidatePlan(db, q, rates, {
      cand: patternHits,
      cap: PATTERN_CANDIDATE_MAX,
      rowPredicates: null,
      fallback: (guard) => sortIndexIds(q, rates, [patternWhere], guard),
    });
    return plan.overflow ? { rows: plan.rows, total: MAX_RESULT_WINDOW, totalIsExact: false } : { rows: plan.rows, total: plan.total, totalIsExact: true };
  }

  const predicates = [textWhere!, ...(patternWhere ? [patternWhere] : [])];
  const byText = await candidatePlan(db, q, rates, { cand: textCandidates(q), cap: TEXT_CANDIDATE_MAX, rowPredicates: predicates });
  if (!byText.overflow) return { rows: byText.rows, total: byText.total, totalIsExact: true };
  if (patternHits) {
    const byPattern = await candidatePlan(db, q, rates, { cand: sql`SELECT id FROM (${patternHits})`, cap: TEXT_CANDIDATE_MAX, rowPredicates: [textWhere!] });
    if (!byPattern.overflow) return { rows: byPattern.rows, total: byPattern.total, totalIsExact: true };
  }
  // A very common text: the sort index finds a page quickly; counting stops at the window.
  const [rows, capped] = await pageAndCount(db, sortIndexPage(q, rates, predicates), cappedCount(q, predicates));
  return { rows, total: Math.min(capped, MAX_RESULT_WINDOW), totalIsExact: capped <= MAX_RESULT_WINDOW };
}

/** public-side.md §3 pagination, from offset and limit; pages stop at MAX_RESULT_WINDOW. */
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
