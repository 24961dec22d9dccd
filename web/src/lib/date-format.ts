// Dates and times as the screens show them ("March 5, 2026", "Mar 5", "3 minutes ago"), written out rather than
// with Intl for the reason number-format.ts gives; date-format.test.ts checks them against Intl's en-US output.
import { formatCount } from "./number-format";

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

/**
 * A public sale's day (YYYY-MM-DD, the UTC day the server rounded it to: docs/public-surface.md): "today",
 * "yesterday" or "March 5, 2026", in UTC days, never a time (the API sends none).
 */
export function formatSaleDay(day: string, now: number = Date.now()): string {
  const at = validDate(`${day}T00:00:00Z`).getTime();
  const today = Math.floor(now / 86_400_000) * 86_400_000;
  if (at === today) return "today";
  if (at === today - 86_400_000) return "yesterday";
  return formatDateLong(at, { utc: true });
}

/** "Mar 5", as Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" }) words it, in the visitor's time zone. */
export function formatMonthDay(when: string | number | Date): string {
  const date = validDate(when);
  return `${MONTHS[date.getMonth()].slice(0, 3)} ${date.getDate()}`;
}

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
