// Exact money (DESIGN §3): a price is a decimal string with at most 8 decimals and, beside it, the same
// amount as an integer count of 1e-8 units. Conversions and arithmetic use bigint only; no amount that is
// paid or compared ever passes through a float.
import { PRICE_MESSAGES } from "./listings";

export const PRICE_DECIMALS = 8;
/** 1e-8 units in one ETH or SOL. */
export const UNITS_PER_COIN = 100_000_000n;
/**
 * Largest price a listing may ask, in units: 90,000,000 coins. D1 hands integers to JavaScript as numbers,
 * so price_units must stay below 2^53 to read back exactly; this bound keeps a margin under it.
 */
export const MAX_PRICE_UNITS = 9_000_000_000_000_000n;
export const MAX_PRICE_TEXT = "90000000";

const DECIMAL_RE = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;
/** Longest price text read at all; the real ones are under 20 characters. */
const MAX_PRICE_TEXT_LENGTH = 40;

/** A non-negative decimal (plain or exponent notation) as digits and a scale: value = digits x 10^-scale. */
function readDecimal(text: string): { digits: string; scale: number } | null {
  const m = DECIMAL_RE.exec(text);
  if (!m) return null;
  const [, whole = "", frac = "", exp] = m;
  if (whole === "" && frac === "") return null;
  let digits = (whole + frac).replace(/^0+(?=\d)/, "");
  // A negative scale is a whole number with trailing zeros ("1e3" is digits 1, scale -3).
  let scale = frac.length - (exp === undefined ? 0 : Number(exp));
  // Trailing zeros do not count as decimals ("1.50000000000" is 1.5); a lone "0" stays.
  while (digits.length > 1 && digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    scale -= 1;
  }
  if (digits === "0") return { digits, scale: 0 };
  return { digits, scale };
}

/** "1.5" -> 150000000n. Throws RangeError for anything but a non-negative decimal with at most 8 decimals. */
export function decimalToUnits(text: string): bigint {
  const d = typeof text === "string" ? readDecimal(text.trim()) : null;
  if (!d || d.scale > PRICE_DECIMALS) throw new RangeError("expected a non-negative decimal with at most 8 decimals");
  return BigInt(d.digits) * 10n ** BigInt(PRICE_DECIMALS - d.scale);
}

/** 150000000n -> "1.5": no trailing zeros, no exponent, "-" for negative amounts. */
export function unitsToDecimal(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / UNITS_PER_COIN;
  const frac = (abs % UNITS_PER_COIN).toString().padStart(PRICE_DECIMALS, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${frac ? `.${frac}` : ""}`;
}

/** units as a JavaScript number, for D1 (exact: every stored amount is below MAX_PRICE_UNITS < 2^53). */
export function unitsToNumber(units: bigint): number {
  if (units > BigInt(Number.MAX_SAFE_INTEGER) || units < -BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError("amount too large to store exactly");
  return Number(units);
}

/** 1e-8 units -> the chain's smallest unit: wei (x 1e10) for ETH, lamports (x 10) for SOL. */
export const BASE_UNITS_PER_UNIT = { ETH: 10_000_000_000n, SOL: 10n } as const;

export function unitsToBaseUnits(units: bigint, currency: keyof typeof BASE_UNITS_PER_UNIT): bigint {
  if (units < 0n) throw new RangeError("amount must not be negative");
  return units * BASE_UNITS_PER_UNIT[currency];
}

export type Rounding = "down" | "up" | "half-up";

/** a x b / d for non-negative a, b and positive d, rounded as asked. */
export function mulDiv(a: bigint, b: bigint, d: bigint, rounding: Rounding): bigint {
  if (a < 0n || b < 0n || d <= 0n) throw new RangeError("mulDiv expects non-negative factors and a positive divisor");
  const n = a * b;
  const q = n / d;
  const r = n % d;
  if (r === 0n || rounding === "down") return q;
  if (rounding === "up") return q + 1n;
  return 2n * r >= d ? q + 1n : q;
}

/** `percent`% of `units` ("2.5" -> 2.5%), rounded half-up to a whole unit. */
export function percentOf(units: bigint, percent: string): bigint {
  return mulDiv(units, decimalToUnits(percent), 100n * UNITS_PER_COIN, "half-up");
}

/** (to - from) / from x 100 with two decimals, rounded half away from zero; null when from is 0. */
export function changePercentage(fromUnits: bigint, toUnits: bigint): string | null {
  if (fromUnits <= 0n) return null;
  const diff = toUnits - fromUnits;
  // Stryker disable next-line EqualityOperator: -0n is 0n (equivalent mutant)
  const hundredths = mulDiv(diff < 0n ? -diff : diff, 10_000n, fromUnits, "half-up");
  const text = `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, "0")}`;
  // Stryker disable next-line EqualityOperator: hundredths > 0 implies diff != 0 (equivalent mutant)
  return diff < 0n && hundredths > 0n ? `-${text}` : text;
}

export type PriceCheck = { ok: true; price: string; units: bigint } | { ok: false; message: string };

/**
 * The listing price rules (transactions-profile-admin.md §5) with their messages: required, no minus
 * sign, a number above 0; and, for exact storage, at most 8 decimals and at most MAX_PRICE_TEXT. Accepts a
 * JSON number or a numeric string; the canonical decimal string comes back ("0.50" -> "0.5").
 */
export function checkPrice(input: unknown): PriceCheck {
  if (input === undefined || input === null) return { ok: false, message: PRICE_MESSAGES.required };
  let text: string;
  if (typeof input === "number") {
    if (!Number.isFinite(input)) return { ok: false, message: PRICE_MESSAGES.positive };
    // String() gives the shortest text that reads back as the same number (exponent form for tiny ones).
    text = Object.is(input, -0) ? "-0" : String(input);
  } else if (typeof input === "string") {
    text = input.trim();
  } else {
    return { ok: false, message: PRICE_MESSAGES.positive };
  }
  if (text === "") return { ok: false, message: PRICE_MESSAGES.required };
  if (text.startsWith("-")) return { ok: false, message: PRICE_MESSAGES.negative };
  if (text.length > MAX_PRICE_TEXT_LENGTH) return { ok: false, message: PRICE_MESSAGES.positive };
  const d = readDecimal(text);
  if (!d) return { ok: false, message: PRICE_MESSAGES.positive };
  if (d.digits === "0") return { ok: false, message: PRICE_MESSAGES.positive };
  if (d.scale > PRICE_DECIMALS) return { ok: false, message: PRICE_MESSAGES.decimals };
  // Bound the digits before building a bigint from them (an exponent like 1e9999 would be huge).
  // Stryker disable next-line ConditionalExpression: the units check below gives the same answer; this bound only keeps
  // an exponent like 1e9999 from building a huge bigint first (a cost, not a result)
  if (d.digits.length - d.scale > MAX_PRICE_TEXT.length) return { ok: false, message: PRICE_MESSAGES.tooLarge };
  const units = BigInt(d.digits) * 10n ** BigInt(PRICE_DECIMALS - d.scale);
  if (units > MAX_PRICE_UNITS) return { ok: false, message: PRICE_MESSAGES.tooLarge };
  return { ok: true, price: unitsToDecimal(units), units };
}
