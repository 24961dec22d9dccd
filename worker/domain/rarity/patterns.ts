// Shape scanners over the body a[s, e) of an address (after the 0x for Ethereum). Each is a single
// forward or backward walk over char codes: no regular expressions, no substrings, no allocation.
// `fold` folds letter case (Ethereum, where case is only the checksum's display); Solana compares
// characters exactly, since base58 "a" and "A" are different digits.
import { BASE58_ALPHABET, HEX_CHARS } from "../../../schema/address";

/** Digit value of a character (both cases for hex), -1 when not a digit of the alphabet. */
export const HEX_DIGIT = new Int8Array(128).fill(-1);
export const BASE58_DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < HEX_CHARS.length; i++) {
  HEX_DIGIT[HEX_CHARS.charCodeAt(i)] = i;
  HEX_DIGIT[HEX_CHARS.toUpperCase().charCodeAt(i)] = i;
}
for (let i = 0; i < BASE58_ALPHABET.length; i++) BASE58_DIGIT[BASE58_ALPHABET.charCodeAt(i)] = i;

// ASCII letters differ from their other case only in bit 0x20; digits already have it set.
const code = (a: string, i: number, fold: boolean) => (fold ? a.charCodeAt(i) | 0x20 : a.charCodeAt(i));

/** Number of characters equal to `c` at the start of a[s, e). */
export function countAtStart(a: string, s: number, e: number, c: number): number {
  let i = s;
  while (i < e && a.charCodeAt(i) === c) i++;
  return i - s;
}

/** Number of characters equal to `c` at the end of a[s, e). */
export function countAtEnd(a: string, s: number, e: number, c: number): number {
  let i = e;
  while (i > s && a.charCodeAt(i - 1) === c) i--;
  return e - i;
}

/** Length of the run of the first character repeated at the start of a[s, e). */
export function runAtStart(a: string, s: number, e: number, fold: boolean): number {
  if (s >= e) return 0;
  const first = code(a, s, fold);
  let i = s + 1;
  while (i < e && code(a, i, fold) === first) i++;
  return i - s;
}

/** Length of the run of the last character repeated at the end of a[s, e). */
export function runAtEnd(a: string, s: number, e: number, fold: boolean): number {
  if (s >= e) return 0;
  const last = code(a, e - 1, fold);
  let i = e - 1;
  while (i > s && code(a, i - 1, fold) === last) i--;
  return e - i;
}

/** Longest run of one repeated character anywhere in a[s, e). */
export function longestRun(a: string, s: number, e: number, fold: boolean): number {
  if (s >= e) return 0;
  let best = 1;
  let run = 1;
  let prev = code(a, s, fold);
  for (let i = s + 1; i < e; i++) {
    const c = code(a, i, fold);
    if (c === prev) {
      run++;
      if (run > best) best = run;
    } else {
      run = 1;
      prev = c;
    }
  }
  return best;
}

/**
 * Length of the ascending or descending run (digit values stepping by exactly +1 or -1 in the alphabet's
 * order) at the start of a[s, e); 1 when the first two characters do not step.
 */
export function sequenceAtStart(a: string, s: number, e: number, digits: Int8Array): number {
  if (e - s < 2) return e - s;
  const d0 = digitAt(a, s, digits);
  const d1 = digitAt(a, s + 1, digits);
  const step = d1 - d0;
  if (d0 < 0 || d1 < 0 || (step !== 1 && step !== -1)) return 1;
  let prev = d1;
  let i = s + 2;
  while (i < e) {
    const d = digitAt(a, i, digits);
    if (d < 0 || d - prev !== step) break;
    prev = d;
    i++;
  }
  return i - s;
}

/** Like sequenceAtStart, for the run ending at the end of a[s, e) (read left to right, either direction). */
export function sequenceAtEnd(a: string, s: number, e: number, digits: Int8Array): number {
  if (e - s < 2) return e - s;
  const dLast = digitAt(a, e - 1, digits);
  const dPrev = digitAt(a, e - 2, digits);
  const step = dLast - dPrev;
  if (dLast < 0 || dPrev < 0 || (step !== 1 && step !== -1)) return 1;
  let next = dPrev;
  let i = e - 3;
  while (i >= s) {
    const d = digitAt(a, i, digits);
    if (d < 0 || next - d !== step) break;
    next = d;
    i--;
  }
  return e - 1 - i;
}

function digitAt(a: string, i: number, digits: Int8Array): number {
  const c = a.charCodeAt(i);
  return c < 128 ? digits[c] : -1;
}

/** How many leading characters mirror the trailing ones: a[s+i] === a[e-1-i] for i < k (at most half). */
export function mirrorLength(a: string, s: number, e: number, fold: boolean): number {
  const half = (e - s) >> 1;
  let k = 0;
  while (k < half && code(a, s + k, fold) === code(a, e - 1 - k, fold)) k++;
  return k;
}

/** Shortest and longest end palindromes considered for the hasPalindrome flag. */
export const END_PALINDROME_MIN = 6;
const END_PALINDROME_MAX = 16;

/**
 * Whether the body starts or ends with a palindrome of 6 to 16 characters that is not a single repeated
 * character ("abccba" counts, "000000" is a run, not a palindrome).
 */
export function hasEndPalindrome(a: string, s: number, e: number, fold: boolean): boolean {
  const longest = Math.min(END_PALINDROME_MAX, e - s);
  for (let len = END_PALINDROME_MIN; len <= longest; len++) {
    if (isPalindrome(a, s, s + len, fold) || isPalindrome(a, e - len, e, fold)) return true;
  }
  return false;
}

function isPalindrome(a: string, from: number, to: number, fold: boolean): boolean {
  let distinct = false;
  const first = code(a, from, fold);
  for (let i = from, j = to - 1; i < j; i++, j--) {
    const c = code(a, i, fold);
    if (c !== code(a, j, fold)) return false;
    if (c !== first) distinct = true;
  }
  return distinct;
}

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;

/** Number of letters in a[from, to) when they all share one case, otherwise -1. */
export function uniformCaseLetters(a: string, from: number, to: number): number {
  let letters = 0;
  let uppers = 0;
  for (let i = from; i < to; i++) {
    const c = a.charCodeAt(i);
    if (isUpper(c)) {
      letters++;
      uppers++;
    } else if (isLower(c)) letters++;
  }
  return uppers === 0 || uppers === letters ? letters : -1;
}

/**
 * For a mirror of length k over a[s, e): the number of letters on the trailing side when every one of
 * them has the same case as its mirror image on the leading side, otherwise -1.
 */
export function mirroredCaseLetters(a: string, s: number, e: number, k: number): number {
  let letters = 0;
  for (let i = 0; i < k; i++) {
    const tail = a.charCodeAt(e - 1 - i);
    if (!isUpper(tail) && !isLower(tail)) continue;
    if (isUpper(tail) !== isUpper(a.charCodeAt(s + i))) return -1;
    letters++;
  }
  return letters;
}
