// A found custom order is paid through the purchase machinery (worker/purchases/*) by way of one hidden
// listing: the found address, no seller (seller_id NULL: the platform receives the whole payment), no sealed
// key (the buyer completes the key in the browser), is_listed = 0 so no public read shows it. The order and its
// listing are linked by the address itself (custom_orders.found_address = addresses.address, each unique in its
// table), so no column links them. These helpers are the order-specific rules the listing and purchase code
// asks about; everything else stays theirs.
import { type SQL, sql } from "drizzle-orm";
import { addresses, customOrders } from "../../schema/db";
import type { AuthSession } from "../auth/middleware";
import type { Db } from "../db";
import { analyzeAddress } from "../domain/rarity";
import { ApiError } from "../http/errors";

/** What reserving and the listing reads need to know about the order that owns a listing. */
export type ListingOrder = { id: number; buyer_id: number; status: string; payment_deadline: number | null };

export async function orderOwningListing(db: Db, listingId: number): Promise<ListingOrder | undefined> {
  return db.get<ListingOrder>(sql`
    SELECT co.id, co.buyer_id, co.status, co.payment_deadline FROM addresses a JOIN custom_orders co ON co.found_address = a.address
    WHERE a.id = ${listingId}`);
}

/**
 * The statement for submitOffset's batch, run right after the order became `found` at `now`: insert the hidden
 * listing, conditional on that very update, so a refused submit writes nothing; a listing that already has this
 * address fails the unique index and the whole batch rolls back.
 */
export function hiddenListingStatement(orderId: number, address: string, now: number): SQL {
  const a = analyzeAddress(address, "ethereum");
  const foundHere = sql`id = ${orderId} AND status = 'found' AND found_address = ${address} AND found_at = ${now}`;
  return sql`INSERT INTO addresses (address, network, seller_id, price, price_units, currency, rarity_score, difficulty_log2, category, pattern,
                               pattern_length, repeating_digits, has_leading_zeros, leading_zero_count, has_trailing_zeros, trailing_zero_count,
                               has_palindrome, has_sequence, has_word_pattern, case_sensitive_pattern, is_listed, status, created_at, updated_at)
        SELECT found_address, 'ethereum', NULL, price, price_units, currency, ${a.rarityScore}, ${a.difficulty.log2}, ${a.category}, ${a.pattern},
               ${a.patternLength}, ${a.repeatingDigits}, ${a.hasLeadingZeros ? 1 : 0}, ${a.leadingZeroCount}, ${a.hasTrailingZeros ? 1 : 0},
               ${a.trailingZeroCount}, ${a.hasPalindrome ? 1 : 0}, ${a.hasSequence ? 1 : 0}, ${a.hasWordPattern ? 1 : 0}, case_sensitive,
               0, 'active', ${now}, ${now}
        FROM custom_orders WHERE ${foundHere}`;
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
  if (order.buyer_id !== session.userId) throw new ApiError(409, NOT_AVAILABLE);
  if (order.status !== "found" || order.payment_deadline === null || order.payment_deadline <= now) {
    throw new ApiError(409, `Custom order ${order.id} is ${order.status === "found" ? "past its payment deadline" : order.status}; it can no longer be paid`);
  }
  return payableOrder(order.id, now);
}

export const payableOrder = (orderId: number, now: number) =>
  sql`EXISTS (SELECT 1 FROM custom_orders WHERE id = ${orderId} AND status = 'found' AND payment_deadline > ${now})`;

/**
 * Public listing reads (detail, context): an order's listing exists only for its buyer and admins; for anyone
 * else it is 404, like a listing that never was.
 */
export async function hiddenOrderListing(db: Db, listingId: number, viewer: Pick<AuthSession, "userId" | "isAdmin"> | null): Promise<boolean> {
  const order = await orderOwningListing(db, listingId);
  if (!order) return false;
  return !(viewer && (viewer.isAdmin || order.buyer_id === viewer.userId));
}

/**
 * The same test in SQL beside a row of `addresses`: a found address belongs to its order's buyer, so no admin
 * action may list it for anyone else.
 */
export const isOrderListing = sql`EXISTS (SELECT 1 FROM ${customOrders} WHERE ${customOrders.foundAddress} = ${addresses.address})`;

/** True in SQL when the listing belongs to a custom order. */
export const orderListing = (listingId: number | SQL) =>
  sql`EXISTS (SELECT 1 FROM addresses ol JOIN custom_orders co ON co.found_address = ol.address WHERE ol.id = ${listingId})`;

/** In SQL beside addresses: the id of the custom order whose hidden listing this address is, or NULL. */
export const orderIdOfListing = sql<(typeof customOrders.$inferSelect)["id"] | null>`(SELECT ${customOrders.id} FROM ${customOrders} WHERE ${customOrders.foundAddress} = ${addresses.address})`;

/** In SQL on custom_orders: the order's hidden listing's id (NULL before it is found). */
export const listingOfOrder = sql`(SELECT ol.id FROM addresses ol WHERE ol.address = custom_orders.found_address)`;

/**
 * The settle batch's statement: the purchase of an order's listing completed in this batch delivers the order,
 * which reveals the offset to its buyer. Guarded by `found`, which expiry and cancelling never leave while a
 * purchase of the listing is open.
 */
export function deliverOrder(listingId: number, now: number, completedHere: SQL): SQL {
  return sql`UPDATE custom_orders SET status = 'delivered', updated_at = ${now}
             WHERE found_address = (SELECT address FROM addresses WHERE id = ${listingId}) AND status = 'found' AND ${completedHere}`;
}
