import { describe, expect, it } from "vitest";
import { BASE58_ALPHABET, HEX_CHARS } from "../../../schema/address";
import { ETHEREUM_WORDS, SOLANA_WORDS, caseVariants, isDeliberateCase, longestWordAtEnd, longestWordAtStart } from "./words";

describe("dictionaries", () => {
  it("Ethereum words are hex, at least 4 characters, no duplicates", () => {
    for (const w of ETHEREUM_WORDS) {
      expect(w.length, w).toBeGreaterThanOrEqual(4);
      for (const c of w) expect(HEX_CHARS, w).toContain(c);
    }
    expect(new Set(ETHEREUM_WORDS).size).toBe(ETHEREUM_WORDS.length);
  });

  it("Solana words are lower-case letters, at least 3, writable in base58, no duplicates", () => {
    for (const w of SOLANA_WORDS) {
      expect(w, w).toMatch(/^[a-z]{3,}$/);
      // Every letter has at least one case in base58 (o and i lower only, l upper only).
      for (const c of w) expect(BASE58_ALPHABET.includes(c) || BASE58_ALPHABET.includes(c.toUpperCase()), w).toBe(true);
    }
    expect(new Set(SOLANA_WORDS).size).toBe(SOLANA_WORDS.length);
  });
});

describe("word matching", () => {
  it("finds the longest word at either end, case-insensitively", () => {
    const a = "0xDeadBeef000000000000000000000000000C0FFEE";
    expect(longestWordAtStart(a, 2, a.length, "ethereum")).toBe(8);
    expect(longestWordAtEnd(a, 2, a.length, "ethereum")).toBe(6);
    expect(longestWordAtStart("0xdeadbee0", 2, 10, "ethereum")).toBe(4);
    expect(longestWordAtStart("0x1234", 2, 6, "ethereum")).toBe(0);
    expect(longestWordAtEnd("xxxSoL", 0, 6, "solana")).toBe(3);
    expect(longestWordAtStart("MOONxx", 0, 6, "solana")).toBe(4);
  });

  it("never reads outside the given range", () => {
    expect(longestWordAtStart("0xdead", 2, 5, "ethereum")).toBe(0);
    expect(longestWordAtEnd("deadxx", 1, 4, "ethereum")).toBe(0);
  });
});

describe("case forms", () => {
  it("counts case variants per alphabet", () => {
    expect(caseVariants("a".charCodeAt(0), "ethereum")).toBe(2);
    expect(caseVariants("7".charCodeAt(0), "ethereum")).toBe(1);
    expect(caseVariants("p".charCodeAt(0), "solana")).toBe(2);
    expect(caseVariants("o".charCodeAt(0), "solana")).toBe(1);
    expect(caseVariants("i".charCodeAt(0), "solana")).toBe(1);
    expect(caseVariants("L".charCodeAt(0), "solana")).toBe(1);
  });

  it("accepts lower, UPPER and Capitalised; rejects other mixes", () => {
    const ok = (s: string, n: "ethereum" | "solana" = "ethereum") => isDeliberateCase(s, 0, s.length, n);
    expect(ok("dead")).toBe(true);
    expect(ok("DEAD")).toBe(true);
    expect(ok("Dead")).toBe(true);
    expect(ok("dEaD")).toBe(false);
    expect(ok("deaD")).toBe(false);
    expect(ok("C0FFEE")).toBe(true);
    expect(ok("c0fFee")).toBe(false);
    expect(ok("1337")).toBe(true);
    // base58: o, i and L have one case, so "SoL" is capitalised and "soL" lower case.
    expect(ok("SoL", "solana")).toBe(true);
    expect(ok("soL", "solana")).toBe(true);
    expect(ok("MooN", "solana")).toBe(true); // o has no upper case: this is upper case
    expect(ok("BoNk", "solana")).toBe(false);
    expect(ok("PuMp", "solana")).toBe(false);
  });
});
