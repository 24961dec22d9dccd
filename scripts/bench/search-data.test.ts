import { describe, expect, it } from "vitest";
import { insertStatements, listing, prng } from "./search-data";
import { percentile } from "./search-mix";

describe("bench listings", () => {
  const now = Date.parse("2026-11-22T00:00:00Z");
  const sample = (() => {
    const r = prng(1);
    return Array.from({ length: 20_000 }, () => listing(r, now));
  })();

  it("are deterministic for a seed", () => {
    const a = prng(5);
    const b = prng(5);
    expect(listing(a, now)).toEqual(listing(b, now));
  });

  it("are well-formed addresses that show their pattern where the category says", () => {
    for (const l of sample) {
      if (l.network === "ethereum") expect(l.address).toMatch(/^0x[0-9a-f]{40}$/);
      else expect(l.address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
      const body = l.network === "ethereum" ? l.address.slice(2) : l.address;
      if (l.category === "custom") expect([l.pattern, l.patternLength]).toEqual(["custom", 0]);
      else expect(body.startsWith(l.pattern) || body.endsWith(l.pattern)).toBe(true);
      expect(l.currency).toBe(l.network === "ethereum" ? "ETH" : "SOL");
      expect(l.rarity).toBeGreaterThanOrEqual(0);
      expect(l.rarity).toBeLessThanOrEqual(10);
      expect(l.priceUnits).toBeGreaterThan(0);
      expect(Math.round(Number(l.price) * 1e8)).toBe(l.priceUnits);
      expect(l.createdAt).toBeLessThanOrEqual(now);
    }
    expect(new Set(sample.map((l) => l.address)).size).toBe(sample.length);
  });

  it("spread like a real marketplace", () => {
    const share = (f: (l: (typeof sample)[number]) => boolean) => sample.filter(f).length / sample.length;
    expect(share((l) => l.network === "ethereum")).toBeCloseTo(0.55, 1);
    expect(share((l) => l.status === "active" && l.isListed === 1)).toBeCloseTo(0.87, 1);
    expect(share((l) => l.status === "sold" || l.status === "deleted")).toBeCloseTo(0.08, 1);
    for (const category of ["custom", "leading-zeros", "word-like", "trailing-zeros", "sequential", "palindrome"]) {
      expect(
        share((l) => l.category === category),
        category,
      ).toBeGreaterThan(0.03);
    }
    expect(share((l) => now - l.createdAt < 7 * 86_400_000)).toBeGreaterThan(0.02);
  });

  it("become INSERT statements under D1's 100 KB statement limit", () => {
    const statements = [...insertStatements(1200, 3, now, 500)];
    expect(statements).toHaveLength(3);
    for (const s of statements) expect(s.length).toBeLessThan(100_000);
    expect(statements[2].match(/\),\(/g)).toHaveLength(199);
  });
});

describe("percentile", () => {
  it("nearest rank", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});
