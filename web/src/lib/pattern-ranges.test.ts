import { describe, expect, it } from "vitest";
import { patternRanges } from "./pattern-ranges";

const ETH = "0x0000a1b2c3d4e5f60718293a4b5c6d7e8f90dead";
const SOL = "So1anaXyzAbCdEfGhJkLmNpQrStUvWxYz123456789";

describe("patternRanges", () => {
  it("has nothing to highlight for custom or empty patterns", () => {
    expect(patternRanges(ETH, "ethereum", "custom")).toEqual([]);
    expect(patternRanges(ETH, "ethereum", "")).toEqual([]);
    expect(patternRanges(ETH, "ethereum", null)).toEqual([]);
  });

  it("places an Ethereum prefix after 0x, in any letter case", () => {
    expect(patternRanges(ETH, "ethereum", "0000")).toEqual([[2, 6]]);
    expect(patternRanges("0xABCD" + "1".repeat(36), "ethereum", "abcd")).toEqual([[2, 6]]);
    expect(patternRanges(ETH, "ethereum", "0x0000")).toEqual([[2, 6]]);
  });

  it("places a run that is not a prefix at the end", () => {
    expect(patternRanges(ETH, "ethereum", "DEAD")).toEqual([[38, 42]]);
  });

  it("splits the prefix...suffix form into two ranges", () => {
    expect(patternRanges(ETH, "ethereum", "0000...dead")).toEqual([
      [2, 6],
      [38, 42],
    ]);
  });

  it("keeps the half that matches when the other does not", () => {
    expect(patternRanges(ETH, "ethereum", "0000...beef")).toEqual([[2, 6]]);
  });

  it("merges a prefix and suffix that overlap", () => {
    expect(patternRanges("0xaaaa", "ethereum", "aaa...aaa")).toEqual([[2, 6]]);
  });

  it("is case-sensitive on Solana and has no 0x offset", () => {
    expect(patternRanges(SOL, "solana", "So1ana")).toEqual([[0, 6]]);
    expect(patternRanges(SOL, "solana", "so1ana")).toEqual([]);
    expect(patternRanges(SOL, "solana", "6789")).toEqual([[SOL.length - 4, SOL.length]]);
  });

  it("falls back to the first occurrence for a pattern in the middle", () => {
    expect(patternRanges(SOL, "solana", "AbCd")).toEqual([[9, 13]]);
  });
});
