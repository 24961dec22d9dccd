// The benchmark's baseline: the same search done the obvious way on an index-free copy of the listings
// (bench-only table addresses_naive): LIKE '%…%' for text and patterns, ORDER BY on computed values, OFFSET
// for paging, COUNT(*) for the total. Same parameters, same validation and the same response as the real
// route, so the two differ only in how they query. Never part of the production Worker.
import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { Hono } from "hono";
import { addresses } from "../../schema/db";
import { getUsdPrices } from "../../worker/prices/price-feed";
import { validate } from "../../worker/http/validate";
import { decodeListing, listingSelectList, toListingView } from "../../worker/listings/listing-view";
import { batchAll } from "../../worker/db/database";
import { searchQuerySchema, type SearchQuery } from "../../worker/listings/search-params";
import { paginate } from "../../worker/listings/search";
import type { AppEnv } from "../../worker/types";

export const NAIVE_TABLE = "addresses_naive";
/** The copy's columns are the listings' own: its rows select through the same list. */
const naive = alias(addresses, NAIVE_TABLE);

const like = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

// Same meaning as the real search (Ethereum case-insensitive, Solana exact), computed row by row.
function textMatch(t: string): SQL {
  return sql`((network = 'ethereum' AND lower(address) LIKE ${`%${like(t.toLowerCase())}%`} ESCAPE '\\') OR (network = 'solana' AND instr(address, ${t}) > 0))`;
}

function patternMatch(v: string, end: "prefix" | "suffix"): SQL {
  const eth = like(v.toLowerCase());
  if (end === "prefix") {
    const ethPrefix = eth.startsWith("0x") ? eth.slice(2) : eth;
    return sql`((network = 'ethereum' AND lower(address) LIKE ${`0x${ethPrefix}%`} ESCAPE '\\') OR (network = 'solana' AND substr(address, 1, ${v.length}) = ${v}))`;
  }
  return sql`((network = 'ethereum' AND lower(address) LIKE ${`%${eth}`} ESCAPE '\\') OR (network = 'solana' AND substr(address, ${-v.length}) = ${v}))`;
}

function where(q: SearchQuery): SQL {
  const parts: SQL[] = [q.availableOnly ? sql`status = 'active' AND is_listed = 1` : sql`(status = 'sold' OR (status = 'active' AND is_listed = 1))`];
  if (q.network) parts.push(sql`network = ${q.network}`);
  if (q.category) parts.push(sql`category = ${q.category}`);
  if (q.minLength !== null) parts.push(sql`pattern_length >= ${q.minLength}`);
  if (q.maxLength !== null) parts.push(sql`pattern_length <= ${q.maxLength}`);
  if (q.text) parts.push(textMatch(q.text));
  if (q.pattern) {
    const { mode, value } = q.pattern;
    parts.push(mode === "either" ? sql`(${patternMatch(value, "prefix")} OR ${patternMatch(value, "suffix")})` : patternMatch(value, mode));
  }
  return sql.join(parts, sql` AND `);
}

export const naiveSearchRoutes = new Hono<AppEnv>().get("/", validate("query", searchQuerySchema), async (c) => {
  const q = c.req.valid("query");
  const rates = await getUsdPrices(c.env);
  const dir = sql.raw(q.sortOrder === "asc" ? "ASC" : "DESC");
  const key =
    q.sortBy === "price"
      ? sql`price_units * (CASE currency WHEN 'ETH' THEN ${rates.ethPrice} ELSE ${rates.solPrice} END)`
      : sql.raw(q.sortBy === "rarity" ? "rarity_score" : "created_at");
  const table = sql.raw(NAIVE_TABLE);
  const [rows, count] = await batchAll<[Record<string, unknown>[], { n: number }[]]>(c.var.db, [
    sql`SELECT ${listingSelectList(naive)} FROM ${table} WHERE ${where(q)} ORDER BY ${key} ${dir}, id ${dir} LIMIT ${q.limit} OFFSET ${q.offset}`,
    sql`SELECT count(*) AS n FROM ${table} WHERE ${where(q)}`,
  ]);
  return c.json({
    addresses: rows.map((row) => toListingView(decodeListing(row), rates, null, null)),
    pagination: paginate(q.offset, q.limit, Number(count[0]?.n ?? 0), true),
  });
});
