// A found custom order is paid through the purchase machinery (worker/purchases/*) by way of one hidden
// listing: the found address, no seller (seller_id NULL: the platform receives the whole payment), no sealed
// key (the buyer completes the key in the browser), is_listed = 0 so no public read shows it. The order and its
// listing are linked by the address itself (custom_orders.found_address = addresses.address, each unique in its
// table), so no column links them. These helpers are the order-specific rules the listing and purchase code
// asks about; everything else stays theirs.
import { and, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { addresses, customOrders } from "../../schema/db";
import type { AuthSession } from "../auth/middleware";
import { columnList, type Db } from "../db/database";
import { analyzeAddress } from "../domain/rarity";
import { ApiError } from "../http/errors";
import { orderTo } from "../../schema/order-lifecycle";
import { orderCanMove, orderStatusIs } from "./status-sql";
import { listingStatusAfter } from "../listings/status-sql";

/** What reserving and the listing reads need to know about the order that owns a listing. */
export type ListingOrder = Pick<typeof customOrders.$inferSelect, "id" | "buyerId" | "status" | "paymentDeadline">;

export async function orderOwningListing(db: Db, listingId: number): Promise<ListingOrder | undefined> {
  const co = customOrders;
  return db
    .select({ id: co.id, buyerId: co.buyerId, status: co.status, paymentDeadline: co.paymentDeadline })
    .from(addresses)
    .innerJoin(co, eq(co.foundAddress, addresses.address))
    .where(eq(addresses.id, listingId))
    .get();
}

/**
 * The statement for submitOffset's batch, run right after the order became `found` at `now`: insert the hidden
 * listing, conditional on that very update, so a refused submit writes nothing; a listing that already has this
 * address fails the unique index and the whole batch rolls back.
 */
export function hiddenListingStatement(orderId: number, address: string, now: number): SQL {
  const a = analyzeAddress(address, "ethereum");
  const co = customOrders;
  const t = addresses;
  const foundHere = sql`${co.id} = ${orderId} AND ${orderStatusIs(co.status, orderTo("submit"))} AND ${co.foundAddress} = ${address} AND ${co.foundAt} = ${now}`;
  return sql`INSERT INTO ${t} ${columnList(
    t.address,
    t.network,
    t.sellerId,
    t.price,
    t.priceUnits,
    t.currency,
    t.rarityScore,
    t.difficultyLog2,
    t.category,
    t.pattern,
    t.patternLength,
    t.repeatingDigits,
    t.hasLeadingZeros,
    t.leadingZeroCount,
    t.hasTrailingZeros,
    t.trailingZeroCount,
    t.hasPalindrome,
    t.hasSequence,
    t.hasWordPattern,
    t.caseSensitivePattern,
    t.isListed,
    t.status,
    t.createdAt,
    t.updatedAt,
  )}
        SELECT ${co.foundAddress}, 'ethereum', NULL, ${co.price}, ${co.priceUnits}, ${co.currency}, ${a.rarityScore}, ${a.difficulty.log2}, ${a.category}, ${a.pattern},
               ${a.patternLength}, ${a.repeatingDigits}, ${a.hasLeadingZeros ? 1 : 0}, ${a.leadingZeroCount}, ${a.hasTrailingZeros ? 1 : 0},
               ${a.trailingZeroCount}, ${a.hasPalindrome ? 1 : 0}, ${a.hasSequence ? 1 : 0}, ${a.hasWordPattern ? 1 : 0}, ${co.caseSensitive},
               0, ${listingStatusAfter("order-found")}, ${now}, ${now}
        FROM ${co} WHERE ${foundHere}`;
}

const NOT_AVAILABLE = "This listing is not available for purchase";

/**
 * reserve.ts asks this for every listing. A listing no order owns: null (the ordinary rules apply). An order's
 * listing: refused to everyone but its buyer (the same answer as any unlisted listing) and, for the buyer,
 * while the order is found and before its deadline. The returned condition goes into the reservation's INSERT,
 * so an order that expires or is cancelled between this read and the insert gets no reservation.
 */
export async function orderReservationCondition(db: Db, listingId: number, session: AuthSession, now: number): Promise<SQL | null> {
  const order = await orderOwningListing(db, listingId);
  if (!order) return null;
  if (order.buyerId !== session.userId) throw new ApiError(409, NOT_AVAILABLE);
  if (order.status !== orderTo("submit") || order.paymentDeadline === null || order.paymentDeadline <= now) {
    throw new ApiError(
      409,
      `Custom order ${order.id} is ${order.status === orderTo("submit") ? "past its payment deadline" : order.status}; it can no longer be paid`,
    );
  }
  return payableOrder(order.id, now);
}

export const payableOrder = (orderId: number, now: number) =>
  sql`EXISTS (SELECT 1 FROM ${customOrders} WHERE ${customOrders.id} = ${orderId} AND ${orderCanMove(customOrders.status, "deliver")} AND ${customOrders.paymentDeadline} > ${now})`;

/**
 * Public listing reads (detail, context): an order's listing exists only for its buyer and admins; for anyone
 * else it is 404, like a listing that never was.
 */
export async function hiddenOrderListing(db: Db, listingId: number, viewer: Pick<AuthSession, "userId" | "isAdmin"> | null): Promise<boolean> {
  const order = await orderOwningListing(db, listingId);
  if (!order) return false;
  return !(viewer && (viewer.isAdmin || order.buyerId === viewer.userId));
}

/**
 * The same test in SQL beside a row of `addresses`: a found address belongs to its order's buyer, so no admin
 * action may list it for anyone else.
 */
export const isOrderListing = sql`EXISTS (SELECT 1 FROM ${customOrders} WHERE ${customOrders.foundAddress} = ${addresses.address})`;

/** An order's hidden listing, inside the order subqueries below. */
const ol = alias(addresses, "ol");

/** True in SQL when the listing belongs to a custom order. */
export const orderListing = (listingId: number | SQL) =>
  sql`EXISTS (SELECT 1 FROM ${addresses} ${ol} JOIN ${customOrders} ON ${customOrders.foundAddress} = ${ol.address} WHERE ${ol.id} = ${listingId})`;

/** In SQL beside addresses: the id of the custom order whose hidden listing this address is, or NULL. */
export const orderIdOfListing = sql<
  (typeof customOrders.$inferSelect)["id"] | null
>`(SELECT ${customOrders.id} FROM ${customOrders} WHERE ${customOrders.foundAddress} = ${addresses.address})`;

/** In SQL beside addresses: the status of the custom order whose hidden listing this address is, or NULL. */
export const orderStatusOfListing = sql<
  (typeof customOrders.$inferSelect)["status"] | null
>`(SELECT ${customOrders.status} FROM ${customOrders} WHERE ${customOrders.foundAddress} = ${addresses.address})`;

/** In SQL on custom_orders: the order's hidden listing's id (NULL before it is found). */
export const listingOfOrder = sql`(SELECT ${ol.id} FROM ${addresses} ${ol} WHERE ${ol.address} = ${customOrders.foundAddress})`;

/**
 * The settle batch's statement: the purchase of an order's listing completed in this batch delivers the order,
 * which reveals the offset to its buyer. Guarded by `found`, which expiry and cancelling never leave while a
 * purchase of the listing is open.
 */
export function deliverOrder(db: Db, listingId: number, now: number, completedHere: SQL) {
  const co = customOrders;
  return db
    .update(co)
    .set({ status: orderTo("deliver"), updatedAt: now })
    .where(
      and(
        sql`${co.foundAddress} = (SELECT ${addresses.address} FROM ${addresses} WHERE ${addresses.id} = ${listingId})`,
        orderCanMove(co.status, "deliver"),
        completedHere,
      ),
    );
}
