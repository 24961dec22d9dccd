// The custom order lifecycle (docs/custom-orders.md#the-flow), declared like the purchase's
// (schema/purchase-lifecycle.ts): the sets every rule reasons with and every transition that writes an order's
// status. Code in worker/orders names statuses only through these (SQL through worker/orders/status-sql.ts), and
// schema/order-lifecycle.test.ts holds docs/custom-orders.md's tables and the partial indexes against them.
import { CUSTOM_ORDER_STATUSES, type CustomOrderStatus } from "./db/custom-orders";

export { CUSTOM_ORDER_STATUSES, type CustomOrderStatus };

type OrderSet = readonly CustomOrderStatus[];

/** Waiting for a grinder: what the queue shows and a grinder may claim; the grind deadline's index is written with these. */
export const ORDER_WAITING = ["open", "grinding"] as const satisfies OrderSet;
/** Not finished: counted against the wallet's MAX_UNFINISHED_ORDERS; the buyer may still cancel it. */
export const ORDER_UNFINISHED = ["open", "grinding", "found"] as const satisfies OrderSet;
/** Ended: nothing moves it any more. A found address of an expired or cancelled order is never offered to anyone. */
export const ORDER_ENDED = ["delivered", "expired", "cancelled"] as const satisfies OrderSet;
/** Ended with an address nobody will pay for: its hidden listing is taken off the market. */
export const ORDER_WITHDRAWN = ["expired", "cancelled"] as const satisfies OrderSet;

type Trigger = "buyer" | "grinder" | "chain" | "cron";

type Transition = {
  /** The statuses it moves from; empty for an order it creates. */
  from: OrderSet;
  to: CustomOrderStatus;
  by: readonly Trigger[];
  /** What it means, as docs/custom-orders.md#the-flow says it. */
  what: string;
};

/** Every status write the code makes. */
export const ORDER_TRANSITIONS = {
  place: { from: [], to: "open", by: ["buyer"], what: "a signed-in buyer orders a pattern at the quoted price (orders/place.ts)" },
  claim: {
    from: ["open", "grinding"],
    to: "grinding",
    by: ["grinder"],
    what: "a grinder claims a waiting order, or one whose claim lapsed, before its grind deadline (orders/fulfil.ts)",
  },
  release: { from: ["grinding"], to: "open", by: ["grinder"], what: "the claim's holder gives it back to the queue (orders/fulfil.ts)" },
  submit: {
    from: ["grinding"],
    to: "found",
    by: ["grinder"],
    what: "the claim's holder submits an offset whose address matches; payment is due within 72 hours (orders/fulfil.ts)",
  },
  deliver: { from: ["found"], to: "delivered", by: ["chain"], what: "its hidden listing's purchase settles (orders/order-listing.ts)" },
  cancel: {
    from: ORDER_UNFINISHED,
    to: "cancelled",
    by: ["buyer"],
    what: "the buyer withdraws it while no payment of it is in progress (orders/orders.ts)",
  },
  "expire-unpaid": { from: ["found"], to: "expired", by: ["cron"], what: "found, not paid by its payment deadline (orders/orders.ts)" },
  "expire-unfound": { from: ORDER_WAITING, to: "expired", by: ["cron"], what: "not found by its grind deadline (orders/orders.ts)" },
} as const satisfies Record<string, Transition>;

export type OrderTransitionName = keyof typeof ORDER_TRANSITIONS;
type Declared = typeof ORDER_TRANSITIONS;

/** The status transition `name` writes. */
export const orderTo = <N extends OrderTransitionName>(name: N): Declared[N]["to"] => ORDER_TRANSITIONS[name].to;
/** Whether `status` is in `set`. */
export const orderIn = (set: OrderSet, status: CustomOrderStatus): boolean => set.includes(status);
