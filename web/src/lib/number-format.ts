// Numbers as the screens show them: counts, prices in their coin (8 decimals, exact for decimal strings) and USD
// figures, as pure functions so every card, table and page shows the same figure for the same amount.
import { belowOneCent, type UsdRates, usdValue } from "../../../schema/prices.ts";

/** General figures: 6 decimals under 1, else 4. */
export function formatNumber(value: number | string): string {
  const n = Number(value);
  if (!Number.isFinite(n)) return "0";
  return n.toFixed(Math.abs(n) < 1 ? 6 : 4);
}

/** Splits a decimal into sign, whole part and fraction digits, exactly (no floating point for strings). */
function decimalParts(value: number | string): { negative: boolean; whole: string; fraction: string } | null {
  const text = typeof value === "number" ? (Number.isFinite(value) ? value.toFixed(8) : "") : value.trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return null;
  return { negative: m[1] === "-", whole: (m[2] || "0").replace(/^0+(?=\d)/, ""), fraction: m[3] ?? "" };
}

/** Rounds fraction digits to `places` (half up), carrying into the whole part. */
function roundFraction(whole: string, fraction: string, places: number): { whole: string; fraction: string } {
  if (fraction.length <= places) return { whole, fraction: fraction.padEnd(places, "0") };
  const digits = BigInt(whole + fraction.slice(0, places)) + (Number(fraction[places]) >= 5 ? 1n : 0n);
  const s = digits.toString().padStart(places + 1, "0");
  return { whole: s.slice(0, s.length - places), fraction: s.slice(s.length - places) };
}

/**
 * A price with 8 decimals. Negative prices show as their absolute value; a value that is not a
 * number shows as 0.
 */
export function formatPrice(value: number | string): string {
  const parts = decimalParts(value);
  if (!parts) return "0.00000000";
  const { whole, fraction } = roundFraction(parts.whole, parts.fraction, 8);
  return `${whole}.${fraction}`;
}

/** Detail page: up to 8 decimals with trailing zeros trimmed ("1.50000000" -> "1.5", "2.0" -> "2"). */
export function formatPriceTrimmed(value: number | string): string {
  const [whole, fraction = ""] = formatPrice(value).split(".");
  const kept = fraction.replace(/0+$/, "");
  return kept ? `${whole}.${kept}` : whole;
}

export type { UsdRates };

/**
 * The USD figure of an amount of `currency` at `rates`: rounded to cents, "<$0.01" for a positive
 * amount under half a cent, exactly as the Worker words a listing's formattedUsd (worker/domain/prices.ts), so a
 * card, the listing, the purchase page, My Purchases and Recent Transactions show one figure for one price.
 * `rates` comes from useUsdRates (GET /api/prices/live, or schema/prices.ts's one fallback table).
 */
export function usdText(amount: string | number, currency: string, rates: UsdRates): string {
  if (belowOneCent(amount, currency, rates)) return "<$0.01";
  return formatUsd(usdValue(amount, currency, rates));
}

// The figures the landing pages show while they start (prices, counts) are written out here rather than with Intl: a
// page's first Intl formatter starts ICU, 15 to 50 ms of main thread on this machine (more on a slow phone) in the
// middle of the app's start. They are en-US only; number-format.test.ts checks them against Intl. Dates are the
// visitor's locale's, through date-format.ts, which keeps the same hand-written fast path for en-US alone.

/** "1234567" -> "1,234,567": en-US thousands separators in a string of digits. */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * "1,234,567.89": `n` rounded to `decimals` places as Intl rounds, half away from zero on the number's shortest
 * decimal form (0.015 gives 0.02; toFixed would round the binary value 0.01499... down), with en-US grouping.
 */
export function groupDigits(n: number, decimals = 0): string {
  const sign = n < 0 || Object.is(n, -0) ? "-" : "";
  const decimal = String(Math.abs(n));
  let digits: string;
  if (decimal.includes("e")) {
    // Under 1e-6 or from 1e21 on: no digit to carry that toFixed would round differently.
    digits = Math.abs(n).toFixed(decimals).replace(".", "");
  } else {
    const [whole, fraction = ""] = decimal.split(".");
    const kept = BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, "0"));
    digits = String(fraction.charAt(decimals) >= "5" ? kept + 1n : kept).padStart(decimals + 1, "0");
  }
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return `${sign}${groupThousands(whole)}${fraction ? `.${fraction}` : ""}`;
}

/** A whole count with en-US grouping: "12,345". */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? groupDigits(Math.round(n)) : String(n);
}

/**
 * "$1,234.56": every USD figure is rounded to cents (the spec's 6-decimal total read "$6.302878"). A
 * positive amount under a cent reads "<$0.01", as the Worker's formattedUsd does, rather than a free "$0.00".
 */
export function formatUsd(amount: number): string {
  if (!Number.isFinite(amount)) return "$0.00";
  if (amount > 0 && amount < 0.01) return "<$0.01";
  const text = groupDigits(amount, 2);
  return text.startsWith("-") ? `-$${text.slice(1)}` : `$${text}`;
}
