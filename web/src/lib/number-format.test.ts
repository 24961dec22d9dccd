import { describe, expect, it } from "vitest";
import {
  availabilityText,
  usdText,
  buyButton,
  formatNumber,
  formatPrice,
  formatPriceTrimmed,
  formatRarity,
  formatCount,
  formatUsd,
  groupDigits,
  hasRarityRing,
  isHot,
  isNew,
  ownerStatusBadge,
  promotionTint,
  rarityColour,
  rarityLabel,
  rarityTier,
  formatDateLong,
  formatMonthDay,
  relativeTime,
  shortAddress,
  transactionDisplay,
} from "./number-format";

describe("shortAddress", () => {
  it("keeps 20 characters or fewer as they are", () => {
    expect(shortAddress("")).toBe("");
    expect(shortAddress("12345678901234567890")).toBe("12345678901234567890");
  });
  it("beyond 20: first 8 ... last 6", () => {
    expect(shortAddress("123456789012345678901")).toBe("12345678...678901");
    expect(shortAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBe("0xf39Fd6...b92266");
    expect(shortAddress("HTEt6JErUsgJjSEKtGvyvBDgiZq34p97uu2kaiGDtjHg")).toBe("HTEt6JEr...GDtjHg");
  });
});

describe("numbers", () => {
  it("6 decimals under 1, else 4", () => {
    expect(formatNumber(0.5)).toBe("0.500000");
    expect(formatNumber("0.123456789")).toBe("0.123457");
    expect(formatNumber(0.9999999)).toBe("1.000000");
    expect(formatNumber(1)).toBe("1.0000");
    expect(formatNumber(1234.56789)).toBe("1234.5679");
    expect(formatNumber(-0.25)).toBe("-0.250000");
    expect(formatNumber("abc")).toBe("0");
  });

  it("prices: 8 decimals, exact for decimal strings", () => {
    expect(formatPrice("1.5")).toBe("1.50000000");
    expect(formatPrice("0.00001")).toBe("0.00001000");
    expect(formatPrice("123456789012.12345678")).toBe("123456789012.12345678");
    expect(formatPrice(0.1 + 0.2)).toBe("0.30000000");
    expect(formatPrice("2")).toBe("2.00000000");
    expect(formatPrice(".5")).toBe("0.50000000");
    expect(formatPrice("0.999999999")).toBe("1.00000000");
  });

  it("negative prices show as absolute values with 8 decimals", () => {
    expect(formatPrice("-1.5")).toBe("1.50000000");
    expect(formatPrice(-0.00000001)).toBe("0.00000001");
  });

  it("garbage shows as zero", () => {
    for (const bad of ["", "abc", "1.2.3", "1e5", Number.NaN, Infinity]) expect(formatPrice(bad as string)).toBe("0.00000000");
  });

  it("detail page: trailing zeros trimmed", () => {
    expect(formatPriceTrimmed("1.50000000")).toBe("1.5");
    expect(formatPriceTrimmed("2.0")).toBe("2");
    expect(formatPriceTrimmed("0.00012300")).toBe("0.000123");
    expect(formatPriceTrimmed("-3.10")).toBe("3.1");
    expect(formatPriceTrimmed("0.123456789")).toBe("0.12345679");
  });

  it("USD", () => {
    expect(formatUsd(3796)).toBe("$3,796.00");
    // Rounded to cents everywhere, including a purchase total.
    expect(formatUsd(6.302878)).toBe("$6.30");
    expect(formatUsd(12.3456789)).toBe("$12.35");
    expect(formatUsd(0.004)).toBe("<$0.01");
    expect(formatUsd(0)).toBe("$0.00");
  });
});

describe("rarity", () => {
  it.each([
    [10, "ULTRA RARE", "GOLD", "purple"],
    [9, "ULTRA RARE", "GOLD", "purple"],
    [8.9, "RARE", "EPIC", "purple"],
    [8, "RARE", "EPIC", "purple"],
    [7.9, "UNCOMMON", "RARE", "blue"],
    [7, "UNCOMMON", "RARE", "blue"],
    [6, "NOTABLE", "HIGH", "blue"],
    [5.9, "COMMON", "PLUS", "green"],
    [5, "COMMON", "PLUS", "green"],
    [4.9, "COMMON", "BASE", "green"],
    [4, "COMMON", "BASE", "green"],
    [3.9, "BASIC", "BASE", "grey"],
    [0, "BASIC", "BASE", "grey"],
  ])("%s: card %s, table %s, colour %s", (s, tier, label, colour) => {
    expect(rarityTier(s).label).toBe(tier);
    expect(rarityTier(String(s)).label).toBe(tier);
    expect(rarityLabel(s)).toBe(label);
    expect(rarityColour(String(s))).toBe(colour);
  });

  it("only ULTRA RARE is gold", () => {
    expect(rarityTier("9.0").gold).toBe(true);
    expect(rarityTier("8.9").gold).toBe(false);
  });

  it("HOT at 8.5, ring at 9", () => {
    expect([isHot(8.4), isHot("8.5"), isHot(10)]).toEqual([false, true, true]);
    expect([hasRarityRing(8.9), hasRarityRing("9.0")]).toEqual([false, true]);
  });

  it("score text", () => {
    expect(formatRarity("7.25")).toBe("7.3/10");
    expect(formatRarity(11)).toBe("10.0/10");
    expect(formatRarity("x")).toBe("0.0/10");
  });
});

describe("badges", () => {
  const now = Date.parse("2026-11-22T12:00:00Z");
  const day = 86_400_000;
  it("NEW within 7 days", () => {
    expect(isNew(new Date(now - 7 * day).toISOString(), now)).toBe(true);
    expect(isNew(now - 7 * day - 1, now)).toBe(false);
    expect(isNew(now - 1000, now)).toBe(true);
    expect(isNew("not a date", now)).toBe(false);
    expect(isNew(now + 10 * day, now)).toBe(false);
  });

  it("promotion tint", () => {
    expect(promotionTint("featured")).toBe("purple");
    expect(promotionTint("promoted")).toBe("orange");
    expect(promotionTint("standard")).toBeNull();
    expect(promotionTint("none")).toBeNull();
  });
});

describe("listing state", () => {
  it.each([
    [{ status: "active", isListed: true }, true, "Buy Now", "Listed", "Available for Purchase"],
    [{ status: "sold", isListed: false }, false, "Sold", "Sold", "Not Available"],
    [{ status: "sold", isListed: true }, false, "Sold", "Sold", "Not Available"],
    [{ status: "deleted", isListed: true }, false, "Deleted", "Deleted", "Not Available"],
    [{ status: "inactive", isListed: true }, false, "Unavailable", "Unavailable", "Not Available"],
    [{ status: "pending", isListed: true }, false, "Unavailable", "Unavailable", "Not Available"],
    [{ status: "active", isListed: false }, false, "Not Listed", "Unavailable", "Not Available"],
  ])("%j", (listing, enabled, label, badge, availability) => {
    expect(buyButton(listing)).toEqual({ enabled, label });
    expect(ownerStatusBadge(listing)).toBe(badge);
    expect(availabilityText(listing)).toBe(availability);
  });

  it("Reserved while an open purchase holds an available listing, not once an unpaid one lapsed", () => {
    const now = Date.parse("2026-03-05T22:00:00Z");
    const at = (m: number) => new Date(now + m * 60_000).toISOString();
    const active = { status: "active", isListed: true };
    expect(availabilityText({ ...active, reservation: { until: at(5), paymentReported: false } }, now)).toBe("Reserved");
    expect(availabilityText({ ...active, reservation: { until: at(-5), paymentReported: true } }, now)).toBe("Reserved");
    expect(availabilityText({ ...active, reservation: { until: at(-1), paymentReported: false } }, now)).toBe("Available for Purchase");
    expect(availabilityText({ status: "sold", isListed: false, reservation: { until: at(5), paymentReported: true } }, now)).toBe("Not Available");
  });
});

describe("transactions", () => {
  it("display mapping", () => {
    expect(transactionDisplay("pending")).toEqual({ type: "Listed", status: "Active" });
    expect(transactionDisplay("completed")).toEqual({ type: "Sale", status: "Completed" });
    for (const s of ["cancelled", "failed", "expired", "initiated", ""]) expect(transactionDisplay(s)).toEqual({ type: "Cancelled", status: "Cancelled" });
  });

  it("usdText: one figure for one price at one rate, worded as the Worker words formattedUsd", () => {
    const rates = { ethPrice: 3796, solPrice: 184 };
    expect(usdText("0.001", "ETH", rates)).toBe("$3.80");
    expect(usdText("2", "SOL", rates)).toBe("$368.00");
    expect(usdText("1000", "ETH", rates)).toBe("$3,796,000.00");
    expect(usdText("0.000001", "ETH", rates)).toBe("<$0.01");
    expect(usdText("0", "ETH", rates)).toBe("$0.00");
    expect(usdText("x", "ETH", rates)).toBe("$0.00");
  });
});

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

// display.ts writes these out instead of using Intl (ICU's start-up is a long task on the landing pages): they
// must read exactly as Intl's en-US formatters would.
describe("figures written without Intl read as Intl's en-US formatters", () => {
  const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
  const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
  const words = new Intl.RelativeTimeFormat("en", { numeric: "always" });
  const samples = [0, 0.01, 0.015, 0.125, 0.5, 1, 1.005, 9.995, 12.3456, 999.995, 1000, 1234.5, 99999.999, 1e6, 123456789.987, 2 ** 40 + 0.49];

  it("formatUsd and groupDigits", () => {
    for (const n of [...samples, ...samples.map((x) => -x)]) {
      if (n > 0 && n < 0.01) continue;
      expect(formatUsd(n), String(n)).toBe(usd.format(n));
    }
    expect(groupDigits(1234567.891, 2)).toBe("1,234,567.89");
    expect(groupDigits(-999)).toBe("-999");
  });

  it("formatCount", () => {
    for (const n of [0, 7, 999, 1000, 10000, 123456, 1234567, 10 ** 12, 4.4, 4.5]) expect(formatCount(n), String(n)).toBe(whole.format(n));
    expect(formatCount(Number.NaN)).toBe("NaN");
  });

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
