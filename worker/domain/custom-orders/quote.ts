// The price of a custom order: a bounded function of its difficulty (README "Custom orders").
//
//   price = min(maxPrice, basePrice + ceil(expectedAttempts x pricePerBillion / 10^9))
//
// expectedAttempts = 2^bits (orderDifficultyBits). The base covers handling an order however easy; the
// per-billion part pays for grinding time, which grows with the attempts; the maximum keeps a quote finite.
// Patterns above maxDifficultyBits are refused: they would keep the grinder busy longer than an order can
// reasonably wait (the reason names the expected time at the configured grinding rate).
// All amounts are exact 1e-8 ETH units (DESIGN §3); no float touches a price.
import { orderDifficultyBits, orderExpectedAttempts, type OrderPattern } from "../../../schema/custom-order-pattern";
import { decimalToUnits, mulDiv, unitsToDecimal } from "../../../schema/money";

export type QuoteConfig = {
  basePriceUnits: bigint;
  pricePerBillionUnits: bigint;
  maxPriceUnits: bigint;
  /** Orders harder than 2^maxDifficultyBits expected attempts are refused. */
  maxDifficultyBits: number;
  /** The grinder's measured candidates per second (all its cores), for time estimates. */
  grindRate: number;
};

/** Defaults (wrangler.toml [vars] may override each one; see quoteConfig). */
export const QUOTE_DEFAULTS = {
  CUSTOM_ORDER_BASE_PRICE: "0.005",
  CUSTOM_ORDER_PRICE_PER_BILLION: "0.002",
  CUSTOM_ORDER_MAX_PRICE: "0.5",
  CUSTOM_ORDER_MAX_DIFFICULTY_BITS: "36",
  CUSTOM_ORDER_GRIND_RATE: "2400000",
} as const;

/** Absolute ceiling on the configurable cap: 2^44 is weeks for a CPU grinder. */
export const HARDEST_ALLOWED_BITS = 44;

type QuoteVars = Partial<Record<keyof typeof QUOTE_DEFAULTS, string>>;

/** Reads the quote settings; a malformed setting falls back to its default rather than mispricing orders. */
export function quoteConfig(vars: QuoteVars): QuoteConfig {
  const units = (name: keyof typeof QUOTE_DEFAULTS) => {
    try {
      return decimalToUnits(vars[name]?.trim() || QUOTE_DEFAULTS[name]);
    } catch {
      return decimalToUnits(QUOTE_DEFAULTS[name]);
    }
  };
  const whole = (name: keyof typeof QUOTE_DEFAULTS, min: number, max: number) => {
    const raw = Number(vars[name]?.trim() || QUOTE_DEFAULTS[name]);
    return Number.isInteger(raw) && raw >= min && raw <= max ? raw : Number(QUOTE_DEFAULTS[name]);
  };
  const base = units("CUSTOM_ORDER_BASE_PRICE");
  const max = units("CUSTOM_ORDER_MAX_PRICE");
  return {
    basePriceUnits: base,
    pricePerBillionUnits: units("CUSTOM_ORDER_PRICE_PER_BILLION"),
    maxPriceUnits: max >= base ? max : base,
    maxDifficultyBits: whole("CUSTOM_ORDER_MAX_DIFFICULTY_BITS", 1, HARDEST_ALLOWED_BITS),
    grindRate: whole("CUSTOM_ORDER_GRIND_RATE", 1, 1e12),
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
