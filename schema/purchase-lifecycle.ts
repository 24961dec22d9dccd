// The purchase lifecycle, declared once for the Worker, the web and the tests: the statuses a purchase (a row of
// `transactions`) can be in, the named sets every rule reasons with, and every transition the code writes, with
// what triggers it. Every status write in worker/purchases/ and worker/orders/ (and an accepted offer's
// reservation) takes its to-status and its from-statuses from PURCHASE_TRANSITIONS, and every SQL condition on a
// status takes a named set (worker/purchases/status-sql.ts), so this table and the code cannot drift; the
// transitions are stated once more as a table in docs/payments.md#the-lifecycle, which
// schema/purchase-lifecycle.test.ts holds against this one.
//
// `verified` stays a value of the column, never written: settling goes pending -> completed and releases the key
// in the same write, so no transition leads into it and migration 0030 makes the database refuse any INSERT or
// UPDATE that sets it. It stays in the union (and in OPEN and SOLD) because the product specification's
// transactions table names it and the partial indexes of migrations 0008 and 0015 are written with it: a row that
// somehow held it would still count as paid and as holding its listing, the safe reading.

export const PURCHASE_STATUSES = ["initiated", "pending", "verified", "completed", "failed", "cancelled", "expired"] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/** A set of statuses, in PURCHASE_STATUSES order. */
export type StatusSet<S extends PurchaseStatus = PurchaseStatus> = readonly S[];

/** Holding the listing: at most one such purchase per listing (index transactions_one_open_per_listing), counted against the buyer's bounds. */
export const OPEN = ["initiated", "pending", "verified"] as const satisfies StatusSet;
/** A payment may still complete it: it can be reported, waited on, settled, refused or closed by an admin. */
export const PAYABLE = ["initiated", "pending"] as const satisfies StatusSet;
/** Paid: the listing is sold and the buyer may reveal the key (indexes transactions_one_sale_per_listing, transactions_payment_settles_once). */
export const SOLD = ["verified", "completed"] as const satisfies StatusSet;
/** Its payment hash is recorded: reported and awaited, or paid with it. */
export const PAYMENT_RECORDED = ["pending", "verified", "completed"] as const satisfies StatusSet;
/** Ended: nothing moves it any more (a payment arriving later is listed for refund). */
export const TERMINAL = ["completed", "failed", "cancelled", "expired"] as const satisfies StatusSet;

export type OpenStatus = (typeof OPEN)[number];
export type SoldStatus = (typeof SOLD)[number];

/** Who or what makes a transition happen. `chain`: what the node says about a payment (on the buyer's report or in the cron job's runs). */
export type Trigger = "buyer" | "seller" | "admin" | "cron" | "chain";

export type Transition = {
  /** The statuses it moves from; empty for a purchase it creates. */
  from: StatusSet;
  to: PurchaseStatus;
  by: readonly Trigger[];
  /** What it means, as docs/payments.md#the-lifecycle says it. */
  what: string;
};

/** Every status write the code makes. */
export const PURCHASE_TRANSITIONS = {
  reserve: { from: [], to: "initiated", by: ["buyer"], what: "a buyer reserves a listing (purchases/reserve.ts)" },
  "offer-accept": { from: [], to: "initiated", by: ["seller", "admin"], what: "accepting an offer reserves the listing for its buyer (offers/answer.ts)" },
  "order-pay": { from: [], to: "initiated", by: ["buyer"], what: "paying a found custom order reserves its hidden listing (orders/pay.ts)" },
  report: { from: PAYABLE, to: "pending", by: ["buyer"], what: "the buyer reports a payment before expiry (purchases/buyer-actions.ts)" },
  wait: { from: PAYABLE, to: "pending", by: ["chain"], what: "the buyer's payment is seen, not yet final (purchases/verify.ts)" },
  settle: { from: PAYABLE, to: "completed", by: ["chain"], what: "a final payment of enough: listing sold, key released (purchases/settle.ts)" },
  reopen: { from: PAYABLE, to: "initiated", by: ["chain"], what: "the buyer's report is refused before expiry: payable again (purchases/verify.ts)" },
  reject: {
    from: PAYABLE,
    to: "failed",
    by: ["chain"],
    what: "the payment fails: refused after expiry, underpaid, listing sold, not found or unverified by a deadline (purchases/verify.ts)",
  },
  cancel: {
    from: ["initiated"],
    to: "cancelled",
    by: ["buyer"],
    what: "the buyer cancels a reservation with no payment reported (purchases/buyer-actions.ts)",
  },
  expire: {
    from: ["initiated"],
    to: "expired",
    by: ["cron", "buyer"],
    what: "an unpaid reservation runs out: the cron job, the listing's next reservation or a late report (purchases/payment-jobs.ts)",
  },
  "close-overdue": {
    from: ["pending"],
    to: "failed",
    by: ["cron"],
    what: "a pending purchase past its last deadline fails unverified (purchases/deadlines.ts)",
  },
  "admin-close": { from: PAYABLE, to: "failed", by: ["admin"], what: "an admin closes an unpaid purchase with a note (purchases/admin-close.ts)" },
} as const satisfies Record<string, Transition>;

/**
 * A market sale: a purchase that settled, not test data, and not a custom order's (its price is the quote's, set by
 * the marketplace's formula for a pattern its buyer chose, not a price the market paid for a listing). The one rule
 * the public sales and the recent feed, the market figures and trends and the value calibration count by
 * (docs/glossary.md); SQL writes it through worker/purchases/market-sale.ts, beside `paidPurchase` (any settled,
 * non-test purchase, a custom order's included), which the returning-buyer allowance counts by.
 */
export const MARKET_SALE = { status: PURCHASE_TRANSITIONS.settle.to, testData: false } as const;

export type TransitionName = keyof typeof PURCHASE_TRANSITIONS;
type Declared = typeof PURCHASE_TRANSITIONS;

/** The status transition `name` writes. */
export const transitionTo = <N extends TransitionName>(name: N): Declared[N]["to"] => PURCHASE_TRANSITIONS[name].to;
/** The statuses transition `name` moves from (a write's WHERE takes exactly these). */
export const transitionFrom = <N extends TransitionName>(name: N): Declared[N]["from"] => PURCHASE_TRANSITIONS[name].from;

/** Whether `status` is in `set` (a type guard: `isIn(SOLD, s)` narrows s to "verified" | "completed"). */
export function isIn<S extends PurchaseStatus>(set: readonly S[], status: PurchaseStatus): status is S {
  return (set as readonly PurchaseStatus[]).includes(status);
}

/** The statuses of `set` other than `drop`, in order. */
export function without<S extends PurchaseStatus, D extends S>(set: readonly S[], ...drop: D[]): readonly Exclude<S, D>[] {
  return set.filter((s): s is Exclude<S, D> => !(drop as readonly S[]).includes(s));
}
