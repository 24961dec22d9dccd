// Featured listings and one listing by id.
import { sql } from "drizzle-orm";
import { FEATURED_LIMIT } from "../../schema/browse";
import type { Db } from "../db";
import { type ListingRow, listingColumns } from "./listing-view";

/**
 * Featured, buyable listings (featured flag on, featuredUntil not passed, active and listed): heaviest promotion
 * first, then rarest, then newest. The addresses_featured index (is_featured, status) finds them.
 */
export function featuredListings(db: Db, now: number): Promise<ListingRow[]> {
  return db.all<ListingRow>(sql`
    SELECT ${sql.raw(listingColumns())} FROM addresses
    WHERE is_featured = 1 AND status = 'active' AND is_listed = 1 AND (featured_until IS NULL OR featured_until > ${now})
    ORDER BY promotion_weight DESC, rarity_score DESC, id DESC
    LIMIT ${FEATURED_LIMIT}`);
}

export async function listingById(db: Db, id: number): Promise<ListingRow | null> {
  const row = await db.get<ListingRow>(sql`SELECT ${sql.raw(listingColumns())} FROM addresses WHERE id = ${id}`);
  return row ?? null;
}
