// Where a custom order stands for its buyer, from the order's status and its payment (the purchase made by
// POST /api/custom-orders/:id/pay): the order page and the profile's "My Orders" both read it from here.
import type { CustomOrderView } from "../../../../schema/custom-orders";

export type OrderStage = "waiting" | "grinding" | "pay" | "paying" | "paid" | "delivered" | "expired" | "unfilled" | "cancelled";

export function orderStage(order: Pick<CustomOrderView, "status" | "payment" | "address">): OrderStage {
  switch (order.status) {
    case "open":
      return "waiting";
    case "expired":
      // Expired with an address: found but not paid in time. Without one: not found by the grinding deadline.
      return order.address === null ? "unfilled" : "expired";
    case "found":
      // A payment sent and confirming (or settled a moment ago) is "paid"; a reservation not yet paid is "paying".
      if (!order.payment) return "pay";
      return order.payment.status === "initiated" ? "paying" : "paid";
    default:
      return order.status;
  }
}

export const STAGE_TEXT: Record<OrderStage, string> = {
  waiting: "Waiting for the grinder",
  grinding: "Being ground",
  pay: "Found: waiting for payment",
  paying: "Found: payment started",
  paid: "Paid: confirming the payment",
  delivered: "Delivered",
  expired: "Expired (not paid in time)",
  unfilled: "Expired: not found in time (nothing to pay)",
  cancelled: "Cancelled",
};

/** The short label of the profile's list. */
export const STAGE_LABEL: Record<OrderStage, string> = {
  waiting: "Waiting",
  grinding: "Grinding",
  pay: "Found: pay now",
  paying: "Payment started",
  paid: "Paid: confirming",
  delivered: "Delivered",
  expired: "Expired",
  unfilled: "Not found in time",
  cancelled: "Cancelled",
};

/** Cancelling gives the address up; never while a payment for it is under way or done. */
export const cancellable = (stage: OrderStage) => stage === "waiting" || stage === "grinding" || stage === "pay";
