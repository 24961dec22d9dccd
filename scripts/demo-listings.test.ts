import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { BulkRow } from "../schema/listings";
import { decimalToUnits } from "../schema/money";
import { DEMO_DAYS, demoPrice, planDemoListings, threeSignificant } from "./demo-listings";

const row = (address: string): BulkRow => ({ address, private_key: "", platform: "ethereum", pattern_type: "prefix", pattern_matched: address.slice(2, 6) });
const addresses = Array.from({ length: 20 }, (_, i) => privateKeyToAddress(`0x${(i + 1).toString(16).padStart(64, "0")}`));

describe("the demo plan", () => {
  it("is deterministic", () => {
    const now = 1_800_000_000_000;
    expect([...planDemoListings(addresses.map(row), now)]).toEqual([...planDemoListings(addresses.map(row), now)]);
  });

  it("promotes two, features six, spreads dates over 60 days and prices above the floor", () => {
    const now = 1_800_000_000_000;
    const plan = [...planDemoListings(addresses.map(row), now).values()];
    expect(plan.filter((d) => d.promotionType === "promoted")).toHaveLength(2);
    expect(plan.filter((d) => d.promotionType === "featured")).toHaveLength(6);
    for (const d of plan) {
      expect(d.createdAt!).toBeLessThanOrEqual(now);
      expect(d.createdAt!).toBeGreaterThan(now - DEMO_DAYS * 24 * 3600 * 1000);
      expect(decimalToUnits(d.price!)).toBeGreaterThanOrEqual(decimalToUnits("0.0005"));
    }
    expect(new Set(plan.map((d) => d.price)).size).toBeGreaterThan(5);
  });

  it("rarer addresses cost more on average", () => {
    const cheap = demoPrice("0x1234567890123456789012345678901234567890", "ethereum", 12);
    const rare = demoPrice("0x1234567890123456789012345678901234567890", "ethereum", 40);
    expect(decimalToUnits(rare)).toBeGreaterThan(decimalToUnits(cheap));
  });

  it("three significant digits", () => {
    expect(threeSignificant(123456n)).toBe(123000n);
    expect(threeSignificant(123556n)).toBe(124000n);
    expect(threeSignificant(99n)).toBe(99n);
  });
});
