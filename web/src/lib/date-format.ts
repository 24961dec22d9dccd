// Every date and time a screen shows goes through this module, in the visitor's locale as Intl.DateTimeFormat and
// Intl.RelativeTimeFormat word it: a day ("March 5, 2026" / "5. März 2026"), a day with its time, a time of day,
// and "3 minutes ago". web/src/date-format-guard.test.ts fails on a date formatted anywhere else.
//
// A page's first Intl formatter starts ICU (a long task on a phone; docs/front-end.md#how-the-landing-pages-meet-it),
// so the day and the relative time, which the landing pages show while they start, are written out by hand for
// the locales whose Intl output the hand-written text equals exactly (FAST_LOCALES; date-format.test.ts compares
// them over thousands of dates and several time zones). Every other locale, and every time of day, goes to Intl,
// whose formatters are made on first use, never as the module loads.
import { formatCount } from "./number-format";

/** The locales whose Intl output the hand-written day and relative time below reproduce exactly. */
const FAST_LOCALES = new Set(["en-US", "en"]);

/**
 * The visitor's locale: the browser's first language (read without starting ICU). The Worker, rendering a landing
 * page, has no visitor's language of its own, and words dates in en-US as the prerendered pages do.
 */
export function visitorLocale(): string {
  const language = (globalThis as { navigator?: { language?: unknown } }).navigator?.language;
  return typeof language === "string" && language !== "" ? language : "en-US";
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}
const relativeFormatters = new Map<string, Intl.RelativeTimeFormat>();
function relativeTimeFormat(locale: string, numeric: "always" | "auto"): Intl.RelativeTimeFormat {
  const key = `${locale}|${numeric}`;
  let format = relativeFormatters.get(key);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric });
    relativeFormatters.set(key, format);
  }
  return format;
}

type Options = { utc?: boolean; locale?: string };

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** A Date of `when`; a RangeError when it is not a date, as Intl's format throws. */
function validDate(when: string | number | Date): Date {
  const date = new Date(when);
  if (!Number.isFinite(date.getTime())) throw new RangeError("Invalid time value");
  return date;
}

const DAY: Intl.DateTimeFormatOptions = { dateStyle: "long" };
const DAY_TIME: Intl.DateTimeFormatOptions = { dateStyle: "long", timeStyle: "short" };
const TIME: Intl.DateTimeFormatOptions = { timeStyle: "short" };
const zoned = (options: Intl.DateTimeFormatOptions, utc: boolean) => (utc ? { ...options, timeZone: "UTC" } : options);

/**
 * A day: Intl.DateTimeFormat(locale, { dateStyle: "long" }) ("March 5, 2026", "5. März 2026", "2026年3月5日"), in
 * the visitor's time zone or in UTC with `utc`. An invalid date throws, as Intl's format does (a listing the
 * Worker cannot render gets the plain shell).
 */
export function formatDay(when: string | number | Date, { utc = false, locale = visitorLocale() }: Options = {}): string {
  const date = validDate(when);
  if (!FAST_LOCALES.has(locale)) return dateTimeFormat(locale, zoned(DAY, utc)).format(date);
  const [year, month, day] = utc ? [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()] : [date.getFullYear(), date.getMonth(), date.getDate()];
  return `${MONTHS[month]} ${day}, ${year}`;
}

/** A day and its time: Intl's { dateStyle: "long", timeStyle: "short" } ("March 5, 2026 at 3:45 PM", "5. März 2026 um 15:45"). */
export function formatDayTime(when: string | number | Date, { utc = false, locale = visitorLocale() }: Options = {}): string {
  return dateTimeFormat(locale, zoned(DAY_TIME, utc)).format(validDate(when));
}

/** A time of day, for a moment within the next hours: Intl's { timeStyle: "short" } ("3:45 PM", "15:45"). */
export function formatTime(when: string | number | Date, { utc = false, locale = visitorLocale() }: Options = {}): string {
  return dateTimeFormat(locale, zoned(TIME, utc)).format(validDate(when));
}

/** A calendar day the server sends as YYYY-MM-DD (a UTC day), worded as formatDay words a day. */
export function formatUtcDay(day: string, { locale = visitorLocale() }: { locale?: string } = {}): string {
  return formatDay(`${day}T00:00:00Z`, { utc: true, locale });
}

/**
 * A public sale's day (YYYY-MM-DD, the UTC day the server rounded it to: docs/public-surface.md): "today",
 * "yesterday" (as Intl.RelativeTimeFormat words them with numeric "auto") or the day, in UTC days, never a time
 * (the API sends none).
 */
export function formatSaleDay(day: string, now: number = Date.now(), { locale = visitorLocale() }: { locale?: string } = {}): string {
  const at = validDate(`${day}T00:00:00Z`).getTime();
  const today = Math.floor(now / 86_400_000) * 86_400_000;
  const daysAgo = at === today ? 0 : at === today - 86_400_000 ? 1 : null;
  if (daysAgo === null) return formatUtcDay(day, { locale });
  if (FAST_LOCALES.has(locale)) return daysAgo === 0 ? "today" : "yesterday";
  return relativeTimeFormat(locale, "auto").format(-daysAgo, "day");
}

const RELATIVE_UNITS: [unit: "year" | "month" | "week" | "day" | "hour" | "minute", seconds: number][] = [
  ["year", 365 * 86400],
  ["month", 30 * 86400],
  ["week", 7 * 86400],
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
];

/** As Intl.RelativeTimeFormat(locale, { numeric: "always" }) words it: "3 minutes ago", "in 1 day". */
function relative(value: number, unit: (typeof RELATIVE_UNITS)[number][0], locale: string): string {
  if (!FAST_LOCALES.has(locale)) return relativeTimeFormat(locale, "always").format(value, unit);
  const amount = `${formatCount(Math.abs(value))} ${unit}${Math.abs(value) === 1 ? "" : "s"}`;
  return value < 0 ? `${amount} ago` : `in ${amount}`;
}

/**
 * "3 minutes ago", "2 days ago", "in 1 hour", in the visitor's locale. Under a minute reads "less than a minute
 * ago" in English and Intl's "this minute" (numeric "auto") in other locales, which have no hand-written words.
 * An invalid date reads nothing.
 */
export function relativeTime(when: string | number | Date, now: number = Date.now(), { locale = visitorLocale() }: { locale?: string } = {}): string {
  const t = new Date(when).getTime();
  if (!Number.isFinite(t)) return "";
  const seconds = (t - now) / 1000;
  const abs = Math.abs(seconds);
  if (abs < 60) {
    if (!FAST_LOCALES.has(locale)) return relativeTimeFormat(locale, "auto").format(0, "minute");
    return seconds <= 0 ? "less than a minute ago" : "in less than a minute";
  }
  for (const [unit, size] of RELATIVE_UNITS) {
    if (abs >= size) return relative(Math.sign(seconds) * Math.floor(abs / size), unit, locale);
  }
  return relative(Math.sign(seconds) * Math.floor(abs / 60), "minute", locale);
}

/** Whether two instants fall on the same day in the visitor's time zone. */
export function sameLocalDay(a: string | number | Date, b: string | number | Date): boolean {
  const x = validDate(a);
  const y = validDate(b);
  return x.getFullYear() === y.getFullYear() && x.getMonth() === y.getMonth() && x.getDate() === y.getDate();
}
