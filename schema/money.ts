// Exact money (docs/api.md#conventions): a price is a decimal string with at most 8 decimals and, beside it, the same
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
 * The listing price rules with their messages: required, no minus
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

// ------------------------------------------------------------------------------------------ chain base units
// What arrives on a chain is counted in its smallest unit (wei, lamports), finer than a price's 8 decimals. An amount
// an operator refunds is shown with every digit (docs/payments.md#admin--payments): 0.000999999999999999 ETH must
// never read as 0.001.

/**
 * Each coin's smallest unit, the one home of these facts (schema/network.ts names the coin of each network): its
 * decimal places in one coin, and its name, one and many. Here rather than in network.ts: the home page's script
 * carries network.ts, and these only the pages that show base units.
 */
export const BASE_UNIT_DECIMALS = { ETH: 18, SOL: 9 } as const;
export type Coin = keyof typeof BASE_UNIT_DECIMALS;
export const BASE_UNIT_NAMES: Record<Coin, [string, string]> = { ETH: ["wei", "wei"], SOL: ["lamport", "lamports"] };

/** 999999999999999n, "ETH" -> "0.000999999999999999": every digit, trailing zeros trimmed, "-" for a negative amount. */
export function formatBaseUnits(units: bigint, coin: Coin): string {
  const decimals = BASE_UNIT_DECIMALS[coin];
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** "0.001", "ETH" -> 1000000000000000n; null unless a plain non-negative decimal with at most the coin's decimals. */
export function parseCoinAmount(text: string, coin: Coin): bigint | null {
  const m = /^(\d{1,30})(?:\.(\d+))?$/.exec(text.trim());
  const decimals = BASE_UNIT_DECIMALS[coin];
  if (!m || (m[2] ?? "").length > decimals) return null;
  return BigInt(m[1] + (m[2] ?? "").padEnd(decimals, "0"));
}

/** An amount of base units in words: "1 wei", "1,000 lamports". */
export function baseUnitsInWords(units: bigint, coin: Coin): string {
  const [one, many] = BASE_UNIT_NAMES[coin];
  return `${units.toLocaleString("en-US")} ${units === 1n ? one : many}`;
}

/** Below this many base units a difference reads in wei or lamports; from it on, in the coin. */
const IN_WORDS_BELOW = 1_000_000n;

/**
 * How what arrived stands against what was due, exactly: "paid 1 wei less", "paid 0.5 ETH more", "paid exactly the
 * amount due". Small differences in the base unit (a coin amount with 18 decimals is unreadable), larger in the coin.
 */
export function paymentDifference(received: bigint, due: bigint, coin: Coin): string {
  if (received === due) return "paid exactly the amount due";
  // Stryker disable next-line EqualityOperator: equal amounts answered above (equivalent mutant)
  const diff = received > due ? received - due : due - received;
  const amount = diff < IN_WORDS_BELOW ? baseUnitsInWords(diff, coin) : `${formatBaseUnits(diff, coin)} ${coin}`;
  // Stryker disable next-line EqualityOperator: equal amounts answered above (equivalent mutant)
  return `paid ${amount} ${received > due ? "more" : "less"}`;
}
