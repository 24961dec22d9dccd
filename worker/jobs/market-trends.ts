// market_trends, recomputed by the cron job: per network and category, the listed supply and the last
// 24 hours of market sales. The rows of the "24h" period are replaced in one batch, so a reader (or an overlapping
// run) sees either the old set or the new one. Analytics only: no amount here is paid or compared.
import { eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { addresses, marketTrends, transactions } from "../../schema/db";
import { LISTING_KEPT } from "../../schema/listing-lifecycle";
import { columnList, type Db, writeBatch } from "../db/database";
import { listingStatusIn, onMarket } from "../listings/status-sql";
import { marketSale } from "../purchases/market-sale";

const DAY_MS = 24 * 60 * 60_000;
const decimal = (expr: SQL) => sql`CASE WHEN ${expr} IS NULL THEN NULL ELSE rtrim(rtrim(printf('%.8f', (${expr}) / 1e8), '0'), '.') END`;
const a = alias(addresses, "a");
const t = transactions;
const m = marketTrends;

export async function recomputeMarketTrends(db: Db, now = Date.now()): Promise<number> {
  const since = now - DAY_MS;
  /** The listing is for sale. */
  const listed = onMarket(a);
  const [, inserted] = await writeBatch(db, [
    db.delete(m).where(eq(m.period, "24h")),
    sql`
      INSERT INTO ${m} ${columnList(m.category, m.network, m.avgPrice, m.minPrice, m.maxPrice, m.totalVolume, m.activeListings, m.soldCount, m.period, m.createdAt)}
      SELECT ${a.category}, ${a.network},
             ${decimal(sql`avg(CASE WHEN ${listed} THEN ${a.priceUnits} END)`)},
             ${decimal(sql`min(CASE WHEN ${listed} THEN ${a.priceUnits} END)`)},
             ${decimal(sql`max(CASE WHEN ${listed} THEN ${a.priceUnits} END)`)},
             ${decimal(sql`coalesce(sum(s.units), 0)`)},
             sum(CASE WHEN ${listed} THEN 1 ELSE 0 END),
             count(s.units), '24h', ${now}
      FROM ${addresses} ${a}
      LEFT JOIN (SELECT ${t.addressId}, ${t.priceUnits} AS units FROM ${t} WHERE ${marketSale(t)} AND ${t.completedAt} >= ${since}) s ON s.address_id = ${a.id}
      WHERE ${listingStatusIn(a.status, LISTING_KEPT)}
      GROUP BY ${a.network}, ${a.category}`,
  ]);
  return inserted.meta.changes ?? 0;
}
