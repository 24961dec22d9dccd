// Admin > Settings: the request shapes and their rules, shared by the Worker (which enforces them)
// and the admin panel (which shows the same messages). Decimals are strings, as everywhere money is (docs/api.md#conventions).
import * as v from "valibot";
import { NETWORKS } from "./constants";

// Each message is the problem alone, in the words the form's person reads ("enter a percentage such as 2.5"): the
// API answers "<field>: <problem>" and the problem per field (worker/http/validate.ts, docs/api.md#conventions),
// and the admin panel shows it at its field after the field's label ("Exchange fee: enter a percentage such as 2.5").

const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

/**
 * A decimal text: digits with at most one point, no sign, spaces or exponent; at most `decimals` places, at most `whole`
 * digits before the point, and at most `max`. `what` is what the person enters ("a percentage such as 2.5").
 */
const decimalText = (what: string, decimals: number, whole: number, max: number) =>
  v.pipe(
    v.string(`enter ${what}, written as text`),
    v.trim(),
    v.regex(DECIMAL, `enter ${what}`),
    // Each check passes what is no decimal at all, so a value gets one problem, not three.
    v.check((t) => !DECIMAL.test(t) || (t.split(".")[1]?.length ?? 0) <= decimals, `use at most ${decimals} decimals`),
    v.check((t) => !DECIMAL.test(t) || (t.split(".")[0].replace(/^0+(?=.)/, "").length <= whole && Number(t) <= max), `enter at most ${max}`),
  );

/** Percentages: 0 to 50 with at most 4 decimals (2.5 = 2.5%). */
export const MAX_FEE_PERCENT = 50;
/** Coin amounts for the minimum and maximum fee: at most 8 decimals (1e-8 units) and at most 1000 coins. */
export const MAX_FEE_AMOUNT = 1000;
/** How far ahead a fee change may be scheduled. */
export const MAX_FEE_SCHEDULE_DAYS = 365;
/** A change "now" sent by a browser whose clock is a little behind is still now, not the past. */
export const FEE_PAST_TOLERANCE_MS = 5 * 60_000;
/** Custom-order prices (ETH): at most 1000, 8 decimals. */
const MAX_QUOTE_PRICE = 1000;

const percent = decimalText("a percentage such as 2.5", 4, 3, MAX_FEE_PERCENT);
const coinAmount = decimalText("an amount such as 0.001", 8, 4, MAX_FEE_AMOUNT);
const quotePrice = (example: string) => decimalText(`a price in ETH such as ${example}`, 8, 8, MAX_QUOTE_PRICE);

export const FeeConfigRequest = v.object({
  network: v.picklist(NETWORKS, "choose ethereum or solana"),
  exchangeFeePercentage: percent,
  commissionFeePercentage: percent,
  minimumFee: coinAmount,
  /** null or omitted: no maximum. */
  maximumFee: v.optional(v.nullable(coinAmount), null),
  /** Multiplies the node's gas price for the Ethereum estimate: 1 to 5, at most 2 decimals. */
  gasFeeMultiplier: v.pipe(
    decimalText("a multiplier such as 1.2", 2, 1, 5),
    v.check((t: string) => !DECIMAL.test(t) || Number(t) >= 1, "enter at least 1 (1 charges the node's gas price as it is)"),
  ),
  /** ISO 8601 time from which the configuration applies; omitted: now. Not in the past, at most a year ahead. */
  effectiveFrom: v.optional(
    v.pipe(v.string("enter a date and time, written as text"), v.isoTimestamp("enter a date and time with a time zone, such as 2027-01-01T00:00:00Z")),
  ),
});
export type FeeConfigRequest = v.InferInput<typeof FeeConfigRequest>;

/** The custom-order quote (worker/domain/custom-orders/quote.ts); bounds as quoteConfig had for [vars]. */
export const HARDEST_ALLOWED_BITS = 44;
export const MAX_GRIND_RATE = 1_000_000_000_000;
const wholeNumber = (what: string, max: number) =>
  v.pipe(
    v.number(`enter a whole number of ${what}`),
    v.integer(`enter a whole number of ${what}`),
    v.minValue(1, `enter at least 1`),
    v.maxValue(max, `enter at most ${max}`),
  );
export const QuoteSettingsRequest = v.object({
  basePrice: quotePrice("0.005"),
  pricePerBillion: quotePrice("0.002"),
  maxPrice: quotePrice("0.5"),
  maxDifficultyBits: wholeNumber("bits", HARDEST_ALLOWED_BITS),
  grindRate: wholeNumber("candidates per second", MAX_GRIND_RATE),
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
