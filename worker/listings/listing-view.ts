// The one place a listing row becomes what the public calls return (schema/browse.ts ListingView). Queries
// select listingColumns() and nothing else, so key material and the seller's wallet cannot leak into a response.
import type { ListingView } from "../../schema/browse";
import { formatUsd, type UsdRates, usdValue } from "../domain/prices";

/** Columns of `addresses` a listing view needs (raw SQL, for queries that name an alias: `a.` + each). */
export const LISTING_COLUMN_NAMES = [
  "id",
  "address",
  "network",
  "pattern",
  "category",
  "pattern_length",
  "rarity_score",
  "price",
  "currency",
  "status",
  "is_listed",
  "promotion_type",
  "is_featured",
  "seller_id",
  "created_at",
] as const;

export const listingColumns = (alias = "") => LISTING_COLUMN_NAMES.map((c) => (alias ? `${alias}.${c}` : c)).join(", ");

export type ListingRow = {
  id: number;
  address: string;
  network: ListingView["network"];
  pattern: string;
  category: string;
  pattern_length: number;
  rarity_score: number;
  price: string;
  currency: ListingView["currency"];
  status: ListingView["status"];
  is_listed: number;
  promotion_type: ListingView["promotionType"];
  is_featured: number;
  seller_id: number | null;
  created_at: number;
};

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
    patternLength: row.pattern_length,
    rarityScore: rarityString(row.rarity_score),
    price: row.price,
    currency: row.currency,
    usdPrice: usdValue(row.price, row.currency, rates),
    formattedUsd: formatUsd(row.price, row.currency, rates),
    status: row.status,
    isListed: row.is_listed === 1,
    promotionType: row.promotion_type,
    isFeatured: row.is_featured === 1,
    isOwner: viewerUserId !== null && row.seller_id === viewerUserId,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
