// The home page's figures (README "Browse API" defines each).
import { sql } from "drizzle-orm";
import { BROWSABLE_SQL } from "../../schema/db";
import type { MarketStats } from "../../schema/browse";
import { type Db, batchAll } from "../db";
import { type Currency, round8, unitsToEth, type UsdRates } from "../domain/prices";

/**
 * "Active users" are wallets that did something in this window: put up a listing that is still browsable, or
 * bought or sold in a completed purchase. Signing in is not enough: anyone can sign in with throwaway wallets.
 */
export const ACTIVE_USER_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

type Sums = { currency: Currency; n: number; units: number };

export async function marketStats(db: Db, rates: UsdRates, now: number): Promise<MarketStats> {
  const since = now - ACTIVE_USER_WINDOW_MS;
  const [listed, volume, users] = await batchAll<[Sums[], Sums[], { n: number }[]]>(db, [
    // Trigger-kept sums: no scan of the listings.
    sql`SELECT currency, sum(listings) AS n, total(price_units) AS units FROM listing_counts WHERE state = 'available' GROUP BY currency`,
    sql`SELECT currency, count(*) AS n, total(total_units) AS units FROM transactions WHERE status = 'completed' AND is_test_data = 0 GROUP BY currency`,
    sql`
      SELECT count(*) AS n FROM (
        SELECT seller_id AS u FROM addresses WHERE ${sql.raw(BROWSABLE_SQL)} AND created_at >= ${since} AND seller_id IS NOT NULL
        UNION SELECT buyer_id FROM transactions WHERE status = 'completed' AND created_at >= ${since} AND buyer_id IS NOT NULL AND is_test_data = 0
        UNION SELECT seller_id FROM transactions WHERE status = 'completed' AND created_at >= ${since} AND seller_id IS NOT NULL AND is_test_data = 0
      )`,
  ]);
  const inEth = (rows: Sums[]) => rows.reduce((sum, r) => sum + unitsToEth(Number(r.units), r.currency, rates), 0);
  const totalAddresses = listed.reduce((sum, r) => sum + Number(r.n), 0);
  return {
    totalAddresses,
    totalVolume: round8(inEth(volume)),
    activeUsers: Number(users[0]?.n ?? 0),
    avgPrice: totalAddresses === 0 ? 0 : round8(inEth(listed) / totalAddresses),
  };
}
