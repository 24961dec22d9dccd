// Human durations for "how long would a grinder need": seconds to the largest sensible unit.
import { formatCount, groupThousands } from "./number-format";

const UNITS: [limit: number, seconds: number, name: string][] = [
  [60, 1, "second"],
  [3600, 60, "minute"],
  [86400, 3600, "hour"],
  [86400 * 365.25, 86400, "day"],
  [Infinity, 86400 * 365.25, "year"],
];

/**
 * "about 3 minutes", or "under a second" alone: an approximate time in a sentence, never "about under a second".
 */
export function aboutDuration(seconds: number): string {
  const text = formatDuration(seconds);
  return text === "under a second" || text === "—" ? text : `about ${text}`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "—";
  if (seconds < 1) return "under a second";
  for (const [limit, size, name] of UNITS) {
    if (seconds < limit) {
      const n = seconds / size;
      const shown = n < 10 ? Number(n.toFixed(1)) : Math.round(n);
      if (name === "year" && shown >= 1e6) return `${compactNumber(shown)} years`;
      return `${shown} ${name}${shown === 1 ? "" : "s"}`;
    }
  }
  return "—";
}

const COMPACT_UNITS: [size: number, name: string][] = [
  [3, "thousand"],
  [6, "million"],
  [9, "billion"],
  [12, "trillion"],
];

/**
 * 1234567 -> "1.2 million"; plain below ten thousand. Reads as Intl.NumberFormat("en-US", { notation: "compact",
 * compactDisplay: "long", maximumFractionDigits: 1 }) does (duration.test.ts compares them), written out because
 * a page's first Intl formatter starts ICU, a long task on the listing page (web/src/lib/number-format.ts says more).
 * The point is moved in n's shortest decimal digits, not by dividing, so no binary error creeps into the digits.
 */
export function compactNumber(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? "NaN" : n > 0 ? "∞" : "-∞";
  if (Math.abs(n) < 10_000) return formatCount(n);
  const sign = n < 0 ? "-" : "";
  const [mantissa, exponent = "0"] = String(Math.abs(n)).split("e");
  const [whole, fraction = ""] = mantissa.split(".");
  const magnitude = whole.length + Number(exponent); // digits before the point
  let unit = COMPACT_UNITS.findLastIndex(([size]) => magnitude > size);
  for (;;) {
    const [size, name] = COMPACT_UNITS[unit];
    // n / 10^size to one decimal, half away from zero, as tenths.
    const digits = (whole + fraction).padEnd(magnitude + 2, "0");
    const point = magnitude - size;
    const tenths = BigInt(digits.slice(0, point + 1)) + (digits.charAt(point + 1) >= "5" ? 1n : 0n);
    const units = tenths / 10n;
    // 999.95 thousand rounds to 1000 thousand, which reads "1 million"; past trillions there is no larger name.
    if (units >= 1000n && unit < COMPACT_UNITS.length - 1) {
      unit += 1;
      continue;
    }
    const text = String(units);
    // Compact figures are grouped only from five digits on: "1000 trillion", "12,340 trillion".
    const grouped = text.length >= 5 ? groupThousands(text) : text;
    const tenth = tenths % 10n;
    return `${sign}${grouped}${tenth ? `.${tenth}` : ""} ${name}`;
  }
}
