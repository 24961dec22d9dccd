// The price of a custom order: a bounded function of its difficulty (docs/custom-orders.md#the-quote).
//
//   price = min(maxPrice, basePrice + ceil(expectedAttempts x pricePerBillion / 10^9))
//
// expectedAttempts = 2^bits (orderDifficultyBits). The base covers handling an order however easy; the
// per-billion part pays for grinding time, which grows with the attempts; the maximum keeps a quote finite.
// Patterns above maxDifficultyBits are refused: they would keep the grinder busy longer than an order can
// reasonably wait (the reason names the expected time at the configured grinding rate).
// All amounts are exact 1e-8 ETH units (docs/api.md#conventions); no float touches a price.
import { orderDifficultyBits, orderExpectedAttempts, type OrderPattern } from "../../../schema/custom-order-pattern";
import { decimalToUnits, mulDiv, unitsToDecimal } from "../../../schema/money";
import { STORE_GRINDER_RATES } from "../../../schema/grinder-rates";
import { HARDEST_ALLOWED_BITS, MAX_GRIND_RATE } from "../../../schema/settings";

export type QuoteConfig = {
  basePriceUnits: bigint;
  pricePerBillionUnits: bigint;
  maxPriceUnits: bigint;
  /** Orders harder than 2^maxDifficultyBits expected attempts are refused. */
  maxDifficultyBits: number;
  /** The grinder's measured candidates per second (all its cores), for time estimates. */
  grindRate: number;
};

/**
 * The quote when no settings row exists; migration 0025 writes the same into D1 where no admin changed the quote.
 * The rate is one production GPU with margin: the split-key kernel measured 2,634-2,700 M candidates/s on an NVIDIA
 * H200 (docs/benchmarks.md), and the quote promises 2,000 M/s. The cap, 2^44 expected attempts, is about 2.4 hours
 * of grinding at that rate, and 99.9% of such orders are found within 17 hours: far inside the week an order has
 * (CUSTOM_ORDER_GRIND_HOURS), with room for a queue. docs/custom-orders.md#the-quote
 */
export const QUOTE_DEFAULTS = {
  basePrice: "0.005",
  pricePerBillion: "0.002",
  maxPrice: "0.5",
  maxDifficultyBits: 44,
  grindRate: STORE_GRINDER_RATES.ethereum.gpu,
} as const;

/** Absolute ceiling on the configurable cap (the settings table's CHECK): 2^44 is hours on one GPU, months on a CPU core. */
export { HARDEST_ALLOWED_BITS };

export type QuoteSettings = { basePrice: string; pricePerBillion: string; maxPrice: string; maxDifficultyBits: number; grindRate: number };

/**
 * The quote from the settings row in force (custom_order_quote_settings, written through Admin > Settings with
 * the rules of schema/settings.ts and the table's CHECKs). Defensive all the same: a malformed value falls back
 * to its default rather than mispricing orders, and the maximum is never below the base.
 */
export function quoteConfigFromRow(row: QuoteSettings | null): QuoteConfig {
  const s = row ?? QUOTE_DEFAULTS;
  const units = (value: string, fallback: string) => {
    try {
      return decimalToUnits(value);
    } catch {
      return decimalToUnits(fallback);
    }
  };
  const whole = (raw: number, min: number, max: number, fallback: number) => (Number.isInteger(raw) && raw >= min && raw <= max ? raw : fallback);
  const base = units(s.basePrice, QUOTE_DEFAULTS.basePrice);
  const max = units(s.maxPrice, QUOTE_DEFAULTS.maxPrice);
  return {
    basePriceUnits: base,
    pricePerBillionUnits: units(s.pricePerBillion, QUOTE_DEFAULTS.pricePerBillion),
    maxPriceUnits: max >= base ? max : base,
    maxDifficultyBits: whole(s.maxDifficultyBits, 1, HARDEST_ALLOWED_BITS, QUOTE_DEFAULTS.maxDifficultyBits),
    grindRate: whole(s.grindRate, 1, MAX_GRIND_RATE, QUOTE_DEFAULTS.grindRate),
  };
}

export type Quote = {
  difficultyBits: number;
  expectedAttempts: bigint;
  /** Expected grinding time at the configured rate. */
  estimatedSeconds: number;
  priceUnits: bigint;
  price: string;
  /** null when the order may be placed; otherwise why not. */
  refusal: string | null;
};

const ONE_BILLION = 1_000_000_000n;

function readableDuration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} seconds`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} minutes`;
  if (seconds < 48 * 3600) return `${Math.round(seconds / 3600)} hours`;
  return `${Math.round(seconds / 86400)} days`;
}

export function quoteOrder(pattern: OrderPattern, config: QuoteConfig): Quote {
  const difficultyBits = orderDifficultyBits(pattern);
  const expectedAttempts = orderExpectedAttempts(pattern);
  const estimatedSeconds = Number(expectedAttempts) / config.grindRate;
  const grinding = mulDiv(expectedAttempts, config.pricePerBillionUnits, ONE_BILLION, "up");
  const uncapped = config.basePriceUnits + grinding;
  const priceUnits = uncapped < config.maxPriceUnits ? uncapped : config.maxPriceUnits;
  const refusal =
    difficultyBits > config.maxDifficultyBits
      ? `Too hard to order: this pattern needs about 2^${difficultyBits} attempts (${readableDuration(estimatedSeconds)} of grinding); ` +
        `the most we take is 2^${config.maxDifficultyBits} (${readableDuration(Number(1n << BigInt(config.maxDifficultyBits)) / config.grindRate)}). ` +
        "Shorten the pattern or turn off case sensitivity."
      : null;
  return { difficultyBits, expectedAttempts, estimatedSeconds, priceUnits, price: unitsToDecimal(priceUnits), refusal };
}
