import { describe, expect, it } from "vitest";
import { aboutDuration, compactNumber, formatDuration } from "./duration";

describe("aboutDuration", () => {
  it("says about before a time, never before 'under a second'", () => {
    expect(aboutDuration(0.004)).toBe("under a second");
    expect(aboutDuration(210)).toBe("about 3.5 minutes");
    expect(aboutDuration(Number.NaN)).toBe("—");
  });
});

describe("formatDuration", () => {
  it.each([
    [0.2, "under a second"],
    [1, "1 second"],
    [42, "42 seconds"],
    [90, "1.5 minutes"],
    [7200, "2 hours"],
    [86400 * 3, "3 days"],
    [86400 * 365.25 * 12, "12 years"],
    [86400 * 365.25 * 3e9, "3 billion years"],
  ])("%s s -> %s", (s, text) => expect(formatDuration(s)).toBe(text));

  it("refuses nonsense", () => {
    expect(formatDuration(Number.NaN)).toBe("—");
    expect(formatDuration(-1)).toBe("—");
  });
});

describe("compactNumber", () => {
  it("keeps small numbers plain and names large ones", () => {
    expect(compactNumber(65536)).toBe("65.5 thousand");
    expect(compactNumber(4294967296)).toBe("4.3 billion");
    expect(compactNumber(9999)).toBe("9,999");
  });

  // Written out instead of Intl (ICU's start-up is a long task on the listing page): it must read as Intl does.
  it("reads as Intl's en-US compact long format, rounding and units included", () => {
    const intl = new Intl.NumberFormat("en-US", { notation: "compact", compactDisplay: "long", maximumFractionDigits: 1 });
    const samples = [
      0,
      1,
      9999,
      9999.5,
      10_000,
      12_345,
      12_345.678,
      65_536,
      99_949,
      99_950,
      99_999,
      999_949,
      999_950,
      1e6,
      1_049_999,
      1_050_000,
      1_250_000,
      1_350_000,
      999_949_999,
      999_950_000,
      2 ** 32,
      2 ** 40,
      999.95e12,
      1e15,
      1.23e15,
      1.5e18,
      2 ** 64,
      1e21,
      1.234e25,
      2 ** 160,
      1e30,
      1.7e308,
      Number.MAX_VALUE,
      Number.POSITIVE_INFINITY,
      Number.NaN,
    ];
    let seed = 11;
    const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 2000; i++) samples.push(Math.floor(10 ** (4 + next() * 26)), 10 ** (4 + next() * 26));
    for (const n of [...samples, ...samples.map((x) => -x)]) {
      // Plain, rounded and grouped, below ten thousand.
      expect(compactNumber(n), String(n)).toBe(Math.abs(n) < 10_000 ? Math.round(n).toLocaleString("en-US") : intl.format(n));
    }
  });
});
