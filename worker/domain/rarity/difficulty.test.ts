import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { BASE58_ALPHABET } from "../../../schema/address";
import { LOG2_BASE58_CHAR, difficultyFromLog2, hexCharacters, scoreFromLog2, solanaFirstCharProbability, solanaPrefixLog2 } from "./difficulty";
import { seededBytes } from "./test-random";

describe("scoreFromLog2: clamp(log2 / 4, 0, 10)", () => {
  it("one point per fixed hex character: 4, 7, 8.5 and 9 characters score 4, 7, 8.5 and 9", () => {
    expect(scoreFromLog2(16)).toBe(4);
    expect(scoreFromLog2(28)).toBe(7);
    expect(scoreFromLog2(34)).toBe(8.5);
    expect(scoreFromLog2(36)).toBe(9);
    expect(scoreFromLog2(40)).toBe(10);
  });
  it("clamps to 0..10 and rounds to one decimal", () => {
    expect(scoreFromLog2(0)).toBe(0);
    expect(scoreFromLog2(-3)).toBe(0);
    expect(scoreFromLog2(48)).toBe(10);
    expect(scoreFromLog2(160)).toBe(10);
    expect(scoreFromLog2(29.2)).toBe(7.3);
    expect(scoreFromLog2(23.43)).toBe(5.9); // a 4-character Solana suffix: 5.86 bits, about 1.46 points each
  });
  it("hexCharacters is log2 / 4, neither rounded nor clamped", () => {
    expect(hexCharacters(29.2)).toBeCloseTo(7.3, 12);
    expect(hexCharacters(144)).toBe(36);
  });
  it("reports attempts as 2^log2", () => {
    expect(difficultyFromLog2(16)).toEqual({ attempts: 65536, log2: 16 });
  });
});

describe("solanaPrefixLog2: the real distribution of base58 keys", () => {
  it("first-character probabilities sum to 1", () => {
    let sum = 0;
    for (const c of BASE58_ALPHABET) sum += solanaFirstCharProbability(c);
    expect(sum).toBeCloseTo(1, 12);
  });

  it("is skewed: 2..H about 5.9 % each, J 1.4 %, K..z about 0.1 % (43-character keys only)", () => {
    for (const c of "23456789ABCDEFGH") expect(solanaFirstCharProbability(c)).toBeCloseTo(0.059, 2);
    expect(solanaFirstCharProbability("J")).toBeCloseTo(0.0143, 3);
    for (const c of "KLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz") expect(solanaFirstCharProbability(c)).toBeCloseTo(0.001, 4);
  });

  it("a leading 1 is a zero byte: 8 bits each", () => {
    expect(solanaPrefixLog2("1")).toBe(8);
    expect(solanaPrefixLog2("111")).toBe(24);
    // A zero byte then an ordinary character: slightly more than 8 + one character.
    expect(solanaPrefixLog2("1A")).toBeGreaterThan(8);
  });

  it("characters after the first are close to 58 each", () => {
    const moon = solanaPrefixLog2("moon");
    expect(moon - solanaPrefixLog2("m")).toBeCloseTo(3 * LOG2_BASE58_CHAR, 3);
    expect(solanaPrefixLog2("m")).toBeCloseTo(Math.log2(999.3), 1);
  });

  it("rejects prefixes no key can produce", () => {
    // A 44-character key never starts with J followed by a high digit.
    expect(solanaPrefixLog2("Jz" + "1".repeat(42))).toBe(Infinity);
  });

  it("matches a simulation of 20,000 keys", () => {
    const next = seededBytes(42);
    const N = 20_000;
    const counts = new Map<string, number>();
    let lowFirst = 0;
    for (let i = 0; i < N; i++) {
      const s = base58.encode(next(32));
      counts.set(s[0], (counts.get(s[0]) ?? 0) + 1);
      if ("KLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".includes(s[0])) lowFirst++;
    }
    for (const c of "2ABH") {
      const expected = N * solanaFirstCharProbability(c);
      expect(Math.abs((counts.get(c) ?? 0) - expected)).toBeLessThan(5 * Math.sqrt(expected));
    }
    const expectedLow = N * 40 * solanaFirstCharProbability("z");
    expect(Math.abs(lowFirst - expectedLow)).toBeLessThan(5 * Math.sqrt(expectedLow));
  });
});
