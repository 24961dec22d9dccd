// Changes to existing listings: price, promotion, status, soft deletion. Shared by the owner's calls
// (PATCH/DELETE /api/addresses/{id}) and the admin panel (/api/admin/addresses/...).
//
// The statements that change addresses end in RETURNING id: D1's meta.changes also counts the rows the
// listing_counts triggers touch, so the returned rows are the count of listings changed.
//
// Every write re-states its preconditions in its own WHERE clause (not sold, not deleted, no purchase in
// progress, the price we read still in place), so a purchase or another edit that lands between our read
// and our write makes the write a no-op instead of overwriting it; the caller then re-reads and says why.
import type { AuthSession } from "../auth/session";
import type { Db } from "../db";
import { changePercentage, unitsToNumber } from "../../schema/money";
import { ApiError } from "../http/errors";
import type { PromotionType } from "../../schema/listings";
import { CUSTOM_ORDER_SQL } from "../orders/order-listing";
import { PROMOTION_WEIGHT } from "./store";

/** SQL: the listing (table `addresses`) has a purchase in progress. */
export const OPEN_PURCHASE_SQL = "EXISTS (SELECT 1 FROM transactions t WHERE t.address_id = addresses.id AND t.status IN ('initiated', 'pending', 'verified'))";
export const CUSTOM_ORDER_MESSAGE = "This address was found for a custom order; it belongs to that order's buyer and is never listed";

export type ListingState = {
  id: number;
  seller_id: number | null;
  status: string;
  price: string;
  price_units: number;
  currency: "ETH" | "SOL";
  promotion_type: PromotionType;
  is_featured: number;
  reserved: number;
  custom_order: number;
};

export async function listingState(db: Db, id: number): Promise<ListingState | null> {
  const row = await db.$client
    .prepare(`SELECT id, seller_id, status, price, price_units, currency, promotion_type, is_featured, ${OPEN_PURCHASE_SQL} AS reserved,
              ${CUSTOM_ORDER_SQL} AS custom_order FROM addresses WHERE id = ?`)
    .bind(id)
    .first<ListingState>();
  return row ?? null;
}

/**
 * The listing `id` as its owner (the seller) or an admin may change it. 404 when it does not exist, or is
 * deleted and the caller is not its owner or an admin (it is gone for everyone else); 403 for anyone else.
 */
export async function listingForChange(db: Db, id: number, session: AuthSession): Promise<ListingState> {
  const row = await listingState(db, id);
  const mayChange = row !== null && (session.isAdmin || row.seller_id === session.userId);
  if (!row || (row.status === "deleted" && !mayChange)) throw new ApiError(404, "Address not found");
  if (!mayChange) throw new ApiError(403, "Only the listing's owner or an admin can change it");
  return row;
}

/** 409 for a listing in a state where `what` cannot change. */
function refuseState(row: ListingState, what: string) {
  if (row.status === "sold") throw new ApiError(409, `This listing has been sold; its ${what} can no longer change`);
  if (row.status === "deleted") throw new ApiError(409, `This listing has been deleted; its ${what} can no longer change`);
}

const changedMeanwhile = () => new ApiError(409, "The listing changed while this request was made; reload it and try again");

/** New price (already checked by checkPrice). Writes price_history with the previous price and the change. */
export async function changePrice(db: Db, id: number, session: AuthSession, price: string, units: bigint, now: number) {
  const row = await listingForChange(db, id, session);
  refuseState(row, "price");
  if (row.reserved) throw new ApiError(409, "A purchase of this listing is in progress; its price cannot change until it completes or expires");
  const oldUnits = BigInt(row.price_units);
  if (oldUnits === units) return;
  const guard = `id = ? AND price_units = ? AND status NOT IN ('sold', 'deleted') AND NOT ${OPEN_PURCHASE_SQL}`;
  const d1 = db.$client;
  const [, update] = await d1.batch([
    // The history row first: it reads the price that is being replaced, under the same guard.
    d1
      .prepare(
        `INSERT INTO price_history (address_id, price, currency, change_type, previous_price, change_percentage, created_at)
         SELECT id, ?, currency, 'price_update', price, ?, ? FROM addresses WHERE ${guard}`,
      )
      .bind(price, changePercentage(oldUnits, units), now, id, row.price_units),
    d1.prepare(`UPDATE addresses SET price = ?, price_units = ?, updated_at = ? WHERE ${guard} RETURNING id`).bind(price, unitsToNumber(units), now, id, row.price_units),
  ]);
  if (update.results.length === 0) {
    const fresh = await listingForChange(db, id, session);
    refuseState(fresh, "price");
    if (fresh.reserved) throw new ApiError(409, "A purchase of this listing is in progress; its price cannot change until it completes or expires");
    throw changedMeanwhile();
  }
}

/**
 * The promotion a request asks for: promotionType and/or isFeatured (public-side.md §4: an owner toggles
 * featured <-> standard and sends isFeatured true only when featured). isFeatured alone means featured or
 * standard, except that featuring a promoted listing keeps it promoted. Contradictions are 400s.
 */
export function targetPromotion(current: PromotionType, promotionType: PromotionType | undefined, isFeatured: boolean | undefined): PromotionType {
  if (promotionType === undefined) {
    if (isFeatured === undefined) throw new ApiError(400, "Send promotionType and/or isFeatured");
    return isFeatured ? (current === "promoted" ? "promoted" : "featured") : "standard";
  }
  if (promotionType === "standard" && isFeatured === true) throw new ApiError(400, "isFeatured can only be true for a featured or promoted listing");
  if (promotionType === "featured" && isFeatured === false) throw new ApiError(400, "A featured listing has isFeatured true");
  return promotionType;
}

/** Statements that set `ids`' promotion to `type`, ending their active promotion rows and opening a new one. */
export function promotionStatements(db: Db, idsJson: string, type: PromotionType, purchasedBy: number, now: number, guard: string) {
  const d1 = db.$client;
  const inIds = `id IN (SELECT value FROM json_each(?))`;
  const statements = [
    d1
      .prepare(
        `UPDATE listing_promotions SET is_active = 0, end_time = ? WHERE is_active = 1
         AND address_id IN (SELECT id FROM addresses WHERE ${inIds} AND ${guard} AND promotion_type != ?)`,
      )
      .bind(now, idsJson, type),
  ];
  if (type !== "standard") {
    statements.push(
      d1
        .prepare(
          `INSERT INTO listing_promotions (address_id, promotion_type, price, currency, start_time, is_active, purchased_by)
           SELECT id, ?, '0', currency, ?, 1, ? FROM addresses WHERE ${inIds} AND ${guard} AND promotion_type != ?`,
        )
        .bind(type, now, purchasedBy, idsJson, type),
    );
  }
  statements.push(
    d1
      .prepare(
        `UPDATE addresses SET promotion_type = ?, is_featured = ?, is_promoted = ?, promotion_weight = ?, featured_until = NULL, updated_at = ?
         WHERE ${inIds} AND ${guard} RETURNING id`,
      )
      .bind(type, type === "standard" ? 0 : 1, type === "promoted" ? 1 : 0, PROMOTION_WEIGHT[type], now, idsJson),
  );
  return statements;
}

/** Sets one listing's promotion. Only admins may promote (the spec's admin-only listing type). */
export async function changePromotion(db: Db, id: number, session: AuthSession, promotionType: PromotionType | undefined, isFeatured: boolean | undefined, now: number) {
  const row = await listingForChange(db, id, session);
  const target = targetPromotion(row.promotion_type, promotionType, isFeatured);
  // Keeping a promotion an admin gave is fine; only making a listing promoted needs an admin.
  if (target === "promoted" && row.promotion_type !== "promoted" && !session.isAdmin) throw new ApiError(403, "Only admins can promote a listing");
  refuseState(row, "promotion");
  const statements = promotionStatements(db, JSON.stringify([id]), target, session.userId, now, "status NOT IN ('sold', 'deleted')");
  const results = await db.$client.batch(statements);
  if (results[results.length - 1].results.length === 0) {
    refuseState(await listingForChange(db, id, session), "promotion");
    throw changedMeanwhile();
  }
}

/** Soft deletion: status deleted, unlisted, unfeatured. Refused for sold listings and during a purchase. */
export async function softDelete(db: Db, id: number, session: AuthSession, now: number) {
  const row = await listingForChange(db, id, session);
  if (row.status === "deleted") return;
  if (row.status === "sold") throw new ApiError(409, "A sold listing is the record of a sale and cannot be deleted");
  if (row.reserved) throw new ApiError(409, "A purchase of this listing is in progress; it cannot be deleted until the purchase completes or expires");
  const results = await db.$client.batch(deleteStatements(db, JSON.stringify([id]), now));
  if (results[results.length - 1].results.length === 0) throw changedMeanwhile();
}

/** Statements that soft-delete the listings in `idsJson` that are not sold and not being bought. */
export function deleteStatements(db: Db, idsJson: string, now: number) {
  const d1 = db.$client;
  const where = `id IN (SELECT value FROM json_each(?)) AND status NOT IN ('sold', 'deleted') AND NOT ${OPEN_PURCHASE_SQL}`;
  return [
    d1.prepare(`UPDATE listing_promotions SET is_active = 0, end_time = ? WHERE is_active = 1 AND address_id IN (SELECT id FROM addresses WHERE ${where})`).bind(now, idsJson),
    d1.prepare(`UPDATE addresses SET status = 'deleted', is_listed = 0, is_featured = 0, updated_at = ? WHERE ${where} RETURNING id`).bind(now, idsJson),
  ];
}

/**
 * Statements that set the status (active or inactive) of the listings in `idsJson` that are not sold or deleted;
 * a custom order's listing is never activated (activating lists).
 */
export function statusStatement(db: Db, idsJson: string, status: "active" | "inactive", now: number) {
  // Activating makes a listing buyable, so it is listed again too; deactivating leaves isListed alone.
  return db.$client
    .prepare(
      `UPDATE addresses SET status = ?, is_listed = CASE WHEN ? = 'active' THEN 1 ELSE is_listed END, updated_at = ?
       WHERE id IN (SELECT value FROM json_each(?)) AND status NOT IN ('sold', 'deleted')
         AND NOT (? = 'active' AND ${CUSTOM_ORDER_SQL}) RETURNING id`,
    )
    .bind(status, status, now, idsJson, status);
}
