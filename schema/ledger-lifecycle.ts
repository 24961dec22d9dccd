// The ledger of received payments (escrow_transactions), declared like the purchase's lifecycle
// (schema/purchase-lifecycle.ts): a row's status and its refund status, the sets the rules reason with and every
// transition the code writes. SQL in worker/purchases and worker/operations names them only through
// worker/purchases/ledger-sql.ts; docs/payments.md#the-ledger states the same tables, which
// schema/ledger-lifecycle.test.ts holds against these.

/** held: seen for its purchase, not yet final. released: credited to its purchase. refund: owed back (or ignored, as dust). */
export const LEDGER_STATUSES = ["held", "released", "refund"] as const;
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];

/** What is owed back, when anything is: needed until an admin marks it refunded or dismisses it; ignored is dust. */
export const REFUND_STATUSES = ["needed", "refunded", "dismissed", "ignored"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Still moving: its purchase may settle with it or refuse it. Every other ledger status is final (the upsert's WHERE). */
export const LEDGER_HELD = ["held"] as const satisfies readonly LedgerStatus[];
/** Final: the payment was credited or is owed back; nothing moves the row's status again. */
export const LEDGER_FINAL = ["released", "refund"] as const satisfies readonly LedgerStatus[];
/** Owed back and not yet done: what Admin > Payments lists, the alerts tell and Health counts. */
export const REFUND_OWED = ["needed"] as const satisfies readonly RefundStatus[];
/** Closed: refunded or dismissed by an admin, or never owed (dust). */
export const REFUND_CLOSED = ["refunded", "dismissed", "ignored"] as const satisfies readonly RefundStatus[];

type Trigger = "chain" | "admin";
type Transition<S extends string> = {
  /** The statuses it moves from; empty for a row (or a refund) it creates. */
  from: readonly S[];
  to: S;
  /** Also written as a new row when no row was held for the hash (one upsert does both). */
  orNew: boolean;
  by: readonly Trigger[];
  what: string;
};

/** Every write of escrow_transactions.status. */
export const LEDGER_TRANSITIONS = {
  hold: { from: [], to: "held", orNew: true, by: ["chain"], what: "a payment for its purchase is seen, not yet final (purchases/verify.ts)" },
  release: { from: ["held"], to: "released", orNew: true, by: ["chain"], what: "its purchase settles with it (purchases/settle.ts)" },
  refuse: {
    from: ["held"],
    to: "refund",
    orNew: true,
    by: ["chain"],
    what: "its purchase cannot take it: late, partial, a duplicate or the listing sold first (purchases/verify.ts)",
  },
  unclaimed: {
    from: [],
    to: "refund",
    orNew: true,
    by: ["chain"],
    what: "a transfer to the platform no purchase accounts for (purchases/reconcile.ts)",
  },
} as const satisfies Record<string, Transition<LedgerStatus>>;

/** Every write of escrow_transactions.refund_status. */
export const REFUND_TRANSITIONS = {
  owe: { from: [], to: "needed", orNew: true, by: ["chain"], what: "an amount above dust is owed back (domain/dust.ts refundStatusFor)" },
  ignore: { from: [], to: "ignored", orNew: true, by: ["chain"], what: "an amount below dust is recorded, never owed (domain/dust.ts)" },
  "mark-refunded": {
    from: ["needed"],
    to: "refunded",
    orNew: false,
    by: ["admin"],
    what: "an admin sent it back, re-checked on the chain first (purchases/refunds.ts)",
  },
  dismiss: { from: ["needed"], to: "dismissed", orNew: false, by: ["admin"], what: "an admin closes it with a note (purchases/refunds.ts)" },
} as const satisfies Record<string, Transition<RefundStatus>>;

type Ledger = typeof LEDGER_TRANSITIONS;
type Refund = typeof REFUND_TRANSITIONS;
/** The ledger status transition `name` writes. */
export const ledgerTo = <N extends keyof Ledger>(name: N): Ledger[N]["to"] => LEDGER_TRANSITIONS[name].to;
/** The refund status transition `name` writes. */
export const refundTo = <N extends keyof Refund>(name: N): Refund[N]["to"] => REFUND_TRANSITIONS[name].to;
/** Whether `status` is in `set` (of either column). */
export const inLedgerSet = <S extends string>(set: readonly S[], status: S | null): boolean => status !== null && set.includes(status);
