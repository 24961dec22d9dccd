// The rarity analysis, defined once: the engine (worker/domain/rarity) returns it, the checker's answer
// (schema/api.ts) carries it, the web reads it. Field names follow the addresses table (schema/db) so a route
// can copy the pattern fields straight into a listing row.
import type { CATEGORIES, Network } from "./db";

export type { Network };
export type RarityCategory = (typeof CATEGORIES)[number];
export type PatternPosition = "prefix" | "suffix" | "prefix+suffix" | "none";

/** A highlighted part of the address: character indices [start, end) into the full address string. */
export type MatchRange = readonly [start: number, end: number];

export type Difficulty = {
  /** Expected number of random keys a grinder needs to produce the pattern (mean of a geometric law). */
  attempts: number;
  /** log2(attempts); the score is log2 / 4, clamped to 0..10 (docs/rarity.md). */
  log2: number;
};

export type RarityAnalysis = {
  /** 0 to 10, one decimal: clamp(log2(attempts) / 4, 0, 10); one point is one fixed hex character. */
  rarityScore: number;
  category: RarityCategory;
  /** The matched characters as they appear ("dead", "0000...beef"), or "custom" when nothing is notable. */
  pattern: string;
  /** Number of highlighted characters (sum of the ranges' lengths). */
  patternLength: number;
  patternPosition: PatternPosition;
  /** Parts of the address to highlight, in order (one for prefix or suffix, two for prefix+suffix). */
  matchRanges: MatchRange[];
  difficulty: Difficulty;
  /** Longest run of one repeated character anywhere after the 0x (case-folded for Ethereum). */
  repeatingDigits: number;
  hasLeadingZeros: boolean;
  /** Raw count of zero digits at the start ("0" for Ethereum, "1" for Solana), notable or not. */
  leadingZeroCount: number;
  hasTrailingZeros: boolean;
  trailingZeroCount: number;
  hasPalindrome: boolean;
  hasSequence: boolean;
  hasWordPattern: boolean;
  /** The scored pattern's letters are matched with their case (EIP-55 case for Ethereum; base58 for Solana). */
  caseSensitivePattern: boolean;
};

/** Why an address has no private key anyone can hold (worker/domain/keyless.ts). */
export type KeylessReason = "zero-address" | "precompile" | "burn-address" | "unreachable-pattern" | "small-order-point" | "outside-key-subgroup";
