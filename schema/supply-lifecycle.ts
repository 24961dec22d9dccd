// The statuses of supply targets and claims, their named sets and transitions, and the categories a target may
// ask for: what the table definitions (schema/db/supply.ts) build their enums from. Kept apart from schema/supply.ts,
// whose request shapes read the price rules (schema/money.ts): the tables importing those would be an import cycle.
// schema/supply.ts re-exports everything here.

// ---- statuses and their transitions -----------------------------------------------------------------------

/** active: grinders may claim it; paused: an admin stopped it (its stock still shows). Deleting removes the row. */
export const SUPPLY_TARGET_STATUSES = ["active", "paused"] as const;
export type SupplyTargetStatus = (typeof SUPPLY_TARGET_STATUSES)[number];

/**
 * open: a grinder works on it and reports within the lease; released: the grinder gave it up; expired: no report
 * within the lease, the cron job closed it; ended: the server closed it (the target filled, paused or deleted).
 */
export const SUPPLY_CLAIM_STATUSES = ["open", "released", "expired", "ended"] as const;
export type SupplyClaimStatus = (typeof SUPPLY_CLAIM_STATUSES)[number];

/** A claim a grinder may still report on, list under and release; counted against the bounds. */
export const CLAIM_OPEN = ["open"] as const satisfies readonly SupplyClaimStatus[];
/** Closed: nothing moves it any more; the cron job forgets it after SUPPLY_CLAIM_FORGET_MS. */
export const CLAIM_CLOSED = ["released", "expired", "ended"] as const satisfies readonly SupplyClaimStatus[];

type Trigger = "admin" | "grinder" | "cron" | "server";
type Transition<S extends string> = { from: readonly S[]; to: S; by: readonly Trigger[]; what: string };

/** Every status write to supply_targets (worker/supply/targets.ts takes its from and to from here). */
export const TARGET_TRANSITIONS = {
  create: { from: [], to: "active", by: ["admin"], what: "an admin sets a target" },
  pause: { from: ["active"], to: "paused", by: ["admin"], what: "an admin pauses a target; its open claims end" },
  resume: { from: ["paused"], to: "active", by: ["admin"], what: "an admin resumes a paused target" },
} as const satisfies Record<string, Transition<SupplyTargetStatus>>;

/** Every status write to supply_claims (worker/supply/claims.ts takes its from and to from here). */
export const CLAIM_TRANSITIONS = {
  claim: { from: [], to: "open", by: ["grinder"], what: "a grinder claims work on a target that lacks stock" },
  release: { from: CLAIM_OPEN, to: "released", by: ["grinder"], what: "the grinder gives the claim up (stopped, or moving on)" },
  expire: { from: CLAIM_OPEN, to: "expired", by: ["cron"], what: "no report within the lease: the cron job closes it" },
  end: {
    from: CLAIM_OPEN,
    to: "ended",
    by: ["server", "admin"],
    what: "the target is full, paused or deleted: the next report or listing is told to stop",
  },
} as const satisfies Record<string, Transition<SupplyClaimStatus>>;

export type TargetTransition = keyof typeof TARGET_TRANSITIONS;
export type ClaimTransition = keyof typeof CLAIM_TRANSITIONS;

/**
 * The categories a grinder can aim at, and the pattern lengths a target may ask for per network: from the
 * shortest the rarity engine calls notable (docs/rarity.md) to about 2^48 keys a hit (a day of one GPU).
 * Ethereum's zeros are hex '0' (4 bits each); Solana's leading zeros are '1' characters (zero bytes, 8 bits each),
 * its trailing ones '1' characters of base58 (5.86 bits each).
 */
export const SUPPLY_CATEGORIES = ["leading-zeros", "trailing-zeros"] as const;
export type SupplyCategory = (typeof SUPPLY_CATEGORIES)[number];
