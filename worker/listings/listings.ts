// Featured listings, one listing by id, and who may see one.
import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import { FEATURED_LIMIT } from "../../schema/browse";
import { addresses, type Network } from "../../schema/db";
import type { AuthSession } from "../auth/session";
import type { Db } from "../db/database";
import { hiddenOrderListing } from "../orders/order-listing";
import { type ListingRow, listingColumns } from "./listing-view";
import { listingTo } from "../../schema/listing-lifecycle";
import { onMarket } from "./status-sql";

const a = addresses;

/**
 * Featured, buyable listings (featured flag on, featuredUntil not passed, active and listed), of one network when
 * `network` is given (the marketplace's network filter): heaviest promotion first, then rarest, then newest. The
 * addresses_featured index (is_featured, status) finds them.
 */
export function featuredListings(db: Db, now: number, network?: Network): Promise<ListingRow[]> {
  return db
    .select(listingColumns())
    .from(a)
    .where(and(eq(a.isFeatured, true), onMarket(a), or(isNull(a.featuredUntil), gt(a.featuredUntil, now)), network ? eq(a.network, network) : undefined))
    .orderBy(desc(a.promotionWeight), desc(a.rarityScore), desc(a.id))
    .limit(FEATURED_LIMIT);
}

export async function listingById(db: Db, id: number): Promise<ListingRow | null> {
  const row = await db.select(listingColumns()).from(a).where(eq(a.id, id)).get();
  return row ?? null;
}

/**
 * The listing `id` as `viewer` may see it, or null (404 to them): a deleted listing is gone for everyone but its
 * owner, a custom order's hidden listing for everyone but its buyer and admins.
 */
export async function visibleListing(db: Db, id: number, viewer: Pick<AuthSession, "userId" | "isAdmin"> | null): Promise<ListingRow | null> {
  const row = await listingById(db, id);
  const isOwner = row !== null && viewer !== null && row.sellerId === viewer.userId;
  if (!row || (row.status === listingTo("delete") && !isOwner) || (await hiddenOrderListing(db, id, viewer))) return null;
  return row;
}
