import { randomBytes } from "node:crypto";
import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { expectedAttempts, matchedChars, matchesAddress, patternType, solanaPrefixProbability, validatePattern, type PatternSpec } from "./grind-pattern.ts";

const eth = (prefix: string, suffix = "", caseSensitive = false): PatternSpec => ({ network: "ethereum", prefix, suffix, caseSensitive });
const sol = (prefix: string, suffix = "", caseSensitive = false): PatternSpec => ({ network: "solana", prefix, suffix, caseSensitive });

describe("validatePattern", () => {
  it("accepts hex for Ethereum in either case", () => {
    expect(validatePattern(eth("dEaD", "BEEF"))).toEqual([]);
  });

  it("names the non-hex characters", () => {
    const [msg] = validatePattern(eth("c0ffeeg", ""));
    expect(msg).toContain("non-hex");
    expect(msg).toContain('"g"');
    expect(validatePattern(eth("", "xyz!"))[0]).toMatch(/"x", "y", "z", "!"/);
  });

  it("names characters outside base58, with case-sensitive hints", () => {
    const [msg] = validatePattern(sol("0Sol", "", true));
    expect(msg).toContain("base58");
    expect(msg).toContain('"0"');
    expect(msg).toContain('"l"');
    expect(msg).not.toContain('"S"');
    // case-insensitive: l matches L and O matches o, but 0 never exists
    expect(validatePattern(sol("SOL"))).toEqual([]);
    expect(validatePattern(sol("s0l"))[0]).toContain('"0"');
  });

  // ſ (U+017F) upper-cases to S and the Kelvin sign (U+212A) lower-cases to k: read as base58 letters they once
  // passed validation, then faulted the GPU or halved the CPU's matches. A pattern is ASCII, whatever its case.
  it.each([
    ["ſol", false, "U+017F"],
    ["\u212Aey", false, "U+212A"],
    ["\u212Aey", true, "U+212A"],
    ["Sol\u00A0", false, "U+00A0"],
    ["𝐒ol", false, "U+1D412"],
  ])("refuses the non-ASCII character in Solana pattern %j (case-sensitive %s), naming it and its code point", (prefix, caseSensitive, code) => {
    const errors = validatePattern(sol(prefix, "", caseSensitive));
    expect(errors.join("\n")).toContain(code);
    expect(errors.join("\n")).toMatch(/not ASCII/);
    expect(validatePattern(sol("", prefix, caseSensitive)).join("\n")).toContain(code);
  });

  it("refuses non-ASCII look-alikes of hex in an Ethereum pattern, naming the code point", () => {
    // fullwidth 'ａ' and Cyrillic 'а' look like 'a'
    expect(validatePattern(eth("ｄead")).join("\n")).toContain("U+FF44");
    expect(validatePattern(eth("", "c\u0430fe")).join("\n")).toMatch(/"а" \(U\+0430\).*not ASCII/);
  });

  it("refuses empty and too long patterns", () => {
    expect(validatePattern(eth("", ""))[0]).toMatch(/--prefix/);
    expect(validatePattern(eth("a".repeat(20), "b".repeat(20)))).toEqual([]);
    expect(validatePattern(eth("a".repeat(21), "b".repeat(20)))[0]).toMatch(/too long: prefix \+ suffix is 41/);
    expect(validatePattern(sol("a".repeat(45)))[0]).toMatch(/too long/);
  });

  it("validates mirror lengths", () => {
    expect(validatePattern({ ...eth(""), mirror: 4 })).toEqual([]);
    expect(validatePattern({ ...eth(""), mirror: 21 })[0]).toMatch(/between 1 and 20/);
    expect(validatePattern({ ...eth("ab"), mirror: 2 })[0]).toMatch(/cannot be combined/);
  });
});

describe("reference matching", () => {
  it("matches Ethereum case-insensitively unless asked", () => {
    const a = "0xDeAd000000000000000000000000000000bEeF";
    expect(matchesAddress(eth("dead", "beef"), a)).toBe(true);
    expect(matchesAddress(eth("dead", "beef", true), a)).toBe(false);
    expect(matchesAddress(eth("DeAd", "bEeF", true), a)).toBe(true);
    expect(matchedChars(eth("dead", "beef"), a)).toBe("DeAdbEeF");
    expect(patternType(eth("dead", "beef"))).toBe("prefix+suffix");
    expect(patternType(eth("", "beef"))).toBe("suffix");
  });
  it("matches mirrors", () => {
    const spec = { ...eth(""), mirror: 4 };
    expect(matchesAddress(spec, "0xab120000000000000000000000000000000012ba")).toBe(false);
    expect(matchesAddress(spec, "0xab120000000000000000000000000000000021BA")).toBe(true);
    expect(matchedChars(spec, "0xab120000000000000000000000000000000021BA")).toBe("ab1221BA");
  });
});

describe("expected attempts", () => {
  it("is 16^n for hex, doubled per letter when case-sensitive", () => {
    expect(expectedAttempts(eth("dead"))).toBe(65536);
    expect(expectedAttempts(eth("0000", "00"))).toBe(16 ** 6);
    expect(expectedAttempts(eth("DEAD", "", true))).toBe(65536 * 16);
    expect(expectedAttempts(eth("c0de", "", true))).toBe(65536 * 8);
  });

  it("agrees with the rarity engine's documented Solana prefix odds", () => {
    // docs/rarity.md: moon 27.54 bits, SoL 21.68, Bonk 21.66, 111 24.00 (all exact case)
    expect(-Math.log2(solanaPrefixProbability("moon", true))).toBeCloseTo(27.54, 1);
    expect(-Math.log2(solanaPrefixProbability("SoL", true))).toBeCloseTo(21.68, 1);
    expect(-Math.log2(solanaPrefixProbability("Bonk", true))).toBeCloseTo(21.66, 1);
    expect(-Math.log2(solanaPrefixProbability("111", true))).toBeCloseTo(24, 5);
  });

  it("matches a simulation for common first characters", () => {
    const n = 20000;
    const counts = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const c = base58.encode(randomBytes(32))[0];
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    for (const c of ["3", "A", "H"]) {
      const p = solanaPrefixProbability(c, true);
      expect(p).toBeGreaterThan(0.05);
      expect(Math.abs((counts.get(c) ?? 0) / n - p)).toBeLessThan(0.012);
    }
    // 'z' only starts 43-character addresses: about 0.1 %
    expect(solanaPrefixProbability("z", true)).toBeLessThan(0.002);
    // case-insensitive "a" sums "A" (common) and "a" (rare)
    expect(solanaPrefixProbability("a", false)).toBeCloseTo(solanaPrefixProbability("A", true) + solanaPrefixProbability("a", true), 12);
  });
});
