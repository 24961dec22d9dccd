// Step 2 of the marketplace search: the SQL of each plan chosen by search-plan.ts. The indexes it targets are in
// schema/db/listings.ts. Not every value is bound: a search repeats its filters in every index range it reads and
// D1 allows 100 bound parameters per statement, so `literal()` inlines the filter values as SQL text. Only these
// are inlined, each already narrowed to a closed set or a checked shape before it gets here:
//  - network, category and currency: members of their enums (valibot picklists in schema/search.ts; a bucket's
//    values are the listing_counts rows the app wrote from the same enums);
//  - pattern lengths (minCharLength/maxCharLength, a bucket's length, a substr position): whole numbers, and
//    literal() truncates a number again;
//  - pattern values: hex digits (Ethereum) or base58 characters (Solana) only, search-terms.ts drops any other
//    pattern; a prefix's upper bound is its last character plus one (`:`, `g`, `{` at most), so no quote can
//    occur, and literal() doubles quotes all the same.
// Free text (instr), the USD rates and LIMIT counts stay bound parameters; the rest of the raw SQL is constant
// (index names, sort directions, BROWSABLE_SQL).
import { type SQL, sql } from "drizzle-orm";
import { MAX_RESULT_WINDOW } from "../../schema/browse";
import { alias } from "drizzle-orm/sqlite-core";
import { addresses, BROWSABLE_SQL, KEY_START, listingCounts, NETWORKS, type Network } from "../../schema/db";
import { bareColumns } from "../db/database";
import type { UsdRates } from "../domain/prices";
import { listingSelectList } from "./listing-view";
import { keyBranches, networksOf, patternEnds, textBranches } from "./search-terms";
import { type BucketList, bucketsOf, type ListingBucket } from "./search-buckets";
import type { OrderWalk, SearchPlan } from "./search-plan";
import type { SearchQuery } from "./search-params";
import { listingTo } from "../../schema/listing-lifecycle";
import { listingStatusIs, onMarket } from "./status-sql";

/** The columns of addresses by their bare names: the predicates below read it both unaliased and as `a`. */
const c = bareColumns(addresses);
/** addresses as `a`, where a statement joins its rows back to a page of ids. */
const a = alias(addresses, "a");

const or = (parts: SQL[]): SQL => (parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` OR `)})`);
export const and = (parts: SQL[]): SQL => sql.join(parts, sql` AND `);

/**
 * Which rows the search may return. Always contains BROWSABLE_SQL verbatim: that is the WHERE term of the
 * partial search indexes, and SQLite only uses a partial index when the query repeats its term.
 */
export function visibility(q: Pick<SearchQuery, "availableOnly">): SQL {
  const browsable = sql.raw(BROWSABLE_SQL);
  return q.availableOnly ? sql`${browsable} AND ${onMarket(c)}` : sql`${browsable} AND (${listingStatusIs(c.status, listingTo("sell"))} OR ${c.isListed} = 1)`;
}

/**
 * A validated value (an enum member, a whole number, a pattern of address characters) as SQL text. Searches
 * repeat their filters in every index range they read, and D1 allows 100 bound parameters per statement, so
 * these are inlined; quotes are escaped all the same.
 */
export const literal = (value: string | number): SQL => sql.raw(typeof value === "number" ? String(Math.trunc(value)) : `'${value.replace(/'/g, "''")}'`);

/** The filters every search index carries as columns (checked inside the index, no row reads). */
export function columnFilters(q: SearchQuery): SQL[] {
  const parts: SQL[] = [];
  if (q.network) parts.push(sql`${c.network} = ${literal(q.network)}`);
  if (q.category) parts.push(sql`${c.category} = ${literal(q.category)}`);
  if (q.minLength !== null) parts.push(sql`${c.patternLength} >= ${literal(q.minLength)}`);
  if (q.maxLength !== null) parts.push(sql`${c.patternLength} <= ${literal(q.maxLength)}`);
  return parts;
}

export const reverse = (s: string) => [...s].reverse().join("");

/** The smallest string greater than every string starting with `s` (keys are ASCII), or null for "". */
export function prefixUpperBound(s: string): string | null {
  if (s === "") return null;
  return s.slice(0, -1) + String.fromCharCode(s.charCodeAt(s.length - 1) + 1);
}

function keyRange(col: SQL, value: string): SQL {
  const upper = prefixUpperBound(value);
  return upper === null ? sql`${col} >= ${literal(value)}` : sql`${col} >= ${literal(value)} AND ${col} < ${literal(upper)}`;
}

/**
 * One index range of a pattern's matches: its index, the key column the range is on and the key value (reversed
 * for a suffix), the conditions that select the range's listings (`filters`: visibility, column filters,
 * network and, for "either", the prefix exclusion) and `where`, those plus the key range.
 */
type PatternRange = {
  end: "prefix" | "suffix";
  index: "addresses_search_prefix" | "addresses_search_suffix";
  keyColumn: SQL;
  value: string;
  networks: Network[];
  filters: SQL[];
  where: SQL[];
};

/**
 * The index ranges holding the browsable rows whose address matches the pattern (every column filter and sort
 * key is in the covering prefix/suffix indexes: no row is read). Empty when the pattern cannot match anything.
 */
function patternRanges(q: SearchQuery): PatternRange[] {
  const ranges: PatternRange[] = [];
  const prefixes = keyBranches(q, "prefix");
  for (const end of patternEnds(q)) {
    // Networks whose form of the pattern is the same key (and, for "either", the same prefix to leave out) share
    // one range: "1111" is one range of both networks' keys, where a range per network would read the other
    // network's entries too (the index orders by key, then network).
    const shared = new Map<string, { value: string; exclude: string | null; networks: Network[] }>();
    for (const b of keyBranches(q, end)) {
      // "Either": a row matching both ends comes from the prefix range only, so the ranges stay disjoint
      // (UNION ALL, no de-duplication over a large range). The reversed key ends with the reversed prefix.
      const prefix = end === "suffix" && q.pattern?.mode === "either" ? prefixes.find((p) => p.network === b.network) : undefined;
      if (prefix?.value === "") continue;
      const value = end === "prefix" ? b.value : reverse(b.value);
      const exclude = prefix ? reverse(prefix.value) : null;
      const key = `${value}\u0000${exclude}`;
      const range = shared.get(key) ?? { value, exclude, networks: [] };
      range.networks.push(b.network);
      shared.set(key, range);
    }
    for (const { value, exclude, networks } of shared.values()) {
      const filters = [visibility(q), ...columnFilters(q)];
      if (networks.length < NETWORKS.length) filters.push(sql`${c.network} = ${literal(networks[0])}`);
      if (exclude !== null) filters.push(sql`substr(${c.searchKeyRev}, ${literal(-exclude.length)}) <> ${literal(exclude)}`);
      const [index, keyColumn] =
        end === "prefix" ? (["addresses_search_prefix", c.searchKey] as const) : (["addresses_search_suffix", c.searchKeyRev] as const);
      ranges.push({ end, index, keyColumn, value, networks, filters, where: [...filters, keyRange(keyColumn, value)] });
    }
  }
  return ranges;
}

/** (id, k) of every pattern match, `k` being the sort key. Null when the pattern cannot match anything. */
export function patternCandidates(q: SearchQuery, key: SQL): SQL | null {
  const ranges = patternRanges(q);
  return ranges.length === 0
    ? null
    : unionAll(ranges.map((r) => sql`SELECT ${c.id}, ${key} AS k FROM ${addresses} INDEXED BY ${sql.raw(r.index)} WHERE ${and(r.where)}`));
}

/**
 * The sort indexes keyed by a key's first KEY_START characters (schema/db/listings.ts), per pattern end and
 * order. Each holds the order inside every first character, with the filters and the whole key.
 */
function walkIndex(r: PatternRange, q: SearchQuery): { index: SQL; start: SQL } {
  const end = r.end === "prefix" ? "start" : "end";
  const order = q.sortBy === "createdAt" ? "created" : q.sortBy;
  return { index: sql.raw(`addresses_search_${end}_${order}`), start: r.end === "prefix" ? c.searchKeyStart : c.searchKeyRevStart };
}

/**
 * A page of a pattern alone (plan "pattern-walk"), with the rows and the total. Each index range is counted up
 * to `sortMax` + 1 entries first. A range of at most `sortMax` matches is sorted from the covering prefix/suffix
 * index (only the page's rows are read); a larger one is walked in the page's order through the index of its
 * first character, checking the rest of the key in the index, so it reads about (offset + limit) / (its share
 * of that character's listings) entries and sorts nothing. Both arms of a range are in the statement: the
 * count switches one off by making its index bound NULL, which SQLite evaluates once before it seeks (a
 * condition in WHERE would be tested per entry).
 * The arms are one compound SELECT ordered by the sort key, which SQLite merges lazily; price merges per
 * currency in raw units (the index order), then the currencies in USD.
 */
function patternWalkPage(q: SearchQuery, rates: UsdRates, sortMax: number): SQL {
  if (sortMax < MAX_RESULT_WINDOW) throw new Error("the range counts double as the total: sortMax must reach the window");
  const ranges = patternRanges(q);
  // An empty key (Ethereum's "0x" alone) is every listing of a network: search-plan.ts sends it to "ordered".
  if (ranges.some((r) => r.value === "")) throw new Error("an empty pattern key has no range to walk");
  const d = dir(q);
  const order = sql`ORDER BY 2 ${d}, 1 ${d}`;
  const counts = ranges.map(
    (r, i) =>
      sql`${sql.raw(`range${i}`)} AS MATERIALIZED (SELECT count(*) AS n FROM (SELECT 1 FROM ${addresses} INDEXED BY ${sql.raw(r.index)} WHERE ${and(r.where)} LIMIT ${sortMax + 1}))`,
  );
  const n = (i: number) => sql`(SELECT n FROM ${sql.raw(`range${i}`)})`;
  const keyBounds = (r: PatternRange, lower: SQL) => sql`${r.keyColumn} >= ${lower} AND ${r.keyColumn} < ${literal(prefixUpperBound(r.value)!)}`;
  // A range of at most sortMax matches, sorted (its key range is empty otherwise). Price: in USD, both currencies.
  const sorted = (key: SQL) =>
    ranges.map(
      (r, i) =>
        sql`SELECT ${c.id}, ${key} AS k FROM ${addresses} INDEXED BY ${sql.raw(r.index)} WHERE ${and([...r.filters, keyBounds(r, sql`(CASE WHEN ${n(i)} <= ${sortMax} THEN ${literal(r.value)} END)`)])}`,
    );
  // A larger range, walked in index order (its first character is NULL otherwise, which no entry has).
  // The price index orders by network and currency first: one walk per network there.
  const walked = (col: SQL, extra: SQL[]) =>
    ranges.flatMap((r, i) => {
      const walk = walkIndex(r, q);
      const perNetwork = q.sortBy === "price" && r.networks.length > 1 ? r.networks.map((net) => [sql`${c.network} = ${literal(net)}`]) : [[]];
      return perNetwork.map(
        // The seek first, then the rest of the key: SQLite tests a walk's conditions on every entry in the order
        // written, and the key rejects most entries of a long pattern's start (testing it first made the deepest
        // walks of 000000 about a third faster).
        (network) =>
          sql`SELECT ${c.id}, ${col} FROM ${addresses} INDEXED BY ${walk.index} WHERE ${and([
            sql`${walk.start} = (CASE WHEN ${n(i)} > ${sortMax} THEN ${literal(r.value.slice(0, KEY_START))} END)`,
            ...network,
            ...extra,
            keyBounds(r, literal(r.value)),
            ...r.filters,
          ])}`,
      );
    });
  const window = sql`LIMIT ${q.limit} OFFSET ${q.offset}`;
  let page: SQL;
  if (q.sortBy !== "price") {
    const col = q.sortBy === "rarity" ? c.rarityScore : c.createdAt;
    page = sql`SELECT id, k FROM (${unionAll([...sorted(col), ...walked(sql`${col} AS k`, [])])} ${order} ${window})`;
  } else {
    // The walks follow raw price units, one currency at a time: merged per currency, then in USD with the rest.
    const walks = CURRENCIES.map((currency) => {
      const rate = currency === "ETH" ? rates.ethPrice : rates.solPrice;
      return sql`SELECT * FROM (SELECT id, u * ${rate} AS k FROM (${unionAll(walked(sql`${c.priceUnits} AS u`, [sql`${c.currency} = ${literal(currency)}`]))} ${order} LIMIT ${q.offset + q.limit}))`;
    });
    page = sql`SELECT id, k FROM (${unionAll([...sorted(sortKey(q, rates)), ...walks])} ${order} ${window})`;
  }
  // The ranges are disjoint and each counted up to sortMax + 1 (more than the window): their sum is the exact
  // total up to the window, and past it says "more than the window".
  const total = sql.join(
    ranges.map((_, i) => n(i)),
    sql` + `,
  );
  return sql`WITH ${sql.join(counts, sql`, `)}, page AS (${page}), meta AS (SELECT ${total} AS total)
    SELECT meta.total AS _total, ${listingSelectList(a)}
    FROM meta LEFT JOIN page ON 1 LEFT JOIN ${addresses} ${a} ON ${a.id} = page.id
    ORDER BY page.k ${d}, page.id ${d}`;
}

/** The pattern as a per-row condition (for plans that walk a sort index instead). Null: matches nothing. */
export function patternPredicate(q: SearchQuery): SQL | null {
  const parts: SQL[] = [];
  for (const end of patternEnds(q)) {
    for (const b of keyBranches(q, end)) {
      const n = b.value.length;
      if (n === 0) parts.push(sql`${c.network} = ${b.network}`);
      else if (end === "prefix") parts.push(sql`(${c.network} = ${b.network} AND substr(${c.searchKey}, 1, ${n}) = ${b.value})`);
      else parts.push(sql`(${c.network} = ${b.network} AND substr(${c.searchKey}, ${-n}) = ${b.value})`);
    }
  }
  return parts.length === 0 ? null : or(parts);
}

/** The free text as a per-row condition. Null: matches nothing. */
export function textPredicate(q: SearchQuery): SQL | null {
  const parts = textBranches(q).map((b) =>
    b.network === "ethereum"
      ? sql`(${c.network} = 'ethereum' AND instr(lower(${c.address}), ${b.value}) > 0)`
      : sql`(${c.network} = 'solana' AND instr(${c.address}, ${b.value}) > 0)`,
  );
  return parts.length === 0 ? null : or(parts);
}

// Lower-case letters and digits: every character an address holds, with case folded as the trigram index does.
const FOLDED_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/**
 * Ids of listings whose address may contain the free text, from the trigram index (case folded; the plan's
 * row check then applies Solana's exact case), each once. Three characters or more: the phrase. Two: every
 * trigram that starts with them, plus, from the suffix index, the addresses that end with them and hold them
 * nowhere else (the one place no such trigram exists; "nowhere else" keeps the two parts disjoint, so they
 * stream as UNION ALL and the candidate cap stops the reading early).
 */
function textCandidates(q: SearchQuery): SQL {
  const text = q.text ?? "";
  // textBranches admitted only letters and digits, so neither form can carry FTS syntax.
  if (text.length >= 3) return sql`SELECT rowid AS id FROM addresses_fts WHERE addresses_fts MATCH ${`"${text}"`}`;
  const folded = text.toLowerCase();
  const trigrams = [...FOLDED_ALPHABET].map((c) => `"${folded}${c}"`).join(" OR ");
  const endings = textBranches(q).map((b) => {
    const rev = reverse(b.value);
    return sql`SELECT ${c.id} FROM ${addresses} INDEXED BY addresses_search_suffix WHERE ${and([
      visibility(q),
      sql`${c.network} = ${b.network}`,
      keyRange(c.searchKeyRev, rev),
      sql`instr(lower(substr(${c.searchKeyRev}, 2)), ${rev.toLowerCase()}) = 0`,
    ])}`;
  });
  return sql.join([sql`SELECT rowid AS id FROM addresses_fts WHERE addresses_fts MATCH ${trigrams}`, ...endings], sql` UNION ALL `);
}

const CURRENCIES = ["ETH", "SOL"] as const;
const dir = (q: SearchQuery) => sql.raw(q.sortOrder === "asc" ? "ASC" : "DESC");

/** The sort key of a row: price is 1e-8 units times the coin's current USD rate, so ETH and SOL compare by value. */
function sortKey(q: SearchQuery, rates: UsdRates): SQL {
  if (q.sortBy === "price") return sql`(${c.priceUnits} * (CASE ${c.currency} WHEN 'ETH' THEN ${rates.ethPrice} ELSE ${rates.solPrice} END))`;
  return q.sortBy === "rarity" ? c.rarityScore : c.createdAt;
}

/** `n`, or 0 unless `onlyIf` holds: SQLite ends a LIMIT 0 query before it reads anything. */
const limitUnless = (n: number, onlyIf?: SQL) => (onlyIf ? sql`(CASE WHEN ${onlyIf} THEN ${n} ELSE 0 END)` : sql`${n}`);

/**
 * (id, k) of the first `depth` browsable listings under the column filters, in the query's order, skipping
 * `skip` of them; nothing is read unless `onlyIf` holds. Only index entries are read (the filters are index
 * columns).
 *  - sort-index: one partial index per order; price merges one range per (network, currency), each cut at
 *    skip + depth, in USD at the current rate.
 *  - buckets: category and character-count filters correlate with every order (longer patterns are rarer and
 *    pricier), so the global order could skip most of a million entries before a page fills. Instead each
 *    (category, length) bucket under the filters is walked in its own ordered range, and the buckets merged.
 */
function orderedIds(q: SearchQuery, rates: UsdRates, walk: OrderWalk, buckets: BucketList | null, depth: number, skip: number, onlyIf?: SQL): SQL {
  const d = dir(q);
  const reach = skip + depth;
  if (walk === "buckets") {
    if (!buckets) throw new Error("a bucketed walk needs the bucket list");
    return bucketIds(q, rates, bucketsOf(q, buckets), reach, depth, skip, onlyIf);
  }
  const where = [visibility(q), ...columnFilters(q)];
  if (q.sortBy !== "price") {
    const index = sql.raw(q.sortBy === "rarity" ? "addresses_search_rarity" : "addresses_search_created");
    const col = sortKey(q, rates);
    return sql`SELECT ${c.id}, ${col} AS k FROM ${addresses} INDEXED BY ${index} WHERE ${and(where)} ORDER BY ${col} ${d}, ${c.id} ${d} LIMIT ${limitUnless(depth, onlyIf)} OFFSET ${skip}`;
  }
  const branches = networksOf(q).flatMap((network) =>
    CURRENCIES.map((currency) => {
      const rate = currency === "ETH" ? rates.ethPrice : rates.solPrice;
      const branchWhere = and([...where, sql`${c.network} = ${network}`, sql`${c.currency} = ${currency}`]);
      return sql`SELECT * FROM (SELECT ${c.id}, ${c.priceUnits} * ${rate} AS k FROM ${addresses} INDEXED BY addresses_search_price WHERE ${branchWhere} ORDER BY ${c.priceUnits} ${d}, ${c.id} ${d} LIMIT ${limitUnless(reach, onlyIf)})`;
    }),
  );
  return sql`SELECT id, k FROM (${sql.join(branches, sql` UNION ALL `)}) ORDER BY k ${d}, id ${d} LIMIT ${limitUnless(depth, onlyIf)} OFFSET ${skip}`;
}

/** D1 allows at most this many terms in one compound SELECT. */
const COMPOUND_MAX = 5;

/**
 * `arms` (each selecting id and one key column) as UNION ALL nested in groups of at most COMPOUND_MAX. SQLite
 * flattens the nesting back into one compound, so an ORDER BY over it still merges every arm lazily.
 */
function unionAll(arms: SQL[]): SQL {
  if (arms.length <= COMPOUND_MAX) return sql.join(arms, sql` UNION ALL `);
  const size = Math.ceil(arms.length / COMPOUND_MAX);
  const groups: SQL[] = [];
  for (let i = 0; i < arms.length; i += size) groups.push(sql`SELECT * FROM (${unionAll(arms.slice(i, i + size))})`);
  return sql.join(groups, sql` UNION ALL `);
}

/**
 * The per-bucket walks as one compound SELECT ordered by (k, id): each arm is an ordered range of a
 * (category, length, ...) index, so SQLite merges the arms lazily and reads about `reach` entries in all
 * instead of `reach` per bucket. Bucket values are inlined (see literal), so a wide filter's dozens of arms
 * stay within D1's 100 bound parameters. Price: arms are cut per currency in raw units (their index order),
 * then the currencies merged in USD at the current rate.
 */
function bucketIds(q: SearchQuery, rates: UsdRates, buckets: ListingBucket[], reach: number, depth: number, skip: number, onlyIf?: SQL): SQL {
  const d = dir(q);
  const order = sql`ORDER BY 2 ${d}, 1 ${d}`;
  const network = q.network ? [sql`${c.network} = ${literal(q.network)}`] : [];
  const arm = (index: string, col: SQL, cols: SQL[]) =>
    sql`SELECT ${c.id}, ${col} FROM ${addresses} INDEXED BY ${sql.raw(index)} WHERE ${and([visibility(q), ...network, ...cols])}`;
  const distinct = <T>(keys: T[]) => [...new Map(keys.map((k) => [JSON.stringify(k), k])).values()];
  if (q.sortBy !== "price") {
    const [index, col] =
      q.sortBy === "rarity" ? ["addresses_search_len_rarity", sql`${c.rarityScore} AS k`] : ["addresses_search_len_created", sql`${c.createdAt} AS k`];
    const arms = distinct(buckets.map((b) => [b.category, b.length] as const)).map(([cat, len]) =>
      arm(index, col, [sql`${c.category} = ${literal(cat)}`, sql`${c.patternLength} = ${literal(len)}`]),
    );
    if (arms.length === 0) return sql`SELECT NULL AS id, NULL AS k WHERE 0`;
    return sql`SELECT id, k FROM (${unionAll(arms)} ${order} LIMIT ${limitUnless(depth, onlyIf)} OFFSET ${skip})`;
  }
  const perCurrency = CURRENCIES.flatMap((currency) => {
    const arms = distinct(buckets.filter((b) => b.currency === currency).map((b) => [b.category, b.length, b.network] as const)).map(([cat, len, net]) =>
      arm("addresses_search_len_price", sql`${c.priceUnits} AS u`, [
        sql`${c.category} = ${literal(cat)}`,
        sql`${c.patternLength} = ${literal(len)}`,
        sql`${c.network} = ${literal(net)}`,
        sql`${c.currency} = ${literal(currency)}`,
      ]),
    );
    if (arms.length === 0) return [];
    const rate = currency === "ETH" ? rates.ethPrice : rates.solPrice;
    return [sql`SELECT id, u * ${rate} AS k FROM (${unionAll(arms)} ${order} LIMIT ${limitUnless(reach, onlyIf)})`];
  });
  if (perCurrency.length === 0) return sql`SELECT NULL AS id, NULL AS k WHERE 0`;
  return sql`SELECT id, k FROM (${sql.join(perCurrency, sql` UNION ALL `)} ${order} LIMIT ${limitUnless(depth, onlyIf)} OFFSET ${skip})`;
}

/** Per-row conditions of a text and/or pattern, on the addresses row (null: nothing can match). */
function matchPredicates(q: SearchQuery): SQL[] {
  return [...(q.text ? [textPredicate(q)!] : []), ...(q.pattern ? [patternPredicate(q)!] : [])];
}

/** A page's (id, k) joined back to the listing's columns, in page order. */
function withRows(page: SQL, q: SearchQuery): SQL {
  const d = dir(q);
  return sql`WITH page AS (${page}) SELECT ${listingSelectList(a)} FROM page JOIN ${addresses} ${a} ON ${a.id} = page.id ORDER BY page.k ${d}, page.id ${d}`;
}

/** Exact count of browsable listings under the column filters, from the trigger-kept listing_counts. */
function countsTableTotal(q: SearchQuery): SQL {
  const lc = bareColumns(listingCounts);
  const parts: SQL[] = [q.availableOnly ? sql`${lc.state} = 'available'` : sql`${lc.state} IN ('available', 'sold')`, ...columnFilters(q)];
  return sql`SELECT coalesce(sum(${lc.listings}), 0) AS n FROM ${listingCounts} WHERE ${and(parts)}`;
}

/**
 * One statement for the "candidates" and "scan" plans. `cand`: at most cap + 1 candidates; `hits`: those that
 * pass every condition, with their sort key (empty when over the cap); `scan`: the first `depth` listings of
 * the order (read only when over the cap), and `scanHits` those that match. The page comes from whichever is
 * filled. The result is the page's rows plus the totals, always at least one row so the totals arrive even
 * for an empty page.
 */
function matchStatement(plan: Extract<SearchPlan, { kind: "candidates" | "scan" }>, rates: UsdRates, buckets: BucketList | null): SQL {
  const { q, walk } = plan;
  const d = dir(q);
  const cap = plan.kind === "candidates" ? plan.cap : -1;
  const depth = plan.kind === "candidates" ? plan.scanDepth : plan.depth;
  const predicates = matchPredicates(q);
  const cand =
    plan.kind === "scan"
      ? sql`SELECT NULL AS id, NULL AS k WHERE 0`
      : plan.from === "pattern"
        ? patternCandidates(q, sortKey(q, rates))!
        : sql`SELECT id, NULL AS k FROM (${textCandidates(q)})`;
  // LIMIT -1 is no limit; LIMIT 0 ends the query before it reads anything.
  const underCap = sql`LIMIT (CASE WHEN (SELECT n FROM found) <= ${cap} THEN -1 ELSE 0 END)`;
  // Pattern candidates came from the covering index with every column filter applied: exact unless a text
  // also has to be checked on the row.
  const indexOnly = plan.kind === "candidates" && plan.from === "pattern" && !q.text;
  const hits = indexOnly
    ? sql`SELECT id, k FROM cand ${underCap}`
    : sql`SELECT ${a.id}, ${sortKey(q, rates)} AS k FROM cand JOIN ${addresses} AS ${a} NOT INDEXED ON ${a.id} = cand.id
          WHERE ${and([visibility(q), ...columnFilters(q), ...predicates])} ${underCap}`;
  const overCap = sql`(SELECT n FROM found) > ${cap}`;
  return sql`
    WITH cand AS MATERIALIZED (SELECT * FROM (${cand}) LIMIT ${cap + 1}),
    found AS (SELECT count(*) AS n FROM cand),
    hits AS MATERIALIZED (${hits}),
    scan AS MATERIALIZED (${orderedIds(q, rates, walk, buckets, depth, 0, overCap)}),
    scan_hits AS MATERIALIZED (SELECT scan.id, scan.k FROM scan JOIN ${addresses} AS ${a} NOT INDEXED ON ${a.id} = scan.id WHERE ${and(predicates)}),
    matched AS (SELECT id, k FROM hits UNION ALL SELECT id, k FROM scan_hits),
    page AS (SELECT id, k FROM matched ORDER BY k ${d}, id ${d} LIMIT ${q.limit} OFFSET ${q.offset}),
    meta AS (SELECT (SELECT count(*) FROM matched) AS total, (SELECT n FROM found) AS found, (SELECT count(*) FROM scan) AS scanned)
    SELECT meta.total AS _total, meta.found AS _found, meta.scanned AS _scanned, ${listingSelectList(a)}
    FROM meta LEFT JOIN page ON 1 LEFT JOIN ${addresses} ${a} ON ${a.id} = page.id
    ORDER BY page.k ${d}, page.id ${d}`;
}

/** What search.ts runs for a plan: a page and a count (one batch), or one statement carrying both. */
export type PlanSql =
  | { kind: "page-and-count"; page: SQL; count: SQL }
  | { kind: "page-with-total"; statement: SQL; countCap: number }
  | { kind: "matches"; statement: SQL; cap: number; depth: number }
  | { kind: "nothing" };

/** Whether a plan's SQL names the (category, length) buckets: search.ts then passes the list and checks it. */
export const needsBuckets = (plan: SearchPlan): boolean => "walk" in plan && plan.walk === "buckets";

export function planSql(plan: SearchPlan, rates: UsdRates, buckets: BucketList | null = null): PlanSql {
  switch (plan.kind) {
    case "nothing":
      return { kind: "nothing" };
    case "ordered":
      return {
        kind: "page-and-count",
        page: withRows(orderedIds(plan.q, rates, plan.walk, buckets, plan.q.limit, plan.q.offset), plan.q),
        count: countsTableTotal(plan.q),
      };
    case "pattern-walk":
      return { kind: "page-with-total", statement: patternWalkPage(plan.q, rates, plan.sortMax), countCap: MAX_RESULT_WINDOW };
    case "candidates":
      return { kind: "matches", statement: matchStatement(plan, rates, buckets), cap: plan.cap, depth: plan.scanDepth };
    case "scan":
      return { kind: "matches", statement: matchStatement(plan, rates, buckets), cap: -1, depth: plan.depth };
  }
}
