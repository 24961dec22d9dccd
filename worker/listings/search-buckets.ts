// Which (category, pattern length) buckets hold browsable listings, as this Worker isolate last saw them.
//
// Filtered searches walk their order inside each bucket and merge the buckets (search-sql.ts), and SQLite
// merges lazily only when every bucket is its own arm of one compound SELECT, so the statement must name the
// buckets. Asking for them first would cost a D1 round trip per search; instead an isolate keeps the list it
// last read, and every search that used it reads the current list in the same batch (one transaction, a few
// hundred listing_counts rows). When they differ (a first listing of a new length, the last of one sold) the
// search runs again with the fresh list, so a stale list costs one extra round trip, never a wrong answer.
import { sql } from "drizzle-orm";
import { listingCounts } from "../../schema/db";
import type { Db } from "../db/database";
import type { SearchQuery } from "./search-params";

export type Currency = "ETH" | "SOL";
export type ListingBucket = { available: boolean; network: string; currency: Currency; category: string; length: number };
/** `key` is the list as listing_counts spelled it: two lists are the same exactly when their keys are. */
export type BucketList = { key: string; buckets: ListingBucket[] };

/**
 * Every non-empty listing_counts row, in a fixed order, as one string (fields split by char(31), rows by
 * char(30): no category can break the parsing).
 */
const lc = listingCounts;
export const bucketListSql = sql`SELECT coalesce(group_concat(b, char(30)), '') AS list FROM (
  SELECT ${lc.state} || char(31) || ${lc.network} || char(31) || ${lc.currency} || char(31) || ${lc.category} || char(31) || ${lc.patternLength} AS b
  FROM ${lc} WHERE ${lc.listings} > 0 ORDER BY b)`;

/**
 * The list from bucketListSql's answer. The search writes bucket values into its SQL as escaped literals
 * (search-sql.ts literal), so any category a row holds is kept: a listing in a category this code does not
 * know still appears under character-count filters. Rows in a currency the price order has no rate for are
 * left out, as the unfiltered price order leaves them out.
 */
export function parseBucketList(list: string): BucketList {
  const buckets: ListingBucket[] = [];
  for (const row of list ? list.split("\u001e") : []) {
    const [state, network, currency, category, length] = row.split("\u001f");
    const n = Number(length);
    if ((state !== "available" && state !== "sold") || (currency !== "ETH" && currency !== "SOL") || !category || !Number.isSafeInteger(n)) continue;
    buckets.push({ available: state === "available", network, currency, category, length: n });
  }
  return { key: list, buckets };
}

let known: BucketList | null = null;

/** The list this isolate last saw, or a fresh read when it has none. */
export async function knownBuckets(db: Db): Promise<BucketList> {
  if (known) return known;
  const [row] = await db.all<{ list: string }>(bucketListSql);
  known = parseBucketList(row?.list ?? "");
  return known;
}

/** Keeps the list a search just read. */
export function rememberBuckets(list: BucketList) {
  known = list;
}

/** The buckets a query's filters select (state, network, category, pattern length). */
export function bucketsOf(q: SearchQuery, list: BucketList): ListingBucket[] {
  return list.buckets.filter(
    (b) =>
      (b.available || !q.availableOnly) &&
      (!q.network || b.network === q.network) &&
      (!q.category || b.category === q.category) &&
      (q.minLength === null || b.length >= q.minLength) &&
      (q.maxLength === null || b.length <= q.maxLength),
  );
}
