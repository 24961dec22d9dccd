// Paying a found order: the buyer reserves the order's hidden listing through the purchase machinery
// (worker/purchases/reserve.ts, with order-listing.ts's rule) and then pays on the ordinary purchase page.
// Everything about the payment — server price and fees, verification, escrow, refunds, settlement — is the
// purchase's; settling delivers the order.
import type { Deployment } from "../deployment/deployment";
import { eq } from "drizzle-orm";
import { addresses } from "../../schema/db";
import type { AuthSession } from "../auth/middleware";
import type { Db } from "../db/database";
import { ApiError } from "../http/errors";
import type { RequestInfo } from "../http/request-info";
import { type BuyerReservation, openReservationOf, reserveListing } from "../purchases/reserve";
import { orderById } from "./orders";
import { orderTo } from "../../schema/order-lifecycle";

export type OrderPayment = BuyerReservation;

export async function payOrder(db: Db, deployment: Deployment, session: AuthSession, id: number, info: RequestInfo, now = Date.now()): Promise<OrderPayment> {
  const order = await orderById(db, id);
  // Only the buyer pays; to anyone else (admins too: they cannot pay for someone's key) the order does not exist.
  if (!order || order.buyerId !== session.userId) throw new ApiError(404, "Order not found");
  if (order.status !== orderTo("submit") || order.foundAddress === null) {
    throw new ApiError(409, `This order is ${order.status}; ${order.status === orderTo("deliver") ? "it is already paid" : "only a found order can be paid"}`);
  }
  if (order.paymentDeadline === null || order.paymentDeadline <= now)
    throw new ApiError(409, "This order is past its payment deadline; it can no longer be paid");
  const listing = await db.select({ id: addresses.id }).from(addresses).where(eq(addresses.address, order.foundAddress)).get();
  if (!listing) throw new ApiError(409, "This order has no address to pay for yet");

  // Calling again while the buyer's reservation is open answers that reservation: one payment per order.
  const open = await openReservationOf(db, listing.id, session.userId, now);
  if (open) return { ...open, reused: true };
  return { ...(await reserveListing(db, deployment, session, { addressId: listing.id }, info, now)), reused: false };
}
