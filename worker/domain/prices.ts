// USD prices of the two coins, as pure functions: the spec's fallback rates, reading a feed's answer, and
// turning an amount into the USD figures listings carry. Fetching and caching live in prices/price-feed.ts.
import type { LivePrices } from "../../schema/browse";
import { belowOneCent, FALLBACK_USD_RATES, type UsdRates, usdValue } from "../../schema/prices";

export type Currency = "ETH" | "SOL";
export type { UsdRates };
export { usdValue };

/** The specification's rates used when no live price is known (schema/prices.ts, shared with the web app). */
export const FALLBACK_RATES: UsdRates = FALLBACK_USD_RATES;

export function fallbackPrices(): LivePrices {
  return { ...FALLBACK_RATES, source: "fallback", updatedAt: null };
}

// A feed answering 0, a negative, NaN or an absurd figure is broken, not a market move.
const MAX_SANE_USD = 10_000_000;
const sane = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n > 0 && n < MAX_SANE_USD;
const num = (x: unknown): unknown => (typeof x === "string" && x.trim() !== "" ? Number(x) : x);
const field = (o: unknown, key: string): unknown => (o && typeof o === "object" ? (o as Record<string, unknown>)[key] : undefined);

/**
 * Reads a feed answer. Accepted shapes (numbers or numeric strings):
 *   {"ethPrice": 3796.1, "solPrice": 184.2}                      (this API's own shape)
 *   {"ethereum": {"usd": 3796.1}, "solana": {"usd": 184.2}}      (CoinGecko simple/price)
 *   {"ETH": 3796.1, "SOL": 184.2} or {"ETH": {"USD": ...}, ...}  (symbol keyed)
 * Anything else, or a value that is not a sane positive number, gives null.
 */
export function parseFeedPrices(body: unknown): UsdRates | null {
  const candidates: [unknown, unknown][] = [
    [field(body, "ethPrice"), field(body, "solPrice")],
    [field(field(body, "ethereum"), "usd"), field(field(body, "solana"), "usd")],
    [field(body, "ETH"), field(body, "SOL")],
    [field(field(body, "ETH"), "USD"), field(field(body, "SOL"), "USD")],
  ];
  for (const [eth, sol] of candidates) {
    const e = num(eth);
    const s = num(sol);
    if (sane(e) && sane(s)) return { ethPrice: e, solPrice: s };
  }
  return null;
}

const usdFormat = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "$1,234.56"; a positive amount that rounds to zero cents reads "<$0.01" rather than a misleading "$0.00". */
export function formatUsd(price: string, currency: Currency, rates: UsdRates): string {
  if (belowOneCent(price, currency, rates)) return "<$0.01";
  return usdFormat.format(usdValue(price, currency, rates));
}

/** Converts an amount in 1e-8 units of `currency` to ETH at the given USD rates. */
export function unitsToEth(units: number, currency: Currency, rates: UsdRates): number {
  const coins = units / 1e8;
  return currency === "ETH" ? coins : (coins * rates.solPrice) / rates.ethPrice;
}

/** Rounds a display figure to 8 decimals (the precision prices have). */
export function round8(n: number): number {
  return Math.round(n * 1e8) / 1e8;
}
