// Supply that runs itself (docs/supply.md): an admin's targets ("keep 20 Ethereum listings of 7 leading zeros at
// 0.05 ETH"), the grinders' claims on them, and the calls both make. Declared once for the Worker, the grinder
// and the web: the statuses of targets and claims with their named sets and every transition the code writes
// (the way schema/purchase-lifecycle.ts declares a purchase's), the bounds, the request shapes (valibot) and
// the answers. Mounted on /api/supply:
//   GET    /targets                         admin: every target with its stock, rate and estimated time to fill
//   POST   /targets {network, category, patternLength, price, wanted}   admin: a new target (active)
//   PATCH  /targets/:id {price?, wanted?}   admin: change a target's price or wanted count
//   POST   /targets/:id/pause               admin: grinders stop claiming it; its open claims end
//   POST   /targets/:id/resume              admin: claimable again
//   DELETE /targets/:id                     admin: the target goes; its open claims end
//   POST   /claims {grinder, label}         a grinder (admin session): claim work on the target that lacks most, or none
//   POST   /claims/:id/progress {grinder, attempts, rate}   the holder: its progress; renews the lease, says whether to go on
//   POST   /claims/:id/sealed {grinder, rows}               the holder: sealed hits, listed at the target's price
//   POST   /claims/:id/release {grinder}    the holder: gives the claim up now
import * as v from "valibot";
import { checkPrice } from "./money";
import type { BulkRowResult } from "./listings";
import type { Network } from "./db/columns";
import { networkName } from "./network";
export {
  CLAIM_CLOSED,
  CLAIM_OPEN,
  CLAIM_TRANSITIONS,
  SUPPLY_CATEGORIES,
  TARGET_TRANSITIONS,
} from "./supply-lifecycle";
export type { ClaimTransition, SupplyCategory, SupplyTargetStatus, TargetTransition } from "./supply-lifecycle";
import { SUPPLY_CATEGORIES, type SupplyCategory, type SupplyTargetStatus } from "./supply-lifecycle";

// ---- bounds -----------------------------------------------------------------------------------------------

/** Targets the store may have at once (each is a query per claim and a row on the admin page). */
export const MAX_SUPPLY_TARGETS = 50;
/** Most listings one target may want in stock. */
export const MAX_SUPPLY_WANTED = 500;
/** Grinders working on one target at once. */
export const MAX_OPEN_CLAIMS_PER_TARGET = 4;
/** Targets one grinder works on at once: one search runs at a time. */
export const MAX_OPEN_CLAIMS_PER_GRINDER = 1;
/** A claim lapses this long after its last report (a grinder reports every 10 s); the cron job closes it. */
export const SUPPLY_CLAIM_LEASE_MS = 2 * 60 * 1000;
/** Closed claims older than this are deleted by the cron job. */
export const SUPPLY_CLAIM_FORGET_MS = 7 * 24 * 3600_000;
/** Sealed rows per POST /claims/:id/sealed: a grinder sends each hit as it finds it. */
export const SUPPLY_SEALED_MAX_ROWS = 10;

export const SUPPLY_LENGTHS: Record<Network, Record<SupplyCategory, { min: number; max: number }>> = {
  ethereum: { "leading-zeros": { min: 3, max: 12 }, "trailing-zeros": { min: 3, max: 12 } },
  solana: { "leading-zeros": { min: 2, max: 6 }, "trailing-zeros": { min: 2, max: 8 } },
};

/** What a grinder searches for to stock a target: the category's characters at its end, `length` of them. */
export function supplyPattern(network: Network, category: SupplyCategory, length: number): { prefix: string; suffix: string; caseSensitive: boolean } {
  const zeros = (network === "ethereum" ? "0" : "1").repeat(length);
  return category === "leading-zeros" ? { prefix: zeros, suffix: "", caseSensitive: false } : { prefix: "", suffix: zeros, caseSensitive: false };
}

// ---- requests ---------------------------------------------------------------------------------------------

// The price's problem in the listings' words ("Price is required", "Price can have at most 8 decimal places"): the
// form shows it under its Price field.
const priceField = v.pipe(
  v.string("price must be a decimal as text"),
  v.check(
    (t) => checkPrice(t).ok,
    (issue) => {
      const checked = checkPrice(issue.input);
      return checked.ok ? "" : checked.message;
    },
  ),
);

/** "Ethereum leading zeros take 3 to 12 characters": a refused length, in the form's words. */
function lengthProblem(network: Network, category: SupplyCategory): string {
  const { min, max } = SUPPLY_LENGTHS[network][category];
  return `${networkName(network)} ${category.replace("-", " ")} take ${min} to ${max} characters`;
}

// One problem for every way a count is wrong, in the words the form shows under "Keep in stock".
const WANTED_PROBLEM = `Enter a whole number from 1 to ${MAX_SUPPLY_WANTED}`;
const wantedField = v.pipe(v.number(WANTED_PROBLEM), v.integer(WANTED_PROBLEM), v.minValue(1, WANTED_PROBLEM), v.maxValue(MAX_SUPPLY_WANTED, WANTED_PROBLEM));

export const createTargetBody = v.pipe(
  v.strictObject(
    {
      network: v.picklist(["ethereum", "solana"], "network must be ethereum or solana"),
      category: v.picklist(SUPPLY_CATEGORIES, `category must be one of ${SUPPLY_CATEGORIES.join(", ")}`),
      patternLength: v.pipe(v.number("patternLength must be a number"), v.integer("patternLength must be a whole number")),
      price: priceField,
      wanted: wantedField,
    },
    "only network, category, patternLength, price and wanted may be sent",
  ),
  // At the length's path, so a refusal's `fields` names it; checked whenever the three fields are valid, even when
  // the price or the count is refused too, so the form shows every problem at once.
  v.forward(
    v.partialCheck(
      [["network"], ["category"], ["patternLength"]],
      ({ network, category, patternLength }) => {
        const { min, max } = SUPPLY_LENGTHS[network][category];
        return patternLength >= min && patternLength <= max;
      },
      (issue) => {
        const { network, category } = issue.input as { network: Network; category: SupplyCategory };
        return lengthProblem(network, category);
      },
    ),
    ["patternLength"],
  ),
);
export type CreateTargetBody = v.InferOutput<typeof createTargetBody>;

export const editTargetBody = v.pipe(
  v.strictObject({ price: v.optional(priceField), wanted: v.optional(wantedField) }, "only price and wanted may be changed"),
  v.check((b) => b.price !== undefined || b.wanted !== undefined, "send price, wanted or both"),
);

const grinderId = v.pipe(v.string("grinder must be text"), v.regex(/^[A-Za-z0-9_-]{16,64}$/, "grinder must be 16 to 64 letters, digits, - or _"));

export const supplyClaimBody = v.strictObject({
  grinder: grinderId,
  label: v.pipe(
    v.string("label must be text"),
    v.trim(),
    v.minLength(1, "label must say what the grinder runs on"),
    v.maxLength(80, "label may have at most 80 characters"),
    v.regex(/^[\x20-\x7e]*$/, "label must be printable ASCII"),
  ),
});

export const supplyHolderBody = v.strictObject({ grinder: grinderId });

export const supplyProgressBody = v.strictObject({
  grinder: grinderId,
  attempts: v.pipe(v.number("attempts must be a number"), v.safeInteger("attempts must be a whole number"), v.minValue(0, "attempts must not be negative")),
  rate: v.pipe(
    v.number("rate must be a number"),
    v.finite("rate must be finite"),
    v.minValue(0, "rate must not be negative"),
    v.maxValue(1_000_000_000_000, "rate is not believable"),
  ),
});

// ---- answers ----------------------------------------------------------------------------------------------

/** One target as Admin > Supply shows it. */
export type SupplyTargetView = {
  id: number;
  network: Network;
  category: SupplyCategory;
  patternLength: number;
  price: string;
  currency: "ETH" | "SOL";
  wanted: number;
  status: SupplyTargetStatus;
  /** active listings of this network and category with a pattern of at least patternLength characters */
  stock: number;
  /** keys per second, the latest reports of its open claims together */
  rate: number;
  openClaims: number;
  /** keys one hit takes on average (2^bits), a decimal string */
  expectedAttempts: string;
  /** seconds to fill the shortfall at the current rate; 0 when full, null when nobody grinds it */
  secondsToFill: number | null;
  createdAt: string;
  updatedAt: string;
};

export type SupplyTargetList = { targets: SupplyTargetView[]; maxTargets: number };

/** What a grinder searches for under its claim. */
export type SupplyClaimView = {
  id: number;
  targetId: number;
  network: Network;
  category: SupplyCategory;
  patternLength: number;
  prefix: string;
  suffix: string;
  caseSensitive: boolean;
  price: string;
  currency: "ETH" | "SOL";
  /** how many more listings the target wants now */
  shortfall: number;
  expectedAttempts: string;
};

export type SupplyClaimAnswer = { claim: SupplyClaimView | null; leaseSeconds: number };
/** A progress report's answer: go on (the claim renewed) or stop (the claim ended: the target is full or paused). */
export type SupplyProgressAnswer = { continue: boolean; leaseSeconds: number };

/** POST /claims/:id/sealed answer: one result per row (as the bulk upload's), and whether to go on grinding. */
export type SupplySealedAnswer = { results: BulkRowResult[]; continue: boolean };
