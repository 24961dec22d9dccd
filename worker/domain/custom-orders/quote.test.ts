import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { orderDifficultyBits, orderPatternProblems, addressMatchesOrder } from "../../../schema/custom-order-pattern";
import { HARDEST_ALLOWED_BITS, QUOTE_DEFAULTS, quoteConfigFromRow, quoteOrder } from "./quote";

const config = quoteConfigFromRow(null);
const row = (over: Partial<typeof QUOTE_DEFAULTS> | Record<string, unknown>) => ({ ...QUOTE_DEFAULTS, ...over }) as Parameters<typeof quoteConfigFromRow>[0];
const pattern = (prefix: string, suffix = "", caseSensitive = false) => ({ prefix, suffix, caseSensitive });

describe("custom order difficulty", () => {
  it("is 4 bits per hex character plus 1 per letter when the case must match", () => {
    expect(orderDifficultyBits(pattern("dead"))).toBe(16);
    expect(orderDifficultyBits(pattern("dead", "beef"))).toBe(32);
    expect(orderDifficultyBits(pattern("DeAd", "", true))).toBe(20);
    expect(orderDifficultyBits(pattern("0000", "", true))).toBe(16);
  });

  it("reports malformed patterns in words", () => {
    expect(orderPatternProblems(pattern(""))).toEqual(["Enter a prefix, a suffix or both"]);
    expect(orderPatternProblems(pattern("xyz"))[0]).toMatch(/prefix may hold only 0-9 and a-f/);
    // a look-alike is named with its code point, so the buyer can tell it from the letter it resembles
    expect(orderPatternProblems(pattern("", "c\u0430fe"))[0]).toMatch(/suffix may hold only 0-9 and a-f.*"а" \(U\+0430\)/);
    expect(orderPatternProblems(pattern("a".repeat(30), "b".repeat(11)))[0]).toMatch(/at most 40/);
    expect(orderPatternProblems(pattern("cafe", "f00d"))).toEqual([]);
  });

  it("matches addresses by prefix and suffix, with the checksum case only when asked", () => {
    const address = getAddress("0xdead" + "0".repeat(32) + "beef");
    const [head, tail] = [address.slice(2, 6), address.slice(-4)];
    const swapped = (s: string) => [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("");
    expect(addressMatchesOrder(pattern("dead", "beef"), address)).toBe(true);
    expect(addressMatchesOrder(pattern(head, tail, true), address)).toBe(true);
    expect(addressMatchesOrder(pattern(swapped(head), "", true), address)).toBe(false);
    expect(addressMatchesOrder(pattern(swapped(head), "", false), address)).toBe(true);
    expect(addressMatchesOrder(pattern("beef"), address)).toBe(false);
    expect(addressMatchesOrder(pattern("", "dead"), address)).toBe(false);
  });
});

describe("custom order quote", () => {
  it("is the base price plus the grinding share of the expected attempts, exactly", () => {
    // 2^16 attempts x 0.002 ETH per 10^9, rounded up to a whole 1e-8 unit: 0.00000014
    expect(quoteOrder(pattern("dead"), config).price).toBe("0.00500014");
    // 2^32: 4294967296 x 0.002 / 1e9 = 0.008589934592 -> 0.00858994 (up)
    expect(quoteOrder(pattern("dead", "beef"), config).price).toBe("0.01358994");
  });

  it("grows with the difficulty and never passes the maximum price", () => {
    const cheap = quoteOrder(pattern("ab"), config).priceUnits;
    const dear = quoteOrder(pattern("abcdef12"), config).priceUnits;
    expect(dear).toBeGreaterThan(cheap);
    const capped = quoteOrder(pattern("abcdef1234"), { ...config, maxDifficultyBits: 44 });
    expect(capped.priceUnits).toBe(config.maxPriceUnits);
    expect(capped.price).toBe(QUOTE_DEFAULTS.maxPrice);
  });

  it("defaults to one production GPU: 2,000 M candidates/s (below the H200's measured 2,700 M/s) and orders up to 2^44", () => {
    expect(config).toMatchObject({ grindRate: 2_000_000_000, maxDifficultyBits: 44 });
    // the hardest order is about 2.4 hours of grinding at the quoted rate
    expect(quoteOrder(pattern("abcdef12345"), config).estimatedSeconds / 3600).toBeCloseTo(2.44, 2);
  });

  it("refuses patterns beyond the stated maximum with the reason, and takes the maximum itself", () => {
    const atMax = quoteOrder(pattern("abcdef12345"), config); // 44 bits
    expect(atMax.refusal).toBeNull();
    const tooHard = quoteOrder(pattern("abcdef123456"), config); // 48 bits
    expect(tooHard.refusal).toMatch(
      /Too hard to order: this pattern needs about 2\^48 attempts \(39 hours of grinding\).*the most we take is 2\^44 \(2 hours\)/,
    );
    expect(quoteOrder(pattern("abcdef1234", "", true), config).refusal).not.toBeNull(); // 40 + 6 letters = 46
    expect(quoteOrder(pattern("abcd12345e", "", true), config).refusal).not.toBeNull(); // 40 + 5 = 45
    expect(quoteOrder(pattern("abcd123456", "", true), config).refusal).toBeNull(); // 40 + 4 = 44
    expect(quoteOrder(pattern("abcd123456", "", true), { ...config, maxDifficultyBits: 43 }).refusal).not.toBeNull();
  });

  it("estimates time at the configured grinding rate", () => {
    const q = quoteOrder(pattern("abcdef"), { ...config, grindRate: 1_000_000 });
    expect(q.estimatedSeconds).toBeCloseTo(16 ** 6 / 1_000_000, 6);
  });

  it("reads its settings from the D1 row in force and falls back on malformed ones", () => {
    const custom = quoteConfigFromRow(row({ basePrice: "0.01", maxDifficultyBits: 30, grindRate: 1000 }));
    expect(custom.basePriceUnits).toBe(1_000_000n);
    expect(custom.maxDifficultyBits).toBe(30);
    expect(custom.grindRate).toBe(1000);
    const broken = quoteConfigFromRow(row({ basePrice: "-1", maxDifficultyBits: HARDEST_ALLOWED_BITS + 1, grindRate: 0.5 }));
    expect(broken).toEqual(config);
    // a maximum below the base would make the cap undercut every order: the base wins
    expect(quoteConfigFromRow(row({ maxPrice: "0.001" })).maxPriceUnits).toBe(config.basePriceUnits);
  });
});
