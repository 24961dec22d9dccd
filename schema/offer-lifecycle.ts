// The offer lifecycle, declared once for the Worker and the tests, as the purchase's is (schema/purchase-lifecycle.ts):
// the named sets every rule reasons with and every transition that writes an offer's status, with what makes it
// happen. Every status in worker/offers/ is named through these (worker/offers/status-sql.ts for SQL), the triggers
// of migration 0038 write the `trigger` transitions, and docs/offers.md#states states the same table, which
// schema/offer-lifecycle.test.ts holds against this one.
import { OFFER_STATUSES, type OfferStatus } from "./offers";

export { OFFER_STATUSES, type OfferStatus };

/** A set of offer statuses, in OFFER_STATUSES order. */
type OfferSet = readonly OfferStatus[];

/**
 * Waiting: open, or paused behind an accepted offer (each may be accepted once it is open again). What the bounds
 * count, what the buyer may withdraw, what the clock expires; the partial indexes of migration 0038 are written with
 * exactly these.
 */
export const WAITING = ["open", "paused"] as const satisfies OfferSet;
/** Not ended: the buyer's current offer on a listing, kept from the purge. */
export const CURRENT = ["open", "accepted", "paused"] as const satisfies OfferSet;
/** Ended: nothing moves it any more; deleted OFFER_RETENTION_DAYS after it ended. */
export const ENDED = ["declined", "withdrawn", "expired", "lapsed", "completed"] as const satisfies OfferSet;
/** Reached by an answer, a trigger or the clock, and told to the buyer by the cron job when not told in the write. */
export const TOLD = ["accepted", ...ENDED] as const satisfies OfferSet;

/** Who or what makes a transition happen. `trigger`: a database trigger of migration 0038, in the same transaction as a listing's or a purchase's write. */
type Trigger = "buyer" | "seller" | "admin" | "cron" | "trigger";

type Transition = {
  /** The statuses it moves from; empty for an offer it creates. */
  from: OfferSet;
  to: OfferStatus;
  by: readonly Trigger[];
  /** What it means, as docs/offers.md#states says it. */
  what: string;
};

/** Every status write: the code's and the triggers'. */
export const OFFER_TRANSITIONS = {
  make: { from: [], to: "open", by: ["buyer"], what: "a buyer offers below the ask (offers/make.ts)" },
  withdraw: { from: WAITING, to: "withdrawn", by: ["buyer"], what: "the buyer withdraws a waiting offer (offers/make.ts)" },
  accept: {
    from: ["open"],
    to: "accepted",
    by: ["seller", "admin"],
    what: "the seller accepts: the listing is reserved for its buyer at the offered price (offers/answer.ts)",
  },
  pause: { from: ["open"], to: "paused", by: ["seller", "admin"], what: "another offer on the listing is accepted (offers/answer.ts)" },
  decline: { from: ["open"], to: "declined", by: ["seller", "admin"], what: "the seller declines (offers/answer.ts)" },
  expire: {
    from: WAITING,
    to: "expired",
    by: ["cron", "buyer"],
    what: "its time runs out: the cron job, or the buyer's next offer on the listing (offers/offer-job.ts, offers/make.ts)",
  },
  "end-with-listing": {
    from: WAITING,
    to: "expired",
    by: ["trigger"],
    what: "the ask changes, or the listing sells, is unlisted, deactivated or deleted (offers_end_on_listing_change)",
  },
  "decline-paused": {
    from: ["paused"],
    to: "declined",
    by: ["trigger"],
    what: "the accepted offer's sale completes (offers_complete_with_purchase, offers_end_on_listing_change)",
  },
  reopen: { from: ["paused"], to: "open", by: ["trigger"], what: "the accepted offer's reservation ends unpaid (offers_lapse_with_purchase)" },
  lapse: { from: ["accepted"], to: "lapsed", by: ["trigger"], what: "its reservation ends unpaid (offers_lapse_with_purchase)" },
  complete: { from: ["accepted"], to: "completed", by: ["trigger"], what: "its reservation is paid (offers_complete_with_purchase)" },
} as const satisfies Record<string, Transition>;

export type OfferTransitionName = keyof typeof OFFER_TRANSITIONS;
type Declared = typeof OFFER_TRANSITIONS;

/** The status transition `name` writes. */
export const offerTo = <N extends OfferTransitionName>(name: N): Declared[N]["to"] => OFFER_TRANSITIONS[name].to;
/** Whether an offer in `status` may take transition `name` (a TypeScript check; SQL takes canMove). */
export const offerCan = (name: OfferTransitionName, status: OfferStatus): boolean => (OFFER_TRANSITIONS[name].from as OfferSet).includes(status);
/** Whether `status` is in `set`. */
export const offerIn = (set: OfferSet, status: OfferStatus): boolean => set.includes(status);
