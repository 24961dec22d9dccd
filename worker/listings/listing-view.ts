// The one place a listing row becomes what the public calls return (schema/browse.ts ListingView). Queries
// select listingColumns() (or listingSelectList() in hand-written SQL) and nothing else, so key material and the seller's wallet cannot leak into a response.
import { and, type Column, sql } from "drizzle-orm";
import { addresses, transactions } from "../../schema/db";
import { OPEN } from "../../schema/purchase-lifecycle";
import { statusIn } from "../purchases/status-sql";
import type { ListingReservation, ListingView } from "../../schema/browse";
import { type Db, decodeRow, type RowOf, selectList } from "../db/database";
import { formatUsd, type UsdRates, usdValue } from "../domain/prices";

/** The columns of `addresses` a listing view needs. */
export const listingColumns = () => ({
  id: addresses.id,
  address: addresses.address,
  network: addresses.network,
  pattern: addresses.pattern,
  category: addresses.category,
  patternLength: addresses.patternLength,
  rarityScore: addresses.rarityScore,
  price: addresses.price,
  currency: addresses.currency,
  status: addresses.status,
  isListed: addresses.isListed,
  promotionType: addresses.promotionType,
  isFeatured: addresses.isFeatured,
  sellerId: addresses.sellerId,
  createdAt: addresses.createdAt,
});

export type ListingRow = RowOf<ReturnType<typeof listingColumns>>;
type ListingKey = keyof ListingRow;

/**
 * The same columns as hand-written SQL's result (`"a"."pattern_length" AS "patternLength", ...`), of `addresses`
 * or of an alias of it (`alias(addresses, "a")`), for decodeListing().
 */
export const listingSelectList = (a: Record<ListingKey, Column> = addresses) =>
  selectList(Object.fromEntries(Object.keys(listingColumns()).map((key) => [key, a[key as ListingKey]])));
/** A raw row of a statement that selected listingSelectList(). */
export const decodeListing = (raw: Record<string, unknown>): ListingRow => decodeRow(listingColumns(), raw);

/** Rarity as the spec shows it: a numeric string with one decimal, clamped to 0..10. */
export function rarityString(score: number): string {
  const s = Number.isFinite(score) ? Math.min(10, Math.max(0, score)) : 0;
  return s.toFixed(1);
}

/**
 * The open purchases holding these listings, by listing id: one query over the
 * transactions_one_open_per_listing partial index (its condition is written out literally so SQLite can use it).
 * An initiated reservation past its expiry no longer holds the listing (the next reservation or the cron job
 * expires it), so it is left out.
 */
export async function listingReservations(db: Db, ids: readonly number[], now = Date.now()): Promise<Map<number, ListingReservation>> {
  const found = new Map<number, ListingReservation>();
  if (ids.length === 0) return found;
  const t = transactions;
  const rows = await db
    .select({ addressId: t.addressId, status: t.status, expiresAt: t.expiresAt })
    .from(t)
    // The ids as one JSON parameter: a page may hold more listings than D1 binds parameters (100).
    .where(and(sql`${t.addressId} IN (SELECT value FROM json_each(${JSON.stringify([...new Set(ids)])}))`, statusIn(t.status, OPEN)));
  for (const r of rows) {
    const paymentReported = r.status !== "initiated";
    if (!paymentReported && (r.expiresAt === null || r.expiresAt < now)) continue;
    found.set(r.addressId, { until: new Date(r.expiresAt ?? now).toISOString(), paymentReported });
  }
  return found;
}

/** Rows as listing views, each with the reservation that holds it (listingReservations). */
export async function toListingViews(db: Db, rows: readonly ListingRow[], rates: UsdRates, viewerUserId: number | null): Promise<ListingView[]> {
  const held = await listingReservations(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toListingView(row, rates, viewerUserId, held.get(row.id) ?? null));
}

export function toListingView(row: ListingRow, rates: UsdRates, viewerUserId: number | null, reservation: ListingReservation | null): ListingView {
  return {
    id: row.id,
    address: row.address,
    network: row.network,
    pattern: row.pattern,
    category: row.category,
    patternLength: row.patternLength,
    rarityScore: rarityString(row.rarityScore),
    price: row.price,
    currency: row.currency,
    usdPrice: usdValue(row.price, row.currency, rates),
    formattedUsd: formatUsd(row.price, row.currency, rates),
    status: row.status,
    isListed: row.isListed,
    promotionType: row.promotionType,
    isFeatured: row.isFeatured,
    isOwner: viewerUserId !== null && row.sellerId === viewerUserId,
    reservation,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
