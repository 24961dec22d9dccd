import { describe, expect, it } from "vitest";
import {
  BASE58_DIGIT,
  HEX_DIGIT,
  countAtEnd,
  countAtStart,
  hasEndPalindrome,
  longestRun,
  mirrorLength,
  mirroredCaseLetters,
  runAtEnd,
  runAtStart,
  sequenceAtEnd,
  sequenceAtStart,
  uniformCaseLetters,
} from "./patterns";

const all = (s: string) => [s, 0, s.length] as const;

describe("shape scanners", () => {
  it("count zeros and runs at the ends", () => {
    expect(countAtStart("000a00", 0, 6, 48)).toBe(3);
    expect(countAtEnd("000a00", 0, 6, 48)).toBe(2);
    expect(runAtStart(...all("aAab"), true)).toBe(3);
    expect(runAtStart(...all("aAab"), false)).toBe(1);
    expect(runAtEnd(...all("b777"), false)).toBe(3);
    expect(longestRun(...all("ab1111c22"), false)).toBe(4);
  });

  it("find ascending and descending sequences in the alphabet's order", () => {
    expect(sequenceAtStart(...all("789abX"), HEX_DIGIT)).toBe(5);
    expect(sequenceAtStart(...all("FEDC0"), HEX_DIGIT)).toBe(4);
    expect(sequenceAtStart(...all("1357"), HEX_DIGIT)).toBe(1);
    expect(sequenceAtEnd(...all("x0123"), HEX_DIGIT)).toBe(4);
    expect(sequenceAtEnd(...all("x9876"), HEX_DIGIT)).toBe(4);
    expect(sequenceAtEnd(...all("zGHJK"), BASE58_DIGIT)).toBe(4); // base58 skips I
    expect(sequenceAtStart(...all("9ABq"), BASE58_DIGIT)).toBe(3);
  });

  it("measure mirrors and end palindromes", () => {
    expect(mirrorLength(...all("abcXYZcba"), false)).toBe(3);
    expect(mirrorLength(...all("abcdcba"), false)).toBe(3);
    expect(hasEndPalindrome(...all("abccbaXXXXXXXXXX"), false)).toBe(true);
    expect(hasEndPalindrome(...all("XXXXXXXXXXabcba1"), false)).toBe(false);
    expect(hasEndPalindrome(...all("000000XXXXXXXXXX"), false)).toBe(false);
  });

  it("read letter case", () => {
    expect(uniformCaseLetters(...all("AB12C"))).toBe(3);
    expect(uniformCaseLetters(...all("Ab12"))).toBe(-1);
    expect(uniformCaseLetters(...all("1234"))).toBe(0);
    expect(mirroredCaseLetters("aB....Ba", 0, 8, 2)).toBe(2);
    expect(mirroredCaseLetters("aB....ba", 0, 8, 2)).toBe(-1);
  });
});
