// Changes to existing listings: price, promotion, status, soft deletion. Shared by the owner's calls
// (PATCH/DELETE /api/addresses/{id}) and the admin panel (/api/admin/addresses/...).
//
// The statements that change addresses end in RETURNING id: D1's meta.changes also counts the rows the
// listing_counts triggers touch, so the returned rows are the count of listings changed.
//
// Every write re-states its preconditions in its own WHERE clause (not sold, not deleted, no purchase in
// progress, the price we read still in place), so a purchase or another edit that lands between our read
// and our write makes the write a no-op instead of overwriting it; the caller then re-reads and says why.
import { and, eq, not, type SQL, sql } from "drizzle-orm";
import { addresses, listingPromotions, priceHistory, transactions } from "../../schema/db";
import { OPEN } from "../../schema/purchase-lifecycle";
import { statusIn } from "../purchases/status-sql";
import type { AuthSession } from "../auth/session";
import { columnList, type Db, selected, writeBatch } from "../db/database";
import { changePercentage, checkPrice, unitsToNumber } from "../../schema/money";
import { ApiError } from "../http/errors";
import type { PromotionType } from "../../schema/listings";
import { isOrderListing } from "../orders/order-listing";
import { PROMOTION_WEIGHT } from "./store";
import { type ChangeableStatus, changeTransition, LISTING_CHANGEABLE, listingTo } from "../../schema/listing-lifecycle";
import { listingCanMove, listingStatusIn } from "./status-sql";

const a = addresses;
const lp = listingPromotions;

/** SQL beside `addresses`: the listing has a purchase in progress. */
export const openPurchase = sql`EXISTS (SELECT 1 FROM ${transactions} WHERE ${transactions.addressId} = ${a.id} AND ${statusIn(transactions.status, OPEN)})`;
export const CUSTOM_ORDER_MESSAGE = "This address was found for a custom order; it belongs to that order's buyer and is never listed";
/** SQL: the listing is neither sold nor deleted (both are final). */
export const changeable = listingStatusIn(a.status, LISTING_CHANGEABLE);
/** SQL: the listing is one of `ids` (bound as one JSON parameter: D1 caps a statement's parameters at 100). */
export const listingIn = (ids: number[]) => sql`${a.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;

export async function listingState(db: Db, id: number) {
  const row = await db
    .select({
      id: a.id,
      sellerId: a.sellerId,
      status: a.status,
      price: a.price,
      priceUnits: a.priceUnits,
      currency: a.currency,
      promotionType: a.promotionType,
      isFeatured: a.isFeatured,
      reserved: selected(openPurchase).mapWith(Boolean),
      customOrder: selected(isOrderListing).mapWith(Boolean),
    })
    .from(a)
    .where(eq(a.id, id))
    .get();
  return row ?? null;
}
export type ListingState = NonNullable<Awaited<ReturnType<typeof listingState>>>;

/**
 * The listing `id` as its owner (the seller) or an admin may change it. 404 when it does not exist, or is
 * deleted and the caller is not its owner or an admin (it is gone for everyone else); 403 for anyone else.
 */
export async function listingForChange(db: Db, id: number, session: AuthSession): Promise<ListingState> {
  const row = await listingState(db, id);
  const mayChange = row !== null && (session.isAdmin || row.sellerId === session.userId);
  if (!row || (row.status === listingTo("delete") && !mayChange)) throw new ApiError(404, "Address not found");
  if (!mayChange) throw new ApiError(403, "Only the listing's owner or an admin can change it");
  return row;
}

/** 409 for a listing in a state where `what` cannot change. */
function refuseState(row: ListingState, what: string) {
  if (row.status === listingTo("sell")) throw new ApiError(409, `This listing has been sold; its ${what} can no longer change`);
  if (row.status === listingTo("delete")) throw new ApiError(409, `This listing has been deleted; its ${what} can no longer change`);
}

const changedMeanwhile = () => new ApiError(409, "The listing changed while this request was made; reload it and try again");

/** New price (already checked by checkPrice). Writes price_history with the previous price and the change. */
export async function changePrice(db: Db, id: number, session: AuthSession, price: string, units: bigint, now: number) {
  const row = await listingForChange(db, id, session);
  refuseState(row, "price");
  if (row.reserved) throw new ApiError(409, "A purchase of this listing is in progress; its price cannot change until it completes or expires");
  const oldUnits = BigInt(row.priceUnits);
  if (oldUnits === units) return;
  const guard = and(eq(a.id, id), eq(a.priceUnits, row.priceUnits), changeable, not(openPurchase));
  const ph = priceHistory;
  const [, update] = await writeBatch(db, [
    // The history row first: it reads the price that is being replaced, under the same guard.
    sql`INSERT INTO ${ph} ${columnList(ph.addressId, ph.price, ph.currency, ph.changeType, ph.previousPrice, ph.changePercentage, ph.createdAt)}
        SELECT ${a.id}, ${price}, ${a.currency}, 'price_update', ${a.price}, ${changePercentage(oldUnits, units)}, ${now} FROM ${a} WHERE ${guard}`,
    db
      .update(a)
      .set({ price, priceUnits: unitsToNumber(units), updatedAt: now })
      .where(guard)
      .returning({ id: a.id }),
  ]);
  if (update.results.length === 0) {
    const fresh = await listingForChange(db, id, session);
    refuseState(fresh, "price");
    if (fresh.reserved) throw new ApiError(409, "A purchase of this listing is in progress; its price cannot change until it completes or expires");
    throw changedMeanwhile();
  }
}

/**
 * The promotion a request asks for: promotionType and/or isFeatured (an owner toggles
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
export function promotionStatements(db: Db, ids: number[], type: PromotionType, purchasedBy: number, now: number, guard: SQL = changeable) {
  const moving = sql`${listingIn(ids)} AND ${guard} AND ${a.promotionType} != ${type}`;
  const statements: (SQL | ReturnType<typeof endPromotions>)[] = [endPromotions(db, moving, now)];
  if (type !== "standard") {
    statements.push(sql`INSERT INTO ${lp} ${columnList(lp.addressId, lp.promotionType, lp.price, lp.currency, lp.startTime, lp.isActive, lp.purchasedBy)}
                        SELECT ${a.id}, ${type}, '0', ${a.currency}, ${now}, 1, ${purchasedBy} FROM ${a} WHERE ${moving}`);
  }
  const update = db
    .update(a)
    .set({
      promotionType: type,
      isFeatured: type !== "standard",
      isPromoted: type === "promoted",
      promotionWeight: PROMOTION_WEIGHT[type],
      featuredUntil: null,
      updatedAt: now,
    })
    .where(sql`${listingIn(ids)} AND ${guard}`)
    .returning({ id: a.id });
  return [...statements, update];
}

/** Ends the active promotion rows of the listings `where` selects. */
function endPromotions(db: Db, where: SQL, now: number) {
  return db
    .update(lp)
    .set({ isActive: false, endTime: now })
    .where(and(eq(lp.isActive, true), sql`${lp.addressId} IN (SELECT ${a.id} FROM ${a} WHERE ${where})`));
}

/** Sets one listing's promotion. Only admins may promote (the spec's admin-only listing type). */
export async function changePromotion(
  db: Db,
  id: number,
  session: AuthSession,
  promotionType: PromotionType | undefined,
  isFeatured: boolean | undefined,
  now: number,
) {
  const row = await listingForChange(db, id, session);
  const target = targetPromotion(row.promotionType, promotionType, isFeatured);
  // Keeping a promotion an admin gave is fine; only making a listing promoted needs an admin.
  if (target === "promoted" && row.promotionType !== "promoted" && !session.isAdmin) throw new ApiError(403, "Only admins can promote a listing");
  refuseState(row, "promotion");
  const results = await writeBatch(db, promotionStatements(db, [id], target, session.userId, now));
  if (results[results.length - 1].results.length === 0) {
    refuseState(await listingForChange(db, id, session), "promotion");
    throw changedMeanwhile();
  }
}

/** Soft deletion: status deleted, unlisted, unfeatured. Refused for sold listings and during a purchase. */
export async function softDelete(db: Db, id: number, session: AuthSession, now: number) {
  const row = await listingForChange(db, id, session);
  if (row.status === listingTo("delete")) return;
  if (row.status === listingTo("sell")) throw new ApiError(409, "A sold listing is the record of a sale and cannot be deleted");
  if (row.reserved) throw new ApiError(409, "A purchase of this listing is in progress; it cannot be deleted until the purchase completes or expires");
  const results = await writeBatch(db, deleteStatements(db, [id], now));
  if (results[results.length - 1].results.length === 0) throw changedMeanwhile();
}

/** Statements that soft-delete the listings in `ids` that are not sold and not being bought. */
export function deleteStatements(db: Db, ids: number[], now: number) {
  const where = sql`${listingIn(ids)} AND ${listingCanMove(a.status, "delete")} AND NOT ${openPurchase}`;
  return [
    endPromotions(db, where, now),
    db
      .update(a)
      .set({ status: listingTo("delete"), isListed: false, isFeatured: false, updatedAt: now })
      .where(where)
      .returning({ id: a.id }),
  ];
}

/**
 * The statement that sets the status (active or inactive) of the listings in `ids` that are not sold or deleted;
 * a custom order's listing is never activated (activating lists).
 */
export function statusStatement(db: Db, ids: number[], status: ChangeableStatus, now: number) {
  const name = changeTransition(status);
  // Activating makes a listing buyable, so it is listed again too; deactivating leaves isListed alone.
  return db
    .update(a)
    .set({ status: listingTo(name), ...(name === "activate" ? { isListed: true } : {}), updatedAt: now })
    .where(sql`${listingIn(ids)} AND ${listingCanMove(a.status, name)}${name === "activate" ? sql` AND NOT ${isOrderListing}` : sql``}`)
    .returning({ id: a.id });
}

/** PATCH /api/addresses/{id}: the price, or the promotion (promotionType and/or isFeatured), never both at once. */
export async function changeListing(
  db: Db,
  session: AuthSession,
  id: number,
  body: { price?: unknown; promotionType?: PromotionType; isFeatured?: boolean },
  now = Date.now(),
): Promise<void> {
  const wantsPrice = body.price !== undefined;
  const wantsPromotion = body.promotionType !== undefined || body.isFeatured !== undefined;
  if (wantsPrice && wantsPromotion) throw new ApiError(400, "Change the price and the promotion in separate requests");
  if (!wantsPrice && !wantsPromotion) throw new ApiError(400, "Nothing to change: send price, or promotionType and isFeatured");
  if (wantsPrice) {
    const price = checkPrice(body.price);
    if (!price.ok) throw new ApiError(400, price.message);
    await changePrice(db, id, session, price.price, price.units, now);
  } else {
    await changePromotion(db, id, session, body.promotionType, body.isFeatured, now);
  }
}
