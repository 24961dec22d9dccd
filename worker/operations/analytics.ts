// Admin > Analytics as services. Each figure reads the table the spec made for it, filled by the
// code that already writes it: sales_analytics (settle.ts; migration 0018 backfills completed purchases from
// before it), transactions, transaction_audit (key_revealed), custom_orders, addresses, listing_promotions.
// Every query is bounded by the period and walks an index (docs/benchmarks.md "Analytics").
import { onMarket } from "../listings/status-sql";
import { and, count, desc, eq, gte, inArray, sql } from "drizzle-orm";
import type { AnalyticsResponse } from "../../schema/analytics";
import { CARD_TIERS } from "../../schema/rarity-scales";
import {
  addresses,
  BROWSABLE_SQL,
  customOrders,
  gasEstimationAudit,
  listingPromotions,
  NETWORKS,
  type Network,
  salesAnalytics,
  transactionAudit,
  transactions,
} from "../../schema/db";
import { unitsToDecimal } from "../../schema/money";
import type { Db } from "../db/database";
import { statusIs } from "../purchases/status-sql";
import { currencyOf } from "../../schema/network";

/** The depth-to-release percentiles are taken over at most this many (the newest) releases of the period. */
export const RELEASE_SAMPLE = 10_000;
const DAY_MS = 86_400_000;
const sa = salesAnalytics;
const t = transactions;

export async function salesByDay(db: Db, since: number): Promise<AnalyticsResponse["salesByDay"]> {
  // The divisor inlined, not bound: the GROUP BY and ORDER BY must be the very expression the SELECT computes, or
  // SQLite sorts twice (850 ms against 120 ms over 100,000 sales; bench:analytics).
  const day = sql<number>`(${sa.saleDate} / ${sql.raw(String(DAY_MS))})`;
  const rows = await db
    .select({ day, network: sa.network, sales: count(), volumeUnits: sql<number>`sum(${t.priceUnits})` })
    .from(sa)
    .innerJoin(t, eq(t.id, sa.transactionId))
    .where(and(inArray(sa.network, [...NETWORKS]), gte(sa.saleDate, since)))
    .groupBy(day, sa.network)
    .orderBy(day, sa.network);
  return rows.map((r) => ({
    day: new Date(r.day * DAY_MS).toISOString().slice(0, 10),
    network: r.network,
    sales: r.sales,
    volume: unitsToDecimal(BigInt(r.volumeUnits)),
    currency: currencyOf(r.network),
  }));
}

export async function averagePrice(db: Db, since: number): Promise<AnalyticsResponse["averagePrice"]> {
  const a = addresses;
  const rows = await db
    .select({ network: sa.network, category: a.category, patternLength: a.patternLength, sales: count(), sumUnits: sql<number>`sum(${t.priceUnits})` })
    .from(sa)
    .innerJoin(t, eq(t.id, sa.transactionId))
    .innerJoin(a, eq(a.id, sa.addressId))
    .where(and(inArray(sa.network, [...NETWORKS]), gte(sa.saleDate, since)))
    .groupBy(sa.network, a.category, a.patternLength)
    .orderBy(sa.network, a.category, a.patternLength);
  return rows.map((r) => ({
    network: r.network,
    category: r.category,
    patternLength: r.patternLength,
    sales: r.sales,
    // Exact: a bigint division of the exact sum, rounded down to a 1e-8 unit.
    averagePrice: unitsToDecimal(BigInt(r.sumUnits) / BigInt(r.sales)),
    currency: currencyOf(r.network),
  }));
}

export async function reservationOutcomes(db: Db, since: number): Promise<AnalyticsResponse["reservationOutcomes"]> {
  const rows = await db
    .select({ status: t.status, reason: t.failureReason, n: count() })
    .from(t)
    .where(gte(t.createdAt, since))
    .groupBy(t.status, t.failureReason);
  const outcomes = new Map<string, AnalyticsResponse["reservationOutcomes"][number]>();
  for (const r of rows) {
    const outcome = r.status === "completed" ? "sold" : r.status === "cancelled" || r.status === "expired" || r.status === "failed" ? r.status : "open";
    const reason = outcome === "failed" ? (r.reason ?? "unknown") : null;
    const key = `${outcome}:${reason}`;
    const entry = outcomes.get(key) ?? { outcome, reason, count: 0 };
    entry.count += r.n;
    outcomes.set(key, entry);
  }
  const order = ["sold", "cancelled", "expired", "failed", "open"];
  return [...outcomes.values()].sort((x, y) => order.indexOf(x.outcome) - order.indexOf(y.outcome) || y.count - x.count);
}

/** p-th percentile (nearest rank) of ascending values. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export async function depthToRelease(db: Db, since: number): Promise<AnalyticsResponse["depthToRelease"]> {
  const ta = transactionAudit;
  // The first release of each purchase completed in the period.
  const firstRelease = sql<number>`min(${ta.timestamp})`;
  const rows = await db
    .select({ waitMs: sql<number>`${firstRelease} - ${t.completedAt}` })
    .from(ta)
    .innerJoin(t, eq(t.id, ta.transactionId))
    .where(and(eq(ta.action, "key_revealed"), gte(ta.timestamp, since), statusIs(t.status, "completed")))
    .groupBy(ta.transactionId)
    .orderBy(desc(firstRelease))
    .limit(RELEASE_SAMPLE);
  const waits = rows.map((r) => Math.max(0, r.waitMs) / 1000).sort((x, y) => x - y);
  return { releases: waits.length, p50Seconds: percentile(waits, 50), p95Seconds: percentile(waits, 95) };
}

export async function customOrdersByState(db: Db, since: number): Promise<AnalyticsResponse["customOrders"]> {
  const co = customOrders;
  const rows = await db.select({ status: co.status, count: count() }).from(co).where(gte(co.createdAt, since)).groupBy(co.status).orderBy(co.status);
  return rows;
}

/** The index supplyByTier scans (schema/db/listings.ts). */
export const SUPPLY_INDEX = "addresses_search_rarity";

export async function supplyByTier(db: Db): Promise<AnalyticsResponse["supplyByTier"]> {
  const a = addresses;
  const tier = sql<string>`CASE ${sql.join(
    CARD_TIERS.filter((r) => Number.isFinite(r.min)).map((r) => sql`WHEN ${a.rarityScore} >= ${r.min} THEN ${r.label}`),
    sql` `,
  )} ELSE ${CARD_TIERS[CARD_TIERS.length - 1].label} END`;
  // One pass over the partial covering index addresses_search_rarity (rarity_score, id, network, ..., status,
  // is_listed; WHERE BROWSABLE_SQL), named because SQLite's planner otherwise takes addresses_browse_created for
  // the status term and reads every row (2 s at a million listings, 8-10 s per network; bench:analytics). The
  // unary + keeps the status and is_listed terms from steering it back.
  const rows = await db.all<{ network: Network; tier: string; listings: number }>(sql`
    SELECT ${a.network} AS network, ${tier} AS tier, count(*) AS listings
    FROM ${a} INDEXED BY ${sql.identifier(SUPPLY_INDEX)}
    WHERE ${sql.raw(BROWSABLE_SQL)} AND ${onMarket({ status: sql`+${a.status}`, isListed: sql`+${a.isListed}` })}
    GROUP BY 1, 2`);
  const perNetwork = [rows];
  const rank = (name: string) => CARD_TIERS.findIndex((r) => r.label === name);
  return perNetwork.flat().sort((x, y) => rank(x.tier) - rank(y.tier) || x.network.localeCompare(y.network));
}

export async function gasAccuracy(db: Db, since: number): Promise<AnalyticsResponse["gasAccuracy"]> {
  const g = gasEstimationAudit;
  const rows = await db
    .select({ network: g.network, payments: count(), averageAccuracy: sql<number | null>`round(avg(${g.accuracy}), 4)` })
    .from(g)
    .where(and(gte(g.createdAt, since), eq(g.success, true)))
    .groupBy(g.network)
    .orderBy(g.network);
  return rows.filter((r): r is typeof r & { network: Network } => r.network !== null);
}

export async function promotionsByType(db: Db, since: number): Promise<AnalyticsResponse["promotions"]> {
  const lp = listingPromotions;
  return db
    .select({ promotionType: lp.promotionType, count: count() })
    .from(lp)
    .where(gte(lp.startTime, since))
    .groupBy(lp.promotionType)
    .orderBy(lp.promotionType);
}

export async function analytics(db: Db, days: number, now: number): Promise<AnalyticsResponse> {
  const since = now - days * DAY_MS;
  const [sales, avg, outcomes, release, orders, supply, promotions, gas] = await Promise.all([
    salesByDay(db, since),
    averagePrice(db, since),
    reservationOutcomes(db, since),
    depthToRelease(db, since),
    customOrdersByState(db, since),
    supplyByTier(db),
    promotionsByType(db, since),
    gasAccuracy(db, since),
  ]);
  return {
    period: { days, from: new Date(since).toISOString(), to: new Date(now).toISOString() },
    salesByDay: sales,
    averagePrice: avg,
    reservationOutcomes: outcomes,
    depthToRelease: release,
    customOrders: orders,
    supplyByTier: supply,
    gasAccuracy: gas,
    promotions,
  };
}
