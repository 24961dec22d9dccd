// The listing page's explanation of a purchase (schema/listing-context.ts), served by
// GET /api/addresses/{id}/context: difficulty in attempts and time, estimated value, price history,
// comparable listings and recent sales of the same kind. Each read is one indexed query; none reads key
// material or a seller's wallet.
import { and, desc, eq, ne, sql } from "drizzle-orm";
import { addresses, BROWSABLE_SQL, type Network, priceHistory, transactions } from "../../schema/db";
import { COMPARABLES_LIMIT, type ListingContext, PRICE_HISTORY_LIMIT, RECENT_SALES_LIMIT } from "../../schema/listing-context";
import type { Db } from "../db/database";
import { formatUsd, type UsdRates, usdValue } from "../domain/prices";
import { difficultyFromLog2, estimateValue, expectedTimeSeconds, REFERENCE_RATES } from "../domain/rarity";
import { lastPublicSaleOf, saleDay } from "../purchases/transaction-list";
import { valueCalibration } from "./address-check";
import { type ListingRow, listingColumns, toListingViews } from "./listing-view";
import { marketSale } from "../purchases/market-sale";
import { listingTo } from "../../schema/listing-lifecycle";
import { onMarket } from "./status-sql";

/** Everything the listing page explains about `row`, priced at `rates`; `viewer` marks their own comparables. */
export async function listingContext(db: Db, row: ListingRow, rates: UsdRates, viewer: number | null): Promise<ListingContext> {
  const kind = { id: row.id, network: row.network, category: row.category, patternLength: row.patternLength, rarityScore: row.rarityScore };
  const [log2, history, comparables, sales, calibration, sale] = await Promise.all([
    difficultyLog2Of(db, row.id),
    priceHistoryOf(db, row.id, PRICE_HISTORY_LIMIT),
    comparableListings(db, kind, COMPARABLES_LIMIT),
    recentSalesLike(db, kind, RECENT_SALES_LIMIT),
    valueCalibration(db, row.network, row.category, row.patternLength),
    row.status === listingTo("sell") ? lastPublicSaleOf(db, row.id) : null,
  ]);
  const difficulty = difficultyFromLog2(log2);
  const reference = REFERENCE_RATES[row.network];
  const estimate = estimateValue(log2, row.network, calibration.multiplier);
  return {
    listingId: row.id,
    difficulty: {
      log2,
      attempts: difficulty.attempts,
      hexCharacters: log2 / 4,
      cpuCoreSeconds: expectedTimeSeconds(difficulty.attempts, reference.cpuCore),
      gpuSeconds: expectedTimeSeconds(difficulty.attempts, reference.gpu),
      referenceRates: { cpuCore: reference.cpuCore, gpu: reference.gpu },
    },
    estimatedValue: {
      amount: estimate,
      currency: row.currency,
      usd: usdValue(estimate, row.currency, rates),
      formattedUsd: formatUsd(estimate, row.currency, rates),
      basedOnSales: calibration.sales,
    },
    priceHistory: history.map((h) => ({
      price: h.price,
      currency: h.currency,
      usd: usdValue(h.price, h.currency, rates),
      changeType: h.changeType,
      // A sale's row says its day alone, as every public sale does (docs/public-surface.md#what-a-public-sale-shows).
      at: h.changeType === "sale" ? `${saleDay(h.createdAt)}T00:00:00.000Z` : new Date(h.createdAt).toISOString(),
    })),
    comparables: await toListingViews(db, comparables, rates, viewer),
    recentSales: sales.map((s) => ({
      listingId: s.listingId,
      address: s.address,
      network: s.network,
      price: s.price,
      currency: s.currency,
      formattedUsd: formatUsd(s.price, s.currency, rates),
      soldAt: saleDay(s.soldAt),
    })),
    ownershipProvedAt: new Date(row.createdAt).toISOString(),
    sale,
  };
}

export type ListingKind = { id: number; network: Network; category: string; patternLength: number; rarityScore: number };

/** The latest `limit` price changes of a listing, oldest first (price_history_address index). */
export async function priceHistoryOf(db: Db, addressId: number, limit: number) {
  const h = priceHistory;
  const rows = await db
    .select({ price: h.price, currency: h.currency, changeType: h.changeType, createdAt: h.createdAt })
    .from(h)
    .where(eq(h.addressId, addressId))
    .orderBy(desc(h.createdAt), desc(h.id))
    .limit(limit);
  return rows.reverse();
}

/**
 * Buyable listings of the same network, category and pattern length, closest in rarity first. The
 * BROWSABLE_SQL term lets the partial (category, pattern_length, rarity_score, ...) search index serve it.
 */
export function comparableListings(db: Db, kind: ListingKind, limit: number): Promise<ListingRow[]> {
  const a = addresses;
  return db
    .select(listingColumns())
    .from(a)
    .where(
      and(
        sql.raw(BROWSABLE_SQL),
        onMarket(a),
        eq(a.category, kind.category),
        eq(a.patternLength, kind.patternLength),
        eq(a.network, kind.network),
        ne(a.id, kind.id),
      ),
    )
    .orderBy(sql`abs(${a.rarityScore} - ${kind.rarityScore})`, desc(a.id))
    .limit(limit);
}

/** Market sales of listings of the same network, category and pattern length, newest first. */
export function recentSalesLike(db: Db, kind: ListingKind, limit: number) {
  const a = addresses;
  const t = transactions;
  const soldAt = sql<number>`coalesce(${t.completedAt}, ${t.createdAt})`;
  return (
    db
      .select({ listingId: a.id, address: a.address, network: a.network, price: t.price, currency: t.currency, soldAt })
      .from(t)
      .innerJoin(a, eq(a.id, t.addressId))
      .where(and(marketSale(t), eq(a.category, kind.category), eq(a.patternLength, kind.patternLength), eq(a.network, kind.network)))
      // By day, then id: no order of time within a day (docs/public-surface.md#what-a-public-sale-shows).
      .orderBy(sql`${soldAt} / 86400000 DESC`, desc(t.id))
      .limit(limit)
  );
}

/** The stored difficulty the listing's score was computed from. */
export async function difficultyLog2Of(db: Db, addressId: number): Promise<number> {
  const row = await db.select({ d: addresses.difficultyLog2 }).from(addresses).where(eq(addresses.id, addressId)).get();
  return row?.d ?? 0;
}
