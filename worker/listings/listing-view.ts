// The one place a listing row becomes what the public calls return (schema/browse.ts ListingView). Queries
// select listingColumns() (or listingSelectList() in hand-written SQL) and nothing else, so key material and the seller's wallet cannot leak into a response.
import type { Column } from "drizzle-orm";
import { addresses } from "../../schema/db";
import type { ListingView } from "../../schema/browse";
import { decodeRow, type RowOf, selectList } from "../db";
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

export function toListingView(row: ListingRow, rates: UsdRates, viewerUserId: number | null): ListingView {
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
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
