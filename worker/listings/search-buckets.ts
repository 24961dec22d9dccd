// Which (category, pattern length) buckets hold browsable listings, as this Worker isolate last saw them.
//
// Filtered searches walk their order inside each bucket and merge the buckets (search-sql.ts), and SQLite
// merges lazily only when every bucket is its own arm of one compound SELECT, so the statement must name the
// buckets. Asking for them first would cost a D1 round trip per search; instead an isolate keeps the list it
// last read, and every search that used it reads the current list in the same batch (one transaction, a few
// hundred listing_counts rows). When they differ (a first listing of a new length, the last of one sold) the
// search runs again with the fresh list, so a stale list costs one extra round trip, never a wrong answer.
import { sql } from "drizzle-orm";
import { CATEGORIES, NETWORKS, type Network } from "../../schema/db";
import type { Db } from "../db";
import type { SearchQuery } from "./search-params";

export type Currency = "ETH" | "SOL";
export type ListingBucket = { available: boolean; network: Network; currency: Currency; category: (typeof CATEGORIES)[number]; length: number };
/** `key` is the list as listing_counts spelled it: two lists are the same exactly when their keys are. */
export type BucketList = { key: string; buckets: ListingBucket[] };

/** Every non-empty listing_counts row, in a fixed order, as one string. */
export const bucketListSql = sql`SELECT coalesce(group_concat(b, ';'), '') AS list FROM (
  SELECT state || ',' || network || ',' || currency || ',' || category || ',' || pattern_length AS b
  FROM listing_counts WHERE listings > 0 ORDER BY b)`;

const isCategory = (s: string): s is ListingBucket["category"] => (CATEGORIES as readonly string[]).includes(s);
const isNetwork = (s: string): s is Network => (NETWORKS as readonly string[]).includes(s);

/**
 * The list from bucketListSql's answer. Rows outside the known categories, networks and currencies are left
 * out: the search inlines bucket values into its SQL (D1 allows 100 bound parameters, fewer than a wide filter
 * has buckets), so only values from those fixed sets may reach it, and the listing columns hold no others.
 */
export function parseBucketList(list: string): BucketList {
  const buckets: ListingBucket[] = [];
  for (const row of list ? list.split(";") : []) {
    const [state, network, currency, category, length] = row.split(",");
    const n = Number(length);
    if ((state !== "available" && state !== "sold") || !isNetwork(network) || (currency !== "ETH" && currency !== "SOL") || !isCategory(category) || !Number.isSafeInteger(n) || n < 0) continue;
    buckets.push({ available: state === "available", network, currency, category, length: n });
  }
  return { key: list, buckets };
}

let known: BucketList | null = null;

/** Tests: start from nothing known. */
export function forgetBuckets() {
  known = null;
}

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
