// The admin panel's reads (transactions-profile-admin.md §2 Admin panel): the listings table with search,
// filters and paging, the four stat cards, and the id checks of the bulk actions.
import { type SQL, sql } from "drizzle-orm";
import type { AdminListing, AdminStats } from "../../schema/listings";
import { type Db, batchAll } from "../db";
import type { UsdRates } from "../domain/prices";
import { ApiError } from "../http/errors";
import { type ListingRow, listingColumns, toListingView } from "./listing-view";
import { CUSTOM_ORDER_SQL } from "../orders/order-listing";

export type AdminListingQuery = { limit: number; offset: number; search?: string; network: "all" | "ethereum" | "solana"; status: "all" | "active" | "pending" | "sold" | "inactive" };

/** The admin/profile shape of a listing: the public view without the viewer-relative fields. */
export function toAdminListing(row: ListingRow, rates: UsdRates): AdminListing {
  const v = toListingView(row, rates, null);
  return {
    id: v.id,
    address: v.address,
    network: v.network,
    price: v.price,
    currency: v.currency,
    usdPrice: v.usdPrice,
    formattedUsd: v.formattedUsd,
    category: v.category,
    pattern: v.pattern,
    rarityScore: v.rarityScore,
    status: v.status,
    isFeatured: v.isFeatured,
    isListed: v.isListed,
    promotionType: v.promotionType,
    createdAt: v.createdAt,
  };
}

function adminWhere(q: AdminListingQuery): SQL {
  // Deleted listings are gone from the panel as from everywhere else; "all" means every other status.
  const parts: SQL[] = [q.status === "all" ? sql`status != 'deleted'` : sql`status = ${q.status}`];
  if (q.network !== "all") parts.push(sql`network = ${q.network}`);
  if (q.search) {
    // instr on lower-cased text rather than LIKE: no wildcards to escape, and D1 caps LIKE patterns at 50 bytes.
    const needle = q.search.toLowerCase();
    parts.push(sql`(instr(lower(address), ${needle}) > 0 OR instr(lower(category), ${needle}) > 0 OR instr(lower(pattern), ${needle}) > 0)`);
  }
  return sql.join(parts, sql` AND `);
}

export async function adminListings(db: Db, q: AdminListingQuery, rates: UsdRates) {
  const where = adminWhere(q);
  const [rows, count] = await batchAll<[ListingRow[], { n: number }[]]>(db, [
    sql`SELECT ${sql.raw(listingColumns())} FROM addresses WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${q.limit} OFFSET ${q.offset}`,
    sql`SELECT count(*) AS n FROM addresses WHERE ${where}`,
  ]);
  const total = Number(count[0]?.n ?? 0);
  const totalPages = Math.max(1, Math.ceil(total / q.limit));
  const page = Math.floor(q.offset / q.limit) + 1;
  return {
    addresses: rows.map((r) => toAdminListing(r, rates)),
    pagination: { total, limit: q.limit, offset: q.offset, page, totalPages, hasPrevPage: q.offset > 0, hasNextPage: q.offset + rows.length < total },
  };
}

export async function adminStats(db: Db): Promise<AdminStats> {
  const [listings, users] = await batchAll<[{ total: number; active: number; featured: number }[], { n: number }[]]>(db, [
    sql`SELECT count(*) AS total,
          total(status = 'active' AND is_listed = 1) AS active,
          total(is_featured = 1) AS featured
        FROM addresses WHERE status != 'deleted'`,
    sql`SELECT count(*) AS n FROM users`,
  ]);
  const l = listings[0];
  return { totalListings: Number(l?.total ?? 0), activeListings: Number(l?.active ?? 0), featuredListings: Number(l?.featured ?? 0), totalUsers: Number(users[0]?.n ?? 0) };
}

export type IdState = { id: number; status: string; reserved: number; custom_order: number };

/**
 * The state of every listing in `ids`; 404 naming the ids that do not exist (deleted ones included: they
 * are gone from the panel). ids are already validated as distinct positive integers.
 */
export async function requireListings(db: Db, ids: number[]): Promise<Map<number, IdState>> {
  const rows = await db.all<IdState>(sql`
    SELECT id, status, EXISTS (SELECT 1 FROM transactions t WHERE t.address_id = addresses.id AND t.status IN ('initiated', 'pending', 'verified')) AS reserved,
           ${sql.raw(CUSTOM_ORDER_SQL)} AS custom_order
    FROM addresses WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND status != 'deleted'`);
  const found = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    const shown = missing.slice(0, 20).join(", ") + (missing.length > 20 ? `, and ${missing.length - 20} more` : "");
    throw new ApiError(404, `Listing${missing.length === 1 ? "" : "s"} not found: ${shown}`, { missingIds: missing });
  }
  return found;
}
