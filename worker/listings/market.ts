// The home page's figures (docs/listings.md#market-stats defines each).
import { and, count, eq, gte, isNotNull, sql } from "drizzle-orm";
import { addresses, BROWSABLE_SQL, listingCounts, transactions } from "../../schema/db";
import type { MarketStats } from "../../schema/browse";
import type { Db } from "../db/database";
import { type Currency, round8, unitsToEth, type UsdRates } from "../domain/prices";
import { marketSale } from "../purchases/market-sale";

/**
 * "Active users" are wallets that did something in this window: put up a listing that is still browsable, or
 * bought or sold in a completed purchase. Signing in is not enough: anyone can sign in with throwaway wallets.
 */
export const ACTIVE_USER_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

type Sums = { currency: Currency; n: number; units: number };

export async function marketStats(db: Db, rates: UsdRates, now: number): Promise<MarketStats> {
  const since = now - ACTIVE_USER_WINDOW_MS;
  const lc = listingCounts;
  const t = transactions;
  const a = addresses;
  const sold = marketSale(t);
  const [listed, volume, users] = await db.batch([
    // Trigger-kept sums: no scan of the listings.
    db
      .select({ currency: lc.currency, n: sql<number>`sum(${lc.listings})`, units: sql<number>`total(${lc.priceUnits})` })
      .from(lc)
      .where(eq(lc.state, "available"))
      .groupBy(lc.currency),
    db
      .select({ currency: t.currency, n: count(), units: sql<number>`total(${t.totalUnits})` })
      .from(t)
      .where(sold)
      .groupBy(t.currency),
    db.select({ n: count() }).from(
      db
        .select({ u: a.sellerId })
        .from(a)
        .where(and(sql.raw(BROWSABLE_SQL), gte(a.createdAt, since), isNotNull(a.sellerId)))
        .union(
          db
            .select({ u: t.buyerId })
            .from(t)
            .where(and(marketSale(t), gte(t.createdAt, since), isNotNull(t.buyerId))),
        )
        .union(
          db
            .select({ u: t.sellerId })
            .from(t)
            .where(and(marketSale(t), gte(t.createdAt, since), isNotNull(t.sellerId))),
        )
        .as("active"),
    ),
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
