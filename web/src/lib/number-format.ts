// Display rules of the browsing screens (cards, tables, the
// listing page), as pure functions so every card, table and page shows the same thing.
// No React here: components import these.
import { CARD_TIERS, type CardTierLabel, cardTierOf, type TableLabel, tableLabelOf } from "../../../schema/rarity-scales";
import type { ListingReservation } from "../../../schema/browse";
import { belowOneCent, type UsdRates, usdValue } from "../../../schema/prices";

type Rarity = number | string;
const score = (r: Rarity): number => {
  const n = typeof r === "number" ? r : Number(r);
  return Number.isFinite(n) ? n : 0;
};

// ---------------------------------------------------------------------------------------------- addresses

/** Addresses longer than 20 characters: first 8, "...", last 6. */
export function shortAddress(address: string): string {
  return address.length > 20 ? `${address.slice(0, 8)}...${address.slice(-6)}` : address;
}

// ------------------------------------------------------------------------------------------------ numbers

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

// ------------------------------------------------------------------------------------------------- rarity

export type RarityColour = "purple" | "blue" | "green" | "grey";
export type CardTier = { label: CardTierLabel; gold: boolean };

/** Card badge (schema/rarity-scales.ts): the top tier, ULTRA RARE, wears the gold gradient. */
export function rarityTier(r: Rarity): CardTier {
  const label = cardTierOf(score(r));
  return { label, gold: label === CARD_TIERS[0].label };
}

/** Marketplace table Type column (schema/rarity-scales.ts); always shown beside the score. */
export function rarityLabel(r: Rarity): TableLabel {
  return tableLabelOf(score(r));
}

/** Rarity colour everywhere else: 8+ purple, 6+ blue, 4+ green, else grey. */
export function rarityColour(r: Rarity): RarityColour {
  const s = score(r);
  if (s >= 8) return "purple";
  if (s >= 6) return "blue";
  if (s >= 4) return "green";
  return "grey";
}

/** "7.3/10": the score with one decimal. */
export function formatRarity(r: Rarity): string {
  return `${Math.min(10, Math.max(0, score(r))).toFixed(1)}/10`;
}

// ------------------------------------------------------------------------------------------------- badges

export const NEW_WITHIN_MS = 7 * 24 * 60 * 60 * 1000;

/** NEW: created within the last 7 days. */
export function isNew(createdAt: string | number | Date, now: number = Date.now()): boolean {
  const t = new Date(createdAt).getTime();
  return Number.isFinite(t) && now - t <= NEW_WITHIN_MS && t <= now + 60_000;
}

/** HOT: rarity 8.5 or more. */
export const isHot = (r: Rarity): boolean => score(r) >= 8.5;

/** Highlight ring: rarity 9 or more. */
export const hasRarityRing = (r: Rarity): boolean => score(r) >= 9;

/** Promotion tint: featured purple, promoted orange, standard (or the marketplace's "none") nothing. */
export function promotionTint(promotionType: string | null | undefined): "purple" | "orange" | null {
  if (promotionType === "featured") return "purple";
  if (promotionType === "promoted") return "orange";
  return null;
}

// ------------------------------------------------------------------------------------- listing state

type ListingState = { status: string; isListed: boolean };

/** Buy button: enabled only for an active, listed listing; otherwise disabled with the reason. */
export function buyButton(
  listing: ListingState,
): { enabled: true; label: "Buy Now" } | { enabled: false; label: "Sold" | "Deleted" | "Unavailable" | "Not Listed" } {
  if (listing.status === "sold") return { enabled: false, label: "Sold" };
  if (listing.status === "deleted") return { enabled: false, label: "Deleted" };
  if (!listing.isListed) return { enabled: false, label: "Not Listed" };
  if (listing.status !== "active") return { enabled: false, label: "Unavailable" };
  return { enabled: true, label: "Buy Now" };
}

/** The owner's status badge: Listed, Sold, Deleted or Unavailable. */
export function ownerStatusBadge(listing: ListingState): "Listed" | "Sold" | "Deleted" | "Unavailable" {
  if (listing.status === "sold") return "Sold";
  if (listing.status === "deleted") return "Deleted";
  return listing.status === "active" && listing.isListed ? "Listed" : "Unavailable";
}

/** Detail page availability text. */
/** The listing page's Status: "Reserved" while an open purchase holds it (whose is the buy box's to say). */
export function availabilityText(
  listing: ListingState & { reservation?: ListingReservation | null },
  now = Date.now(),
): "Available for Purchase" | "Reserved" | "Not Available" {
  if (listing.status !== "active" || !listing.isListed) return "Not Available";
  const r = listing.reservation;
  return r && (r.paymentReported || Date.parse(r.until) > now) ? "Reserved" : "Available for Purchase";
}

// ----------------------------------------------------------------------------------------- transactions

/** Transactions table: pending -> Listed / Active, completed -> Sale / Completed, anything else Cancelled. */
export function transactionDisplay(status: string): { type: "Listed" | "Sale" | "Cancelled"; status: "Active" | "Completed" | "Cancelled" } {
  if (status === "pending") return { type: "Listed", status: "Active" };
  if (status === "completed") return { type: "Sale", status: "Completed" };
  return { type: "Cancelled", status: "Cancelled" };
}

// ------------------------------------------------------------------------------------------------- USD

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

// The figures the landing pages show while they start (prices, counts, dates, "3 minutes ago") are written out here
// rather than with Intl: a page's first Intl formatter starts ICU, 15 to 50 ms of main thread on this machine
// (more on a slow phone) in the middle of the app's start. They are en-US only, like the rest of the site;
// display.test.ts checks them against Intl.

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

// ---------------------------------------------------------------------------------------------- dates

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** A Date of `when`; a RangeError when it is not a date, as Intl's format throws. */
function validDate(when: string | number | Date): Date {
  const date = new Date(when);
  if (!Number.isFinite(date.getTime())) throw new RangeError("Invalid time value");
  return date;
}

/**
 * "March 5, 2026", as Intl.DateTimeFormat("en-US", { dateStyle: "long" }) words it: in the visitor's time zone,
 * or in UTC with `utc`. An invalid date throws, as Intl's format does (a listing the page cannot render).
 */
export function formatDateLong(when: string | number | Date, { utc = false } = {}): string {
  const date = validDate(when);
  const [year, month, day] = utc ? [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()] : [date.getFullYear(), date.getMonth(), date.getDate()];
  return `${MONTHS[month]} ${day}, ${year}`;
}

/** "Mar 5", as Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" }) words it, in the visitor's time zone. */
export function formatMonthDay(when: string | number | Date): string {
  const date = validDate(when);
  return `${MONTHS[date.getMonth()].slice(0, 3)} ${date.getDate()}`;
}

// ---------------------------------------------------------------------------------------- relative time

const RELATIVE_UNITS: [unit: "year" | "month" | "week" | "day" | "hour" | "minute", seconds: number][] = [
  ["year", 365 * 86400],
  ["month", 30 * 86400],
  ["week", 7 * 86400],
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
];
/** As Intl.RelativeTimeFormat("en", { numeric: "always" }) words it: "3 minutes ago", "in 1 day". */
function relative(value: number, unit: (typeof RELATIVE_UNITS)[number][0]): string {
  const amount = `${formatCount(Math.abs(value))} ${unit}${Math.abs(value) === 1 ? "" : "s"}`;
  return value < 0 ? `${amount} ago` : `in ${amount}`;
}

/** "3 minutes ago", "2 days ago", "in 1 hour"; under a minute reads "less than a minute ago". */
export function relativeTime(when: string | number | Date, now: number = Date.now()): string {
  const t = new Date(when).getTime();
  if (!Number.isFinite(t)) return "";
  const seconds = (t - now) / 1000;
  const abs = Math.abs(seconds);
  if (abs < 60) return seconds <= 0 ? "less than a minute ago" : "in less than a minute";
  for (const [unit, size] of RELATIVE_UNITS) {
    if (abs >= size) return relative(Math.sign(seconds) * Math.floor(abs / size), unit);
  }
  return relative(Math.sign(seconds) * Math.floor(abs / 60), "minute");
}
