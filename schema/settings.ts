// Admin > Settings (issue 24 §2): the request shapes and their rules, shared by the Worker (which enforces them)
// and the admin panel (which shows the same messages). Decimals are strings, as everywhere money is (DESIGN §3).
import * as v from "valibot";
import { NETWORKS } from "./constants";

/** A decimal text with at most `decimals` places and at most `whole` digits before the point; no sign, no exponent. */
const decimalText = (name: string, decimals: number, whole: number) =>
  v.pipe(
    v.string(`${name} must be a decimal number written as text, such as "1.5"`),
    v.trim(),
    v.regex(/^[0-9]+(\.[0-9]+)?$/, `${name} must be a non-negative decimal number (digits and one point, no sign or exponent)`),
    v.check((t) => (t.split(".")[1]?.length ?? 0) <= decimals, `${name} may have at most ${decimals} decimals`),
    v.check((t) => t.split(".")[0].replace(/^0+(?=.)/, "").length <= whole, `${name} is too large`),
  );

const atMost = (name: string, max: number) => v.check((t: string) => Number(t) <= max, `${name} must be at most ${max}`);
const atLeast = (name: string, min: number) => v.check((t: string) => Number(t) >= min, `${name} must be at least ${min}`);

/** Percentages: 0 to 50 with at most 4 decimals (2.5 = 2.5%). */
export const MAX_FEE_PERCENT = 50;
/** Coin amounts for the minimum and maximum fee: at most 8 decimals (1e-8 units) and at most 1000 coins. */
export const MAX_FEE_AMOUNT = 1000;
/** How far ahead a fee change may be scheduled. */
export const MAX_FEE_SCHEDULE_DAYS = 365;
/** A change "now" sent by a browser whose clock is a little behind is still now, not the past. */
export const FEE_PAST_TOLERANCE_MS = 5 * 60_000;

const percent = (name: string) => v.pipe(decimalText(name, 4, 3), atMost(name, MAX_FEE_PERCENT));
const coinAmount = (name: string) => v.pipe(decimalText(name, 8, 4), atMost(name, MAX_FEE_AMOUNT));

export const FeeConfigRequest = v.object({
  network: v.picklist(NETWORKS, "network must be ethereum or solana"),
  exchangeFeePercentage: percent("exchangeFeePercentage"),
  commissionFeePercentage: percent("commissionFeePercentage"),
  minimumFee: coinAmount("minimumFee"),
  /** null or omitted: no maximum. */
  maximumFee: v.optional(v.nullable(coinAmount("maximumFee")), null),
  /** Multiplies the node's gas price for the Ethereum estimate: 1 to 5, at most 2 decimals. */
  gasFeeMultiplier: v.pipe(decimalText("gasFeeMultiplier", 2, 1), atLeast("gasFeeMultiplier", 1), atMost("gasFeeMultiplier", 5)),
  /** ISO 8601 time from which the configuration applies; omitted: now. Not in the past, at most a year ahead. */
  effectiveFrom: v.optional(
    v.pipe(
      v.string("effectiveFrom must be an ISO 8601 date and time"),
      v.isoTimestamp("effectiveFrom must be an ISO 8601 date and time with a time zone, such as 2027-01-01T00:00:00Z"),
    ),
  ),
});
export type FeeConfigRequest = v.InferInput<typeof FeeConfigRequest>;

/** The custom-order quote (worker/domain/custom-orders/quote.ts); bounds as quoteConfig had for [vars]. */
export const HARDEST_ALLOWED_BITS = 44;
export const MAX_GRIND_RATE = 1_000_000_000_000;
export const QuoteSettingsRequest = v.object({
  basePrice: v.pipe(decimalText("basePrice", 8, 8), atMost("basePrice", 1000)),
  pricePerBillion: v.pipe(decimalText("pricePerBillion", 8, 8), atMost("pricePerBillion", 1000)),
  maxPrice: v.pipe(decimalText("maxPrice", 8, 8), atMost("maxPrice", 1000)),
  maxDifficultyBits: v.pipe(
    v.number("maxDifficultyBits must be a whole number"),
    v.integer("maxDifficultyBits must be a whole number"),
    v.minValue(1, "maxDifficultyBits must be at least 1"),
    v.maxValue(HARDEST_ALLOWED_BITS, `maxDifficultyBits must be at most ${HARDEST_ALLOWED_BITS}`),
  ),
  grindRate: v.pipe(
    v.number("grindRate must be a whole number of candidates per second"),
    v.integer("grindRate must be a whole number of candidates per second"),
    v.minValue(1, "grindRate must be at least 1"),
    v.maxValue(MAX_GRIND_RATE, `grindRate must be at most ${MAX_GRIND_RATE}`),
  ),
});
export type QuoteSettingsRequest = v.InferInput<typeof QuoteSettingsRequest>;

// ---- answers --------------------------------------------------------------------------------------------

export type FeeConfigRow = {
  id: number;
  network: (typeof NETWORKS)[number];
  exchangeFeePercentage: string;
  commissionFeePercentage: string;
  minimumFee: string;
  maximumFee: string | null;
  gasFeeMultiplier: string;
  effectiveFrom: string;
  /** in force now, scheduled (effective later) or superseded (an older one). */
  state: "in-force" | "scheduled" | "superseded";
  createdBy: string | null;
  createdAt: string | null;
};

export type QuoteSettingsRow = {
  id: number;
  basePrice: string;
  pricePerBillion: string;
  maxPrice: string;
  maxDifficultyBits: number;
  grindRate: number;
  createdBy: string | null;
  createdAt: string;
};

export type SettingsAuditEntry = { action: string; performedBy: string | null; at: string; details: unknown };

export type SettingsResponse = {
  fees: FeeConfigRow[];
  quote: QuoteSettingsRow[];
  audit: SettingsAuditEntry[];
};
