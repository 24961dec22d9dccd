// The listing page's explanation of a purchase (schema/listing-context.ts), served by
// GET /api/addresses/{id}/context: difficulty in attempts and time, estimated value, price history,
// comparable listings and recent sales of the same kind. Each read is one indexed query; none reads key
// material or a seller's wallet.
import { sql } from "drizzle-orm";
import { BROWSABLE_SQL } from "../../schema/db";
import { COMPARABLES_LIMIT, type ListingContext, PRICE_HISTORY_LIMIT, RECENT_SALES_LIMIT } from "../../schema/listing-context";
import type { Db } from "../db";
import { formatUsd, type UsdRates, usdValue } from "../domain/prices";
import { difficultyFromLog2, estimateValue, expectedTimeSeconds, REFERENCE_RATES } from "../domain/rarity";
import { orderListing } from "../orders/order-listing";
import { valueMultiplier } from "./address-check";
import { type ListingRow, listingColumns, toListingView } from "./listing-view";

/** Everything the listing page explains about `row`, priced at `rates`; `viewer` marks their own comparables. */
export async function listingContext(db: Db, row: ListingRow, rates: UsdRates, viewer: number | null): Promise<ListingContext> {
  const kind = { id: row.id, network: row.network, category: row.category, patternLength: row.pattern_length, rarityScore: row.rarity_score };
  const [log2, history, comparables, sales, multiplier] = await Promise.all([
    difficultyLog2Of(db, row.id),
    priceHistoryOf(db, row.id, PRICE_HISTORY_LIMIT),
    comparableListings(db, kind, COMPARABLES_LIMIT),
    recentSalesLike(db, kind, RECENT_SALES_LIMIT),
    valueMultiplier(db, row.network),
  ]);
  const difficulty = difficultyFromLog2(log2);
  const reference = REFERENCE_RATES[row.network];
  const estimate = estimateValue(log2, row.network, multiplier);
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
    estimatedValue: { amount: estimate, currency: row.currency, usd: usdValue(estimate, row.currency, rates), formattedUsd: formatUsd(estimate, row.currency, rates) },
    priceHistory: history.map((h) => ({
      price: h.price,
      currency: h.currency,
      usd: usdValue(h.price, h.currency, rates),
      changeType: h.change_type,
      at: new Date(h.created_at).toISOString(),
    })),
    comparables: comparables.map((r) => toListingView(r, rates, viewer)),
    recentSales: sales.map((s) => ({
      listingId: s.listing_id,
      address: s.address,
      network: s.network,
      price: s.price,
      currency: s.currency,
      formattedUsd: formatUsd(s.price, s.currency, rates),
      soldAt: new Date(s.sold_at).toISOString(),
    })),
    ownershipProvedAt: new Date(row.created_at).toISOString(),
  };
}

export type ListingKind = { id: number; network: string; category: string; patternLength: number; rarityScore: number };

export type PriceHistoryRow = { price: string; currency: "ETH" | "SOL"; change_type: string; created_at: number };

/** The latest `limit` price changes of a listing, oldest first (price_history_address index). */
export async function priceHistoryOf(db: Db, addressId: number, limit: number): Promise<PriceHistoryRow[]> {
  const rows = await db.all<PriceHistoryRow>(sql`
    SELECT price, currency, change_type, created_at FROM price_history
    WHERE address_id = ${addressId}
    ORDER BY created_at DESC, id DESC
    LIMIT ${limit}`);
  return rows.reverse();
}

/**
 * Buyable listings of the same network, category and pattern length, closest in rarity first. The
 * BROWSABLE_SQL term lets the partial (category, pattern_length, rarity_score, ...) search index serve it.
 */
export function comparableListings(db: Db, kind: ListingKind, limit: number): Promise<ListingRow[]> {
  return db.all<ListingRow>(sql`
    SELECT ${sql.raw(listingColumns())} FROM addresses
    WHERE ${sql.raw(BROWSABLE_SQL)} AND status = 'active' AND is_listed = 1
      AND category = ${kind.category} AND pattern_length = ${kind.patternLength} AND network = ${kind.network}
      AND id <> ${kind.id}
    ORDER BY abs(rarity_score - ${kind.rarityScore}), id DESC
    LIMIT ${limit}`);
}

export type SaleRow = { listing_id: number; address: string; network: "ethereum" | "solana"; price: string; currency: "ETH" | "SOL"; sold_at: number };

/**
 * Completed, real (not test) sales of listings of the same network, category and pattern length, newest first;
 * never a custom order's private purchase.
 */
export function recentSalesLike(db: Db, kind: ListingKind, limit: number): Promise<SaleRow[]> {
  return db.all<SaleRow>(sql`
    SELECT a.id AS listing_id, a.address, a.network, t.price, t.currency, coalesce(t.completed_at, t.created_at) AS sold_at
    FROM transactions t JOIN addresses a ON a.id = t.address_id
    WHERE t.status = 'completed' AND t.is_test_data = 0 AND NOT ${orderListing(sql`a.id`)}
      AND a.category = ${kind.category} AND a.pattern_length = ${kind.patternLength} AND a.network = ${kind.network}
    ORDER BY sold_at DESC, t.id DESC
    LIMIT ${limit}`);
}

/** The stored difficulty the listing's score was computed from. */
export async function difficultyLog2Of(db: Db, addressId: number): Promise<number> {
  const row = await db.get<{ d: number }>(sql`SELECT difficulty_log2 AS d FROM addresses WHERE id = ${addressId}`);
  return row?.d ?? 0;
}
