import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { toChecksumAddress } from "../../../schema/address";
import { analyzeAddress } from "./analyze";
import { LOG2_BASE58_CHAR } from "./difficulty";
import { seededBytes, toHex } from "./test-random";

// Filler bodies chosen to show no pattern of their own at either end.
const eth = (prefix: string, suffix = "", filler = "5a1c93e7b2d4f608") => {
  let mid = "";
  while (mid.length < 40 - prefix.length - suffix.length) mid += filler;
  return "0x" + prefix + mid.slice(0, 40 - prefix.length - suffix.length) + suffix;
};
const SOL_FILLER = "9xQ7vLk2mR4tYpWc8sDfGh3jZbNe5uAo6KiMqP";
const sol = (prefix: string, suffix = "", length = 44) => prefix + SOL_FILLER.repeat(2).slice(0, length - prefix.length - suffix.length) + suffix;

describe("analyzeAddress: random addresses", () => {
  it("score 0 almost always (over 99 %, mean under 0.05)", () => {
    const next = seededBytes(7);
    for (const network of ["ethereum", "solana"] as const) {
      const scores: number[] = [];
      for (let i = 0; i < 5000; i++) {
        const address = network === "ethereum" ? (i % 2 === 0 ? toChecksumAddress("0x" + toHex(next(20))) : "0x" + toHex(next(20))) : base58.encode(next(32));
        scores.push(analyzeAddress(address, network).rarityScore);
      }
      const zero = scores.filter((s) => s === 0).length / scores.length;
      const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
      expect(zero, network).toBeGreaterThan(0.99);
      expect(mean, network).toBeLessThan(0.05);
    }
  });

  it("gives a plain address pattern custom, position none, difficulty 1", () => {
    const r = analyzeAddress(eth(""), "ethereum");
    expect(r).toMatchObject({ rarityScore: 0, category: "custom", pattern: "custom", patternLength: 0, patternPosition: "none", matchRanges: [] });
    expect(r.difficulty).toEqual({ attempts: 1, log2: 0 });
  });

  it("does not score pairs or triples of repeated characters", () => {
    expect(analyzeAddress(eth("77"), "ethereum").rarityScore).toBe(0);
    expect(analyzeAddress(eth("777"), "ethereum").rarityScore).toBe(0);
    expect(analyzeAddress(eth("00"), "ethereum").rarityScore).toBe(0);
    expect(analyzeAddress(eth("", "aa"), "ethereum").rarityScore).toBe(0);
    expect(analyzeAddress(sol("", "zz"), "solana").rarityScore).toBe(0);
    expect(analyzeAddress(sol("1"), "solana").rarityScore).toBe(0);
    expect(analyzeAddress(eth("777"), "ethereum").repeatingDigits).toBe(3);
  });
});

describe("analyzeAddress: ethereum", () => {
  it("leading zeros: 16 per zero, from 3", () => {
    const r = analyzeAddress(eth("000000"), "ethereum");
    expect(r).toMatchObject({
      category: "leading-zeros",
      pattern: "000000",
      patternPosition: "prefix",
      matchRanges: [[2, 8]],
      hasLeadingZeros: true,
      leadingZeroCount: 6,
      rarityScore: 6,
    });
    expect(r.difficulty.log2).toBe(24);
    expect(analyzeAddress(eth("000"), "ethereum").difficulty.log2).toBe(12);
    expect(analyzeAddress(eth("00"), "ethereum")).toMatchObject({ hasLeadingZeros: false, leadingZeroCount: 2 });
  });

  it("trailing zeros: 16 per zero", () => {
    const r = analyzeAddress(eth("", "00000"), "ethereum");
    expect(r).toMatchObject({
      category: "trailing-zeros",
      pattern: "00000",
      patternPosition: "suffix",
      matchRanges: [[37, 42]],
      hasTrailingZeros: true,
      trailingZeroCount: 5,
    });
    expect(r.difficulty.log2).toBe(20);
  });

  it("runs of another character: the first is free", () => {
    const r = analyzeAddress(eth("77777"), "ethereum");
    expect(r).toMatchObject({ category: "custom", pattern: "77777", repeatingDigits: 5 });
    expect(r.difficulty.log2).toBe(16);
    expect(analyzeAddress(eth("", "aaaa"), "ethereum").difficulty.log2).toBe(12);
  });

  it("scores 4, 8 and 12 fixed characters as 4.0, 8.0 and 10 (the scale's top is 10 characters)", () => {
    expect(analyzeAddress(eth("dead"), "ethereum").rarityScore).toBe(4);
    expect(analyzeAddress(eth("deadbeef"), "ethereum").rarityScore).toBe(8);
    expect(analyzeAddress(eth("000000000000"), "ethereum").rarityScore).toBe(10);
  });

  it("words at either end, with leetspeak, longest first", () => {
    expect(analyzeAddress(eth("deadbeef"), "ethereum")).toMatchObject({ category: "word-like", pattern: "deadbeef", hasWordPattern: true });
    expect(analyzeAddress(eth("", "c0ffee"), "ethereum")).toMatchObject({ category: "word-like", pattern: "c0ffee", patternPosition: "suffix" });
    expect(analyzeAddress(eth("0ff1ce"), "ethereum")).toMatchObject({ category: "word-like", pattern: "0ff1ce" });
  });

  it("prefix + suffix multiply", () => {
    const r = analyzeAddress(eth("dead", "beef"), "ethereum");
    expect(r).toMatchObject({
      category: "word-like",
      pattern: "dead...beef",
      patternPosition: "prefix+suffix",
      patternLength: 8,
      matchRanges: [
        [2, 6],
        [38, 42],
      ],
    });
    expect(r.difficulty.log2).toBe(32);
    const mixed = analyzeAddress(eth("0000", "dead"), "ethereum");
    expect(mixed).toMatchObject({ category: "leading-zeros", pattern: "0000...dead" }); // tie: leading-zeros wins
    const runs = analyzeAddress(eth("7777", "7777"), "ethereum");
    expect(runs).toMatchObject({ category: "custom", pattern: "7777...7777" });
    expect(runs.difficulty.log2).toBe(24);
    // The stronger part names the category.
    expect(analyzeAddress(eth("000", "c0ffee"), "ethereum")).toMatchObject({ category: "word-like", pattern: "000...c0ffee" });
  });

  it("never counts a character twice (the zero address)", () => {
    const r = analyzeAddress("0x" + "0".repeat(40), "ethereum");
    expect(r).toMatchObject({ category: "leading-zeros", patternPosition: "prefix", patternLength: 40, rarityScore: 10, leadingZeroCount: 40 });
    expect(r.difficulty.log2).toBe(160);
  });

  it("sequences ascend or descend in hex order, first character free", () => {
    const up = analyzeAddress(eth("3456789a"), "ethereum");
    expect(up).toMatchObject({ category: "sequential", pattern: "3456789a", hasSequence: true });
    expect(up.difficulty.log2).toBe(28);
    expect(analyzeAddress(eth("", "fedcba"), "ethereum")).toMatchObject({ category: "sequential", pattern: "fedcba" });
    expect(analyzeAddress(eth("123"), "ethereum").hasSequence).toBe(false);
  });

  it("mirrors: the trailing k characters repeat the leading k reversed", () => {
    const r = analyzeAddress(eth("9e4a7", "7a4e9"), "ethereum");
    expect(r).toMatchObject({
      category: "palindrome",
      pattern: "9e4a7...7a4e9",
      patternPosition: "prefix+suffix",
      hasPalindrome: true,
      matchRanges: [
        [2, 7],
        [37, 42],
      ],
    });
    expect(r.difficulty.log2).toBe(20);
  });

  it("flags (without scoring) a palindrome of 6+ at one end", () => {
    const r = analyzeAddress(eth("9e44e9"), "ethereum");
    expect(r.hasPalindrome).toBe(true);
    expect(r.rarityScore).toBe(0);
    expect(analyzeAddress(eth("999999"), "ethereum").hasPalindrome).toBe(false); // a run, not a palindrome
  });

  describe("EIP-55 case", () => {
    /** A checksummed address whose first four letters come out in the given case. */
    const checksummedWith = (prefix: string, wanted: string) => {
      const next = seededBytes(11);
      for (;;) {
        const a = toChecksumAddress("0x" + prefix + toHex(next(20)).slice(prefix.length));
        if (a.slice(2, 2 + wanted.length) === wanted) return a;
      }
    };

    it("a deliberate case under a valid checksum adds a factor 2 per letter", () => {
      const upper = checksummedWith("dead", "DEAD");
      const r = analyzeAddress(upper, "ethereum");
      expect(r).toMatchObject({ pattern: "DEAD", caseSensitivePattern: true });
      expect(r.difficulty.log2).toBe(20);
      // The same letters with no checksum: 16 bits.
      const plain = analyzeAddress(upper.toLowerCase(), "ethereum");
      expect(plain).toMatchObject({ pattern: "dead", caseSensitivePattern: false });
      expect(plain.difficulty.log2).toBe(16);
      const title = analyzeAddress(checksummedWith("cafe", "Cafe"), "ethereum");
      expect(title.difficulty.log2).toBe(20);
    });

    it("an arbitrary case mix earns nothing", () => {
      const r = analyzeAddress(checksummedWith("dead", "dEaD"), "ethereum");
      expect(r).toMatchObject({ pattern: "dEaD", caseSensitivePattern: false });
      expect(r.difficulty.log2).toBe(16);
    });

    it("a wrong checksum earns nothing", () => {
      const good = checksummedWith("dead", "DEAD");
      // Flip the case of a letter outside the pattern: mixed case, invalid checksum.
      const i = good.slice(6).search(/[a-fA-F]/) + 6;
      const bad = good.slice(0, i) + (good[i] === good[i].toUpperCase() ? good[i].toLowerCase() : good[i].toUpperCase()) + good.slice(i + 1);
      const r = analyzeAddress(bad, "ethereum");
      expect(r.caseSensitivePattern).toBe(false);
      expect(r.difficulty.log2).toBe(16);
    });

    it("a uniform-case run pins each letter after the first", () => {
      const r = analyzeAddress(checksummedWith("aaaa", "AAAA"), "ethereum");
      expect(r).toMatchObject({ category: "custom", caseSensitivePattern: true });
      const n = r.patternLength; // the random remainder may extend the run
      expect(r.pattern).toBe("A".repeat(n));
      expect(r.difficulty.log2).toBe(4 * (n - 1) + (n - 1));
    });
  });
});

describe("analyzeAddress: solana", () => {
  it("suffix words: 58 per character as written, 29 per two-case letter when case-insensitive", () => {
    const exact = analyzeAddress(sol("", "pump"), "solana");
    expect(exact).toMatchObject({ category: "word-like", pattern: "pump", patternPosition: "suffix", caseSensitivePattern: true, hasWordPattern: true });
    expect(exact.difficulty.log2).toBeCloseTo(4 * LOG2_BASE58_CHAR, 9);
    const loose = analyzeAddress(sol("", "PuMp"), "solana");
    expect(loose).toMatchObject({ pattern: "PuMp", caseSensitivePattern: false });
    expect(loose.difficulty.log2).toBeCloseTo(4 * Math.log2(29), 9);
  });

  it("letters with one case in base58 (o, i, L) fit every form", () => {
    const r = analyzeAddress(sol("", "SoL"), "solana");
    expect(r).toMatchObject({ pattern: "SoL", caseSensitivePattern: true });
    expect(r.difficulty.log2).toBeCloseTo(3 * LOG2_BASE58_CHAR, 9);
  });

  it("prefixes use the real first-character odds", () => {
    const moon = analyzeAddress(sol("moon", "", 43), "solana");
    const bonk = analyzeAddress(sol("Bonk"), "solana");
    expect(moon.pattern).toBe("moon");
    expect(bonk.pattern).toBe("Bonk");
    expect(moon.difficulty.log2).toBeCloseTo(27.54, 2);
    expect(bonk.difficulty.log2).toBeCloseTo(21.66, 2);
    // Case-insensitive at the start: both forms of the first letter summed.
    const loose = analyzeAddress(sol("boNK"), "solana");
    expect(loose.caseSensitivePattern).toBe(false);
    expect(loose.difficulty.log2).toBeLessThan(bonk.difficulty.log2);
  });

  it("leading 1s are zero bytes (256 each), trailing 1s base58 zeros (58 each)", () => {
    const lead = analyzeAddress(sol("11", "", 43), "solana");
    expect(lead).toMatchObject({ category: "leading-zeros", pattern: "11", leadingZeroCount: 2, hasLeadingZeros: true });
    expect(lead.difficulty.log2).toBe(16);
    const trail = analyzeAddress(sol("", "111"), "solana");
    expect(trail).toMatchObject({ category: "trailing-zeros", trailingZeroCount: 3 });
    expect(trail.difficulty.log2).toBeCloseTo(3 * LOG2_BASE58_CHAR, 9);
  });

  it("runs, sequences and mirrors compare exact base58 digits", () => {
    const run = analyzeAddress(sol("", "zzzz"), "solana");
    expect(run).toMatchObject({ category: "custom", pattern: "zzzz", caseSensitivePattern: true });
    expect(run.difficulty.log2).toBeCloseTo(3 * LOG2_BASE58_CHAR, 9);
    expect(analyzeAddress(sol("", "zZzZ"), "solana").rarityScore).toBe(0);
    const seq = analyzeAddress(sol("", "EFGHJK"), "solana"); // base58 has no I
    expect(seq).toMatchObject({ category: "sequential", pattern: "EFGHJK", hasSequence: true });
    expect(seq.difficulty.log2).toBeCloseTo(5 * LOG2_BASE58_CHAR, 9);
    const mirror = analyzeAddress(sol("Ab3d", "d3bA"), "solana");
    expect(mirror).toMatchObject({ category: "palindrome", pattern: "Ab3d...d3bA" });
    expect(mirror.difficulty.log2).toBeCloseTo(4 * LOG2_BASE58_CHAR, 9);
  });
});
