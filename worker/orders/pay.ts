// Paying a found order: the buyer reserves the order's hidden listing through the purchase machinery
// (worker/purchases/reserve.ts, with order-listing.ts's rule) and then pays on the ordinary purchase page.
// Everything about the payment — server price and fees, verification, escrow, refunds, settlement — is the
// purchase's; settling delivers the order.
import { sql } from "drizzle-orm";
import type { AuthSession } from "../auth/middleware";
import type { Db } from "../db";
import { decimalToUnits, unitsToDecimal } from "../../schema/money";
import { ApiError } from "../http/errors";
import type { RequestInfo } from "../http/request-info";
import { type Reservation, reserveListing } from "../purchases/reserve";
import { orderById } from "./orders";

export type OrderPayment = Reservation & { reused: boolean };

type OpenPurchase = { id: string; expires_at: number; price: string; total_amount: string; gas: string | null };

export async function payOrder(db: Db, env: Env, session: AuthSession, id: number, info: RequestInfo, now = Date.now()): Promise<OrderPayment> {
  const order = await orderById(db, id);
  // Only the buyer pays; to anyone else (admins too: they cannot pay for someone's key) the order does not exist.
  if (!order || order.buyerId !== session.userId) throw new ApiError(404, "Order not found");
  if (order.status !== "found" || order.foundAddress === null) {
    throw new ApiError(409, `This order is ${order.status}; ${order.status === "delivered" ? "it is already paid" : "only a found order can be paid"}`);
  }
  if (order.paymentDeadline === null || order.paymentDeadline <= now) throw new ApiError(409, "This order is past its payment deadline; it can no longer be paid");
  const listing = await db.get<{ id: number }>(sql`SELECT id FROM addresses WHERE address = ${order.foundAddress}`);
  if (!listing) throw new ApiError(409, "This order has no address to pay for yet");

  // Calling again while the buyer's reservation is open answers that reservation: one payment per order.
  const open = await db.get<OpenPurchase>(sql`
    SELECT t.id, t.expires_at, t.price, t.total_amount, (SELECT g.estimated_cost FROM gas_estimation_audit g WHERE g.transaction_id = t.id) AS gas
    FROM transactions t
    WHERE t.address_id = ${listing.id} AND t.buyer_id = ${session.userId}
      AND (t.status IN ('pending', 'verified') OR (t.status = 'initiated' AND t.expires_at >= ${now}))
    ORDER BY t.created_at DESC LIMIT 1`);
  if (open) {
    const gas = open.gas === null ? 0n : decimalToUnits(open.gas);
    return {
      id: open.id,
      expiresAt: open.expires_at,
      feeCalculation: { listingPrice: open.price, gasFee: unitsToDecimal(gas), totalAmount: unitsToDecimal(decimalToUnits(open.total_amount) + gas) },
      reused: true,
    };
  }
  return { ...(await reserveListing(db, env, session, { addressId: listing.id }, info, now)), reused: false };
}
