// The admin panel: the listings table with search, filters and
// paging, the four stat cards, and the bulk and single-listing actions with their rules (which listings each
// action skips and why). The routes in routes/admin.ts only validate and answer.
import { and, count, desc, eq, type SQL, sql } from "drizzle-orm";
import { addresses, users } from "../../schema/db";
import type { CustomOrderStatus } from "../../schema/db/custom-orders";
import { ADMIN_EXPORT_CAP, type AdminExportResponse, type AdminListing, type AdminStats, type BulkActionResponse } from "../../schema/listings";
import type { AuthSession } from "../auth/session";
import { type Db, selected, writeBatch } from "../db/database";
import type { UsdRates } from "../domain/prices";
import { ApiError } from "../http/errors";
import { isOrderListing, orderIdOfListing, orderStatusOfListing } from "../orders/order-listing";
import {
  CUSTOM_ORDER_MESSAGE,
  changeable,
  changePromotion,
  deleteStatements,
  listingForChange,
  listingIn,
  openPurchase,
  promotionStatements,
  softDelete,
  statusStatement,
} from "./changes";
import { type ListingRow, listingColumns, toListingView } from "./listing-view";
import { type ChangeableStatus, changeTransition, LISTING_KEPT, listingTo } from "../../schema/listing-lifecycle";
import type { ADMIN_STATUS_FILTERS } from "../../schema/constants";
import { listingStatusIn, onMarket } from "./status-sql";

const a = addresses;

export type AdminListingQuery = {
  limit: number;
  offset: number;
  search?: string;
  network: "all" | "ethereum" | "solana";
  status: (typeof ADMIN_STATUS_FILTERS)[number];
};

/** A listing's columns and, for an address found for a custom order, that order's id and status. */
const adminColumns = () => ({ ...listingColumns(), customOrderId: orderIdOfListing, customOrderStatus: orderStatusOfListing });
type AdminRow = ListingRow & { customOrderId: number | null; customOrderStatus: CustomOrderStatus | null };

/** The admin shape of a listing: the public view without the viewer-relative fields, and its custom order if any. */
export function toAdminListing(row: AdminRow, rates: UsdRates): AdminListing {
  const v = toListingView(row, rates, null, null);
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
    customOrder: row.customOrderId !== null && row.customOrderStatus !== null ? { id: row.customOrderId, status: row.customOrderStatus } : null,
  };
}

function adminWhere(q: AdminListingQuery): SQL {
  // Deleted listings are gone from the panel as from everywhere else; "all" means every other status.
  const parts: SQL[] = [listingStatusIn(a.status, q.status === "all" ? LISTING_KEPT : [q.status])];
  if (q.network !== "all") parts.push(eq(a.network, q.network));
  if (q.search) {
    // instr on lower-cased text rather than LIKE: no wildcards to escape, and D1 caps LIKE patterns at 50 bytes.
    const needle = q.search.toLowerCase();
    parts.push(sql`(instr(lower(${a.address}), ${needle}) > 0 OR instr(lower(${a.category}), ${needle}) > 0 OR instr(lower(${a.pattern}), ${needle}) > 0)`);
  }
  return and(...parts)!;
}

export async function adminListings(db: Db, q: AdminListingQuery, rates: UsdRates) {
  const where = adminWhere(q);
  const [rows, counted] = await db.batch([
    db.select(adminColumns()).from(a).where(where).orderBy(desc(a.createdAt), desc(a.id)).limit(q.limit).offset(q.offset),
    db.select({ n: count() }).from(a).where(where),
  ]);
  const total = Number(counted[0]?.n ?? 0);
  const totalPages = Math.max(1, Math.ceil(total / q.limit));
  const page = Math.floor(q.offset / q.limit) + 1;
  return {
    addresses: rows.map((r) => toAdminListing(r, rates)),
    pagination: { total, limit: q.limit, offset: q.offset, page, totalPages, hasPrevPage: q.offset > 0, hasNextPage: q.offset + rows.length < total },
  };
}

/**
 * Every listing the panel's filters match, in the table's order (newest first), up to `cap`, with how many match:
 * one batch (one snapshot), so an export is not torn by listings added or removed while it is read, as paging would be.
 */
export async function adminExport(
  db: Db,
  q: Omit<AdminListingQuery, "limit" | "offset">,
  rates: UsdRates,
  cap = ADMIN_EXPORT_CAP,
): Promise<AdminExportResponse> {
  const where = adminWhere({ ...q, limit: cap, offset: 0 });
  const [rows, counted] = await db.batch([
    db.select(adminColumns()).from(a).where(where).orderBy(desc(a.createdAt), desc(a.id)).limit(cap),
    db.select({ n: count() }).from(a).where(where),
  ]);
  return { addresses: rows.map((r) => toAdminListing(r, rates)), total: Number(counted[0]?.n ?? 0), cap };
}

export async function adminStats(db: Db): Promise<AdminStats> {
  const [listings, people] = await db.batch([
    db
      .select({
        total: count(),
        active: sql<number>`total(${onMarket(a)})`,
        featured: sql<number>`total(${a.isFeatured} = 1)`,
      })
      .from(a)
      .where(listingStatusIn(a.status, LISTING_KEPT)),
    db.select({ n: count() }).from(users),
  ]);
  const l = listings[0];
  return {
    totalListings: Number(l?.total ?? 0),
    activeListings: Number(l?.active ?? 0),
    featuredListings: Number(l?.featured ?? 0),
    totalUsers: Number(people[0]?.n ?? 0),
  };
}

/**
 * The state of every listing in `ids`, in their order; 404 naming the ids that do not exist (deleted ones included: they
 * are gone from the panel). ids are already validated as distinct positive integers.
 */
export async function requireListings(db: Db, ids: number[]) {
  const rows = await db
    .select({ id: a.id, status: a.status, reserved: selected(openPurchase).mapWith(Boolean), customOrder: selected(isOrderListing).mapWith(Boolean) })
    .from(a)
    .where(and(listingIn(ids), listingStatusIn(a.status, LISTING_KEPT)));
  // In the order the request named them, whichever index the query took: the answer's `skipped` follows it.
  const byId = new Map(rows.map((r) => [r.id, r]));
  const found = new Map(ids.flatMap((id) => (byId.has(id) ? [[id, byId.get(id)!] as const] : [])));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    const shown = missing.slice(0, 20).join(", ") + (missing.length > 20 ? `, and ${missing.length - 20} more` : "");
    throw new ApiError(404, `Listing${missing.length === 1 ? "" : "s"} not found: ${shown}`, { missingIds: missing });
  }
  return found;
}
export type IdState = Awaited<ReturnType<typeof requireListings>> extends Map<number, infer S> ? S : never;

/** Listings an action left alone, each with why (the answer's `skipped`). */
const skippedBecause = (states: Map<number, IdState>, rule: (s: IdState) => string | null) =>
  [...states].flatMap(([id, s]) => {
    const reason = rule(s);
    return reason ? [{ id, reason }] : [];
  });

/** Bulk status: sold listings are final, and a custom order's listing is never activated (activating lists). */
export async function bulkSetStatus(db: Db, ids: number[], status: ChangeableStatus, now = Date.now()): Promise<BulkActionResponse> {
  const states = await requireListings(db, ids);
  const [result] = await writeBatch(db, [statusStatement(db, ids, status, now)]);
  const skipped = skippedBecause(states, (s) =>
    s.status === listingTo("sell") ? "sold" : changeTransition(status) === "activate" && s.customOrder ? "custom order" : null,
  );
  return { success: true, updated: result.results.length, skipped };
}

/** Bulk featuring: leaves promoted listings promoted (they are featured already); unfeaturing makes them standard. */
export async function bulkSetFeatured(db: Db, ids: number[], isFeatured: boolean, adminId: number, now = Date.now()): Promise<BulkActionResponse> {
  const states = await requireListings(db, ids);
  const guard = isFeatured ? sql`${changeable} AND ${a.promotionType} != 'promoted'` : changeable;
  const results = await writeBatch(db, promotionStatements(db, ids, isFeatured ? "featured" : "standard", adminId, now, guard));
  const skipped = skippedBecause(states, (s) => (s.status === listingTo("sell") ? "sold" : null));
  return { success: true, updated: results[results.length - 1].results.length, skipped };
}

/** Bulk soft deletion: sold listings and listings with a purchase in progress are skipped. */
export async function bulkDelete(db: Db, ids: number[], now = Date.now()): Promise<BulkActionResponse> {
  const states = await requireListings(db, ids);
  const results = await writeBatch(db, deleteStatements(db, ids, now));
  const skipped = skippedBecause(states, (s) => (s.status === listingTo("sell") ? "sold" : s.reserved ? "purchase in progress" : null));
  return { success: true, updated: results[results.length - 1].results.length, skipped };
}

/** One listing's status and/or featured flag, as an admin changes it; the listing as it is afterwards. */
export async function adminChangeListing(
  db: Db,
  session: AuthSession,
  id: number,
  change: { status?: ChangeableStatus; isFeatured?: boolean },
  now = Date.now(),
): Promise<AdminRow> {
  const { status, isFeatured } = change;
  if (status === undefined && isFeatured === undefined) throw new ApiError(400, "Nothing to change: send status and/or isFeatured");
  const row = await listingForChange(db, id, session);
  if (row.status === listingTo("delete")) throw new ApiError(404, "Address not found");
  if (status !== undefined) {
    if (row.status === listingTo("sell")) throw new ApiError(409, "This listing has been sold; its status can no longer change");
    if (changeTransition(status) === "activate" && row.customOrder) throw new ApiError(409, CUSTOM_ORDER_MESSAGE);
    const [result] = await writeBatch(db, [statusStatement(db, [id], status, now)]);
    if (result.results.length === 0) throw new ApiError(409, "The listing changed while this request was made; reload it and try again");
  }
  if (isFeatured !== undefined) await changePromotion(db, id, session, undefined, isFeatured, now);
  return (await db.select(adminColumns()).from(a).where(eq(a.id, id)).get())!;
}

/** An admin's soft deletion of one listing (404 for one already deleted). */
export async function adminDeleteListing(db: Db, session: AuthSession, id: number, now = Date.now()): Promise<BulkActionResponse> {
  const row = await listingForChange(db, id, session);
  if (row.status === listingTo("delete")) throw new ApiError(404, "Address not found");
  await softDelete(db, id, session, now);
  return { success: true, updated: 1, skipped: [] };
}
