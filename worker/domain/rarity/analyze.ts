// analyzeAddress: find the notable patterns at the ends of an address, price each as the expected number
// of random keys a grinder needs to produce it, and report the hardest (docs/rarity.md explains the model).
import { toChecksumAddress } from "../../../schema/address";
import { LOG2_BASE58_CHAR, LOG2_HEX_CHAR, LOG2_ZERO_BYTE, difficultyFromLog2, scoreFromLog2, solanaPrefixLog2 } from "./difficulty";
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
import type { MatchRange, Network, PatternPosition, RarityAnalysis, RarityCategory } from "../../../schema/rarity";
import { caseVariants, isDeliberateCase, longestWordAtEnd, longestWordAtStart } from "./words";

/**
 * A feature is notable when at most 1 in 2^11.5 (about 2,900) random addresses shows it; below that it is
 * noise (two leading zeros, a pair of repeated characters) and the address scores 0.
 */
export const NOTABLE_LOG2 = 11.5;

/** Shortest length of each shape before the NOTABLE_LOG2 floor is even considered. */
export const MIN_LENGTH = { zeros: 2, run: 3, sequence: 4, mirror: 4 } as const;

/** Tie-break between equally hard patterns (lower wins). */
const CATEGORY_RANK: Record<RarityCategory, number> = {
  "leading-zeros": 0,
  "trailing-zeros": 1,
  "word-like": 2,
  sequential: 3,
  palindrome: 4,
  custom: 5,
};

const PREFIX = 0;
const SUFFIX = 1;
const MIRROR = 2;

type Candidate = {
  category: RarityCategory;
  side: typeof PREFIX | typeof SUFFIX | typeof MIRROR;
  /** Characters matched on one side (a mirror highlights this many on each side). */
  length: number;
  /** Difficulty of the characters, case aside. */
  log2: number;
  /** Ethereum: letters whose EIP-55 case the pattern pins (each a factor 2 if the checksum is valid). */
  caseBits: number;
  /** Solana: the pattern's letters are matched with their case. */
  caseSensitive: boolean;
};

const candidate = (category: RarityCategory, side: Candidate["side"], length: number, log2: number, caseBits: number, caseSensitive: boolean): Candidate => ({
  category,
  side,
  length,
  log2,
  caseBits,
  caseSensitive,
});

/**
 * Rarity of an address: the single hardest notable pattern at its ends (or a prefix+suffix pair, whose
 * difficulties multiply), its category, score, difficulty and the pattern fields of a listing row.
 * Expects a syntactically valid address (validateAddress); anything else just scores low.
 */
export function analyzeAddress(address: string, network: Network): RarityAnalysis {
  const eth = network === "ethereum";
  const a = address;
  const s = eth && a.charCodeAt(0) === 48 && a.charCodeAt(1) === 120 ? 2 : 0;
  const e = a.length;
  const bodyLength = e - s;
  const fold = eth;
  const charLog2 = eth ? LOG2_HEX_CHAR : LOG2_BASE58_CHAR;
  // A mixed-case Ethereum address claims an EIP-55 checksum, which fixes the case of every letter.
  const checksumMode = eth && isMixedCase(a, s, e);

  const prefix: Candidate[] = [];
  const suffix: Candidate[] = [];
  let mirror: Candidate | null = null;

  // Zeros: "0" for Ethereum (16 each); for Solana the base58 zero digit "1", which at the start is a whole
  // zero byte (256 each) and at the end one base58 digit (58 each).
  const zero = eth ? 48 : 49;
  const leadingZeroCount = countAtStart(a, s, e, zero);
  const trailingZeroCount = countAtEnd(a, s, e, zero);
  const leadingLog2 = leadingZeroCount * (eth ? LOG2_HEX_CHAR : LOG2_ZERO_BYTE);
  const trailingLog2 = trailingZeroCount * charLog2;
  const hasLeadingZeros = leadingZeroCount >= MIN_LENGTH.zeros && leadingLog2 >= NOTABLE_LOG2;
  const hasTrailingZeros = trailingZeroCount >= MIN_LENGTH.zeros && trailingLog2 >= NOTABLE_LOG2;
  if (hasLeadingZeros) prefix.push(candidate("leading-zeros", PREFIX, leadingZeroCount, leadingLog2, 0, false));
  if (hasTrailingZeros) suffix.push(candidate("trailing-zeros", SUFFIX, trailingZeroCount, trailingLog2, 0, false));

  // Runs of any other repeated character: the first character is free, each further one fixed.
  if (leadingZeroCount === 0) {
    const n = runAtStart(a, s, e, fold);
    const log2 = (n - 1) * charLog2;
    if (n >= MIN_LENGTH.run && log2 >= NOTABLE_LOG2) prefix.push(shape("custom", PREFIX, a, s, s + n, log2, eth, checksumMode));
  }
  if (trailingZeroCount === 0) {
    const n = runAtEnd(a, s, e, fold);
    const log2 = (n - 1) * charLog2;
    if (n >= MIN_LENGTH.run && log2 >= NOTABLE_LOG2) suffix.push(shape("custom", SUFFIX, a, e - n, e, log2, eth, checksumMode));
  }

  // Ascending or descending runs in the alphabet's order: also first character free.
  const digits = eth ? HEX_DIGIT : BASE58_DIGIT;
  let hasSequence = false;
  {
    const n = sequenceAtStart(a, s, e, digits);
    const log2 = (n - 1) * charLog2;
    if (n >= MIN_LENGTH.sequence && log2 >= NOTABLE_LOG2) {
      hasSequence = true;
      prefix.push(shape("sequential", PREFIX, a, s, s + n, log2, eth, checksumMode));
    }
  }
  {
    const n = sequenceAtEnd(a, s, e, digits);
    const log2 = (n - 1) * charLog2;
    if (n >= MIN_LENGTH.sequence && log2 >= NOTABLE_LOG2) {
      hasSequence = true;
      suffix.push(shape("sequential", SUFFIX, a, e - n, e, log2, eth, checksumMode));
    }
  }

  // Dictionary words: every character fixed.
  let hasWordPattern = false;
  {
    const n = longestWordAtStart(a, s, e, network);
    if (n > 0) {
      const word = eth ? ethereumWord(PREFIX, a, s, s + n, checksumMode) : solanaWord(PREFIX, a, 0, n);
      if (word.log2 >= NOTABLE_LOG2) {
        hasWordPattern = true;
        prefix.push(word);
      }
    }
  }
  {
    const n = longestWordAtEnd(a, s, e, network);
    if (n > 0) {
      const word = eth ? ethereumWord(SUFFIX, a, e - n, e, checksumMode) : solanaWord(SUFFIX, a, e - n, e);
      if (word.log2 >= NOTABLE_LOG2) {
        hasWordPattern = true;
        suffix.push(word);
      }
    }
  }

  // Mirror: the last k characters repeat the first k in reverse; the leading side is free.
  const k = mirrorLength(a, s, e, fold);
  const mirrorLog2 = k * charLog2;
  if (k >= MIN_LENGTH.mirror && mirrorLog2 >= NOTABLE_LOG2) {
    const caseBits = checksumMode ? Math.max(0, mirroredCaseLetters(a, s, e, k)) : 0;
    mirror = candidate("palindrome", MIRROR, k, mirrorLog2, caseBits, !eth && letterCount(a, e - k, e) > 0);
  }
  const hasPalindrome = mirror !== null || hasEndPalindrome(a, s, e, fold);

  // EIP-55 case only counts when the checksum is real; hash only when some pattern would use it.
  let caseCounts = false;
  if (checksumMode && (anyCaseBits(prefix) || anyCaseBits(suffix) || (mirror !== null && mirror.caseBits > 0))) {
    caseCounts = bodyLength === 40 && s === 2 && isValidChecksum(a);
  }
  const total = (c: Candidate) => c.log2 + (caseCounts ? c.caseBits : 0);

  // Pick the hardest single pattern or non-overlapping prefix+suffix pair.
  let bestLog2 = 0;
  let bestRank = CATEGORY_RANK.custom + 1;
  let bestPrefix: Candidate | null = null;
  let bestSuffix: Candidate | null = null;
  let bestCategory: RarityCategory = "custom";
  const consider = (log2: number, category: RarityCategory, p: Candidate | null, x: Candidate | null) => {
    const rank = CATEGORY_RANK[category];
    if (log2 > bestLog2 + 1e-9 || (Math.abs(log2 - bestLog2) <= 1e-9 && rank < bestRank)) {
      bestLog2 = log2;
      bestRank = rank;
      bestCategory = category;
      bestPrefix = p;
      bestSuffix = x;
    }
  };
  for (const p of prefix) consider(total(p), p.category, p, null);
  for (const x of suffix) consider(total(x), x.category, null, x);
  if (mirror !== null) consider(total(mirror), "palindrome", mirror, null);
  for (const p of prefix) {
    for (const x of suffix) {
      if (p.length + x.length > bodyLength) continue;
      const pl = total(p);
      const xl = total(x);
      const stronger = pl > xl + 1e-9 || (Math.abs(pl - xl) <= 1e-9 && CATEGORY_RANK[p.category] <= CATEGORY_RANK[x.category]) ? p : x;
      consider(pl + xl, stronger.category, p, x);
    }
  }

  const ranges: MatchRange[] = [];
  const parts: string[] = [];
  let position: PatternPosition = "none";
  let caseSensitivePattern = false;
  const chosenPrefix = bestPrefix as Candidate | null;
  const chosenSuffix = bestSuffix as Candidate | null;
  if (chosenPrefix !== null) {
    const n = chosenPrefix.length;
    ranges.push([s, s + n]);
    if (chosenPrefix.side === MIRROR) ranges.push([e - n, e]);
    position = chosenPrefix.side === MIRROR ? "prefix+suffix" : "prefix";
    caseSensitivePattern ||= eth ? caseCounts && chosenPrefix.caseBits > 0 : chosenPrefix.caseSensitive;
  }
  if (chosenSuffix !== null) {
    ranges.push([e - chosenSuffix.length, e]);
    position = position === "none" ? "suffix" : "prefix+suffix";
    caseSensitivePattern ||= eth ? caseCounts && chosenSuffix.caseBits > 0 : chosenSuffix.caseSensitive;
  }
  let patternLength = 0;
  for (const [from, to] of ranges) {
    parts.push(a.slice(from, to));
    patternLength += to - from;
  }

  return {
    rarityScore: scoreFromLog2(bestLog2),
    category: bestCategory,
    pattern: parts.length === 0 ? "custom" : parts.join("..."),
    patternLength,
    patternPosition: position,
    matchRanges: ranges,
    difficulty: difficultyFromLog2(bestLog2),
    repeatingDigits: longestRun(a, s, e, fold),
    hasLeadingZeros,
    leadingZeroCount,
    hasTrailingZeros,
    trailingZeroCount,
    hasPalindrome,
    hasSequence,
    hasWordPattern,
    caseSensitivePattern,
  };
}

/**
 * A shape pattern (run or sequence) over a[from, to). Its case is pinned only when all its letters share
 * one case; the first letter's case is then a free choice, each further letter a factor 2.
 */
function shape(
  category: RarityCategory,
  side: Candidate["side"],
  a: string,
  from: number,
  to: number,
  log2: number,
  eth: boolean,
  checksumMode: boolean,
): Candidate {
  if (eth) {
    const letters = checksumMode ? uniformCaseLetters(a, from, to) : 0;
    return candidate(category, side, to - from, log2, letters > 1 ? letters - 1 : 0, false);
  }
  return candidate(category, side, to - from, log2, 0, letterCount(a, from, to) > 0);
}

/** An Ethereum word: 16 per character, and 2 per letter when written in a deliberate case under a checksum. */
function ethereumWord(side: Candidate["side"], a: string, from: number, to: number, checksumMode: boolean): Candidate {
  const caseBits = checksumMode && isDeliberateCase(a, from, to, "ethereum") ? letterCount(a, from, to) : 0;
  return candidate("word-like", side, to - from, (to - from) * LOG2_HEX_CHAR, caseBits, false);
}

/**
 * A Solana word. Written in a deliberate case it is scored as the exact string; otherwise as a
 * case-insensitive match, where a letter with both cases in base58 is a factor 58/2 instead of 58.
 * At the prefix the exact first-character odds apply (solanaPrefixLog2).
 */
function solanaWord(side: Candidate["side"], a: string, from: number, to: number): Candidate {
  const n = to - from;
  const exact = isDeliberateCase(a, from, to, "solana");
  let log2: number;
  if (side === PREFIX) {
    log2 = exact ? solanaPrefixLog2(a.slice(0, n)) : solanaPrefixCaseInsensitiveLog2(a, n);
  } else {
    log2 = n * LOG2_BASE58_CHAR;
    if (!exact) for (let i = from; i < to; i++) log2 -= Math.log2(caseVariants(a.charCodeAt(i), "solana"));
  }
  return candidate("word-like", side, n, log2, 0, exact && letterCount(a, from, to) > 0);
}

/** Odds of a[0, n) as a case-insensitive prefix: the first character's exact odds, then 58/variants each. */
function solanaPrefixCaseInsensitiveLog2(a: string, n: number): number {
  const rest = a.slice(1, n);
  const c0 = a.charCodeAt(0);
  let p = 2 ** -solanaPrefixLog2(a[0] + rest);
  if (caseVariants(c0, "solana") === 2) p += 2 ** -solanaPrefixLog2(String.fromCharCode(c0 ^ 0x20) + rest);
  let log2 = -Math.log2(p);
  for (let i = 1; i < n; i++) log2 -= Math.log2(caseVariants(a.charCodeAt(i), "solana"));
  return log2;
}

function letterCount(a: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = a.charCodeAt(i) | 0x20;
    if (c >= 97 && c <= 122) n++;
  }
  return n;
}

function isMixedCase(a: string, s: number, e: number): boolean {
  let upper = false;
  let lower = false;
  for (let i = s; i < e; i++) {
    const c = a.charCodeAt(i);
    if (c >= 65 && c <= 90) upper = true;
    else if (c >= 97 && c <= 122) lower = true;
    if (upper && lower) return true;
  }
  return false;
}

function anyCaseBits(list: Candidate[]): boolean {
  for (const c of list) if (c.caseBits > 0) return true;
  return false;
}

function isValidChecksum(address: string): boolean {
  try {
    return toChecksumAddress(address) === address;
  } catch {
    return false;
  }
}
