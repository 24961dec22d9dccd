// market_trends, recomputed by the cron job: per network and category, the listed supply and the last
// 24 hours of sales. The rows of the "24h" period are replaced in one batch, so a reader (or an overlapping
// run) sees either the old set or the new one. Analytics only: no amount here is paid or compared.
import { sql } from "drizzle-orm";
import { type Db, writeBatch } from "../db";

const DAY_MS = 24 * 60 * 60_000;
const decimal = (expr: string) => sql.raw(`CASE WHEN ${expr} IS NULL THEN NULL ELSE rtrim(rtrim(printf('%.8f', (${expr}) / 1e8), '0'), '.') END`);

export async function recomputeMarketTrends(db: Db, now = Date.now()): Promise<number> {
  const since = now - DAY_MS;
  const [, inserted] = await writeBatch(db, [
    sql`DELETE FROM market_trends WHERE period = '24h'`,
    sql`
      INSERT INTO market_trends (category, network, avg_price, min_price, max_price, total_volume, active_listings, sold_count, period, created_at)
      SELECT a.category, a.network,
             ${decimal("avg(CASE WHEN a.status = 'active' AND a.is_listed = 1 THEN a.price_units END)")},
             ${decimal("min(CASE WHEN a.status = 'active' AND a.is_listed = 1 THEN a.price_units END)")},
             ${decimal("max(CASE WHEN a.status = 'active' AND a.is_listed = 1 THEN a.price_units END)")},
             ${decimal("coalesce(sum(s.units), 0)")},
             sum(CASE WHEN a.status = 'active' AND a.is_listed = 1 THEN 1 ELSE 0 END),
             count(s.units), '24h', ${now}
      FROM addresses a
      LEFT JOIN (SELECT address_id, price_units AS units FROM transactions WHERE status = 'completed' AND completed_at >= ${since}) s ON s.address_id = a.id
      WHERE a.status != 'deleted'
      GROUP BY a.network, a.category`,
  ]);
  return inserted.meta.changes ?? 0;
}
