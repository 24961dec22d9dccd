import { afterEach, describe, expect, it, vi } from "vitest";
import { formatDay, formatDayTime, formatSaleDay, formatTime, formatUtcDay, relativeTime, sameLocalDay, visitorLocale } from "./date-format";

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

// date-format.ts writes the day and the relative time out by hand for en-US and en (ICU's start-up is a long task on
// the landing pages): for those locales they must read exactly as Intl's formatters would.
const ZONES = ["UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Tokyo"];
function manyDates(): number[] {
  const dates = [Date.UTC(2026, 0, 1), Date.UTC(2026, 2, 5, 23, 30), Date.UTC(2025, 11, 31, 23, 59, 59), Date.UTC(2024, 1, 29, 12), Date.UTC(1999, 8, 9)];
  let seed = 7;
  for (let i = 0; i < 500; i++) {
    seed = (seed * 16807) % 2147483647;
    dates.push(Date.UTC(2000, 0, 1) + Math.floor((seed / 2147483647) * 40 * 365.25 * 86_400_000));
  }
  return dates;
}
function inZone(zone: string, run: () => void) {
  const saved = process.env.TZ;
  process.env.TZ = zone; // Node re-reads the zone for Date and for Intl's default
  try {
    run();
  } finally {
    process.env.TZ = saved;
    if (saved === undefined) delete process.env.TZ;
  }
}

describe("the hand-written en-US and en fast path reads as Intl's output", () => {
  it.each(ZONES.flatMap((zone) => ["en-US", "en"].map((locale) => [zone, locale])))(
    "formatDay, in the visitor's time zone (%s) and in UTC, %s",
    (zone, locale) => {
      inZone(zone, () => {
        const long = new Intl.DateTimeFormat(locale, { dateStyle: "long" });
        const longUtc = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
        expect(long.resolvedOptions().timeZone).toBe(zone);
        for (const t of manyDates()) {
          for (const when of [t, new Date(t), new Date(t).toISOString()]) {
            expect(formatDay(when, { locale }), String(when)).toBe(long.format(t));
            expect(formatDay(when, { utc: true, locale }), String(when)).toBe(longUtc.format(t));
          }
          const day = new Date(t).toISOString().slice(0, 10);
          expect(formatUtcDay(day, { locale })).toBe(longUtc.format(Date.parse(`${day}T00:00:00Z`)));
        }
      });
    },
  );

  it("without Intl: the en-US day, sale day and relative time create no formatter (no ICU while a landing page starts)", async () => {
    // A fresh copy of the module, so no formatter another test made is already in its cache.
    vi.resetModules();
    const { formatDay, formatSaleDay, relativeTime } = await import("./date-format");
    const dates = vi.spyOn(Intl, "DateTimeFormat");
    const relatives = vi.spyOn(Intl, "RelativeTimeFormat");
    try {
      const now = Date.UTC(2026, 5, 1);
      for (const t of manyDates().slice(0, 50)) {
        formatDay(t, { locale: "en-US" });
        formatDay(t, { utc: true, locale: "en" });
        relativeTime(t, now, { locale: "en-US" });
        formatSaleDay(new Date(t).toISOString().slice(0, 10), now, { locale: "en-US" });
      }
      expect(dates).not.toHaveBeenCalled();
      expect(relatives).not.toHaveBeenCalled();
    } finally {
      dates.mockRestore();
      relatives.mockRestore();
    }
  });

  it.each(["en-US", "en"])("relativeTime and the sale day's today and yesterday, %s", (locale) => {
    const always = new Intl.RelativeTimeFormat(locale, { numeric: "always" });
    const auto = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
    const now = Date.UTC(2026, 0, 10);
    for (const [seconds, value, unit] of [
      [-60, -1, "minute"],
      [-150, -2, "minute"],
      [-3600, -1, "hour"],
      [-86400 * 3, -3, "day"],
      [-86400 * 8, -1, "week"],
      [-86400 * 45, -1, "month"],
      [-86400 * 400, -1, "year"],
      [-86400 * 365 * 2000, -2000, "year"],
      [7200, 2, "hour"],
      [86400, 1, "day"],
    ] as const) {
      expect(relativeTime(now + seconds * 1000, now, { locale }), `${seconds}s`).toBe(always.format(value, unit));
    }
    expect(formatSaleDay("2026-01-10", now + 3600_000, { locale })).toBe(auto.format(0, "day"));
    expect(formatSaleDay("2026-01-09", now + 3600_000, { locale })).toBe(auto.format(-1, "day"));
  });

  it("a day and its time, and a time of day, are Intl's own (no hand-written copy)", () => {
    const t = Date.UTC(2026, 2, 5, 15, 45);
    expect(formatDayTime(t, { utc: true, locale: "en-US" })).toBe(
      new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(t),
    );
    expect(formatDayTime(t, { utc: true, locale: "en-US" })).toMatch(/^March 5, 2026 at 3:45\sPM$/);
    expect(formatTime(t, { utc: true, locale: "en-US" })).toMatch(/^3:45\sPM$/);
  });
});

describe("other locales go through Intl", () => {
  const t = Date.UTC(2026, 2, 5, 15, 45);
  const now = t + 3 * 60_000;
  it.each([
    ["de-DE", "5. März 2026", "vor 3 Minuten"],
    ["ja-JP", "2026年3月5日", "3 分前"],
    ["en-GB", "5 March 2026", "3 minutes ago"],
  ])("%s", (locale, day, ago) => {
    expect(formatDay(t, { utc: true, locale })).toBe(day);
    expect(formatDay(t, { utc: true, locale })).toBe(new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(t));
    expect(formatDayTime(t, { utc: true, locale })).toBe(new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(t));
    expect(formatTime(t, { utc: true, locale })).toBe(new Intl.DateTimeFormat(locale, { timeStyle: "short", timeZone: "UTC" }).format(t));
    expect(relativeTime(t, now, { locale })).toBe(ago);
    expect(relativeTime(t + 86_400_000 * 2, now, { locale })).toBe(new Intl.RelativeTimeFormat(locale, { numeric: "always" }).format(1, "day"));
    expect(relativeTime(now - 5_000, now, { locale })).toBe(new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(0, "minute"));
    expect(formatSaleDay("2026-03-05", now, { locale })).toBe(new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(0, "day"));
    expect(formatSaleDay("2026-03-04", now, { locale })).toBe(new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(-1, "day"));
    expect(formatSaleDay("2026-02-27", now, { locale })).toBe(
      new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(Date.UTC(2026, 1, 27)),
    );
  });
});

describe("the visitor's locale is the browser's language", () => {
  afterEach(() => vi.unstubAllGlobals());
  const t = Date.UTC(2026, 2, 5, 15, 45);

  it("with no browser language (the Worker, Node) it is en-US", () => {
    vi.stubGlobal("navigator", undefined);
    expect(visitorLocale()).toBe("en-US");
    expect(formatDay(t, { utc: true })).toBe("March 5, 2026");
  });

  it("a German browser reads German dates on every style, with no locale passed", () => {
    vi.stubGlobal("navigator", { language: "de-DE" });
    expect(visitorLocale()).toBe("de-DE");
    expect(formatDay(t, { utc: true })).toBe("5. März 2026");
    expect(formatUtcDay("2026-03-05")).toBe("5. März 2026");
    expect(formatDayTime(t, { utc: true })).toBe("5. März 2026 um 15:45");
    expect(formatTime(t, { utc: true })).toBe("15:45");
    expect(relativeTime(t, t + 3 * 60_000)).toBe("vor 3 Minuten");
    expect(formatSaleDay("2026-03-04", t)).toBe("gestern");
  });

  it("a Japanese browser reads Japanese dates", () => {
    vi.stubGlobal("navigator", { language: "ja-JP" });
    expect(formatDay(t, { utc: true })).toBe("2026年3月5日");
    expect(relativeTime(t, t + 2 * 3600_000)).toBe("2 時間前");
  });
});

describe("invalid dates", () => {
  it("throw as Intl's format throws (the Worker then serves the listing page's plain shell)", () => {
    expect(() => new Intl.DateTimeFormat("en-US", { dateStyle: "long" }).format(new Date("not a date"))).toThrow(RangeError);
    for (const locale of ["en-US", "de-DE"]) {
      expect(() => formatDay("not a date", { locale })).toThrow(RangeError);
      expect(() => formatDay(Number.NaN, { utc: true, locale })).toThrow(RangeError);
      expect(() => formatDayTime("not a date", { locale })).toThrow(RangeError);
      expect(() => formatTime(Number.NaN, { locale })).toThrow(RangeError);
    }
  });
});

describe("sameLocalDay", () => {
  it("compares days in the visitor's time zone", () => {
    inZone("America/Los_Angeles", () => {
      expect(sameLocalDay(Date.UTC(2026, 0, 2, 7), Date.UTC(2026, 0, 1, 9))).toBe(true); // both Jan 1 in Los Angeles
      expect(sameLocalDay(Date.UTC(2026, 0, 2, 9), Date.UTC(2026, 0, 1, 9))).toBe(false);
    });
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
