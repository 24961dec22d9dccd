import { describe, expect, it } from "vitest";
import { formatDateLong, formatMonthDay, formatSaleDay, relativeTime } from "./date-format";

describe("relativeTime", () => {
  const now = Date.parse("2026-11-22T12:00:00Z");
  it.each([
    [now - 10_000, "less than a minute ago"],
    [now - 3 * 60_000, "3 minutes ago"],
    [now - 60_000, "1 minute ago"],
    [now - 2 * 3600_000 - 59 * 60_000, "2 hours ago"],
    [now - 86_400_000, "1 day ago"],
    [now - 8 * 86_400_000, "1 week ago"],
    [now - 45 * 86_400_000, "1 month ago"],
    [now - 400 * 86_400_000, "1 year ago"],
    [now + 3600_000, "in 1 hour"],
    [now + 5_000, "in less than a minute"],
  ])("%s", (when, text) => {
    expect(relativeTime(when, now)).toBe(text);
    expect(relativeTime(new Date(when).toISOString(), now)).toBe(text);
  });
  it("an invalid date reads nothing", () => expect(relativeTime("nope", now)).toBe(""));
});

// date-format.ts writes these out instead of using Intl (ICU's start-up is a long task on the landing pages): they
// must read exactly as Intl's en-US formatters would.
describe("dates written without Intl read as Intl's en-US formatters", () => {
  const words = new Intl.RelativeTimeFormat("en", { numeric: "always" });

  it.each(["UTC", "America/Los_Angeles", "Pacific/Kiritimati"])("formatDateLong and formatMonthDay, in the visitor's time zone (%s) and in UTC", (zone) => {
    const saved = process.env.TZ;
    process.env.TZ = zone; // Node re-reads the zone for Date and for Intl's default
    try {
      const long = new Intl.DateTimeFormat("en-US", { dateStyle: "long" });
      const longUtc = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
      const monthDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });
      expect(long.resolvedOptions().timeZone).toBe(zone);
      const dates = [Date.UTC(2026, 0, 1), Date.UTC(2026, 2, 5, 23, 30), Date.UTC(2025, 11, 31, 23, 59, 59), Date.UTC(2024, 1, 29, 12), Date.UTC(1999, 8, 9)];
      let seed = 7;
      for (let i = 0; i < 500; i++) {
        seed = (seed * 16807) % 2147483647;
        dates.push(Date.UTC(2000, 0, 1) + Math.floor((seed / 2147483647) * 40 * 365.25 * 86_400_000));
      }
      for (const t of dates) {
        for (const when of [t, new Date(t), new Date(t).toISOString()]) {
          expect(formatDateLong(when), String(when)).toBe(long.format(t));
          expect(formatDateLong(when, { utc: true }), String(when)).toBe(longUtc.format(t));
          expect(formatMonthDay(when), String(when)).toBe(monthDay.format(t));
        }
      }
    } finally {
      process.env.TZ = saved;
      if (saved === undefined) delete process.env.TZ;
    }
    // Like Intl's format, an invalid date throws (the Worker then serves the listing page's plain shell).
    expect(() => new Intl.DateTimeFormat("en-US", { dateStyle: "long" }).format(new Date("not a date"))).toThrow(RangeError);
    expect(() => formatDateLong("not a date")).toThrow(RangeError);
    expect(() => formatDateLong(Number.NaN, { utc: true })).toThrow(RangeError);
    expect(() => formatMonthDay(Number.NaN)).toThrow(RangeError);
  });

  it("relativeTime", () => {
    const now = Date.UTC(2026, 0, 10);
    for (const [seconds, value, unit] of [
      [-60, -1, "minute"],
      [-150, -2, "minute"],
      [-3600, -1, "hour"],
      [-86400 * 3, -3, "day"],
      [-86400 * 400, -1, "year"],
      [-86400 * 365 * 2000, -2000, "year"],
      [7200, 2, "hour"],
      [86400, 1, "day"],
    ] as const) {
      expect(relativeTime(now + seconds * 1000, now), `${seconds}s`).toBe(words.format(value, unit));
    }
  });
});

describe("formatSaleDay", () => {
  it("says a public sale's UTC day, never a time", () => {
    const now = Date.UTC(2031, 2, 4, 0, 30);
    expect(formatSaleDay("2031-03-04", now)).toBe("today");
    expect(formatSaleDay("2031-03-03", now)).toBe("yesterday");
    expect(formatSaleDay("2031-02-27", now)).toBe("February 27, 2031");
    expect(() => formatSaleDay("not a day", now)).toThrow();
  });
});
