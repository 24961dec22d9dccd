// Response shapes both sides share. The Worker's handlers build them (checked with `satisfies`), the web
// reads them; keeping them here means neither side imports the other's code.
import type { CATEGORIES, Network } from "./db";

/** POST/GET /api/addresses/validate when the address is not valid: an answer, not an error. */
export type AddressCheckInvalid = { isValid: false; message: string; error: string; network: Network; address: string };

/** POST/GET /api/addresses/validate for a valid address: the spec's fields plus the difficulty behind the score. */
export type AddressCheckValid = {
  isValid: true;
  message: string;
  network: Network;
  address: string;
  currency: "ETH" | "SOL";
  estimatedValue: string;
  rarityScore: number;
  category: (typeof CATEGORIES)[number];
  pattern: string;
  patternLength: number;
  patternPosition: "prefix" | "suffix" | "prefix+suffix" | "none";
  /** [start, end) character ranges of the full address to highlight. */
  matchRanges: [number, number][];
  difficulty: { attempts: number; log2: number };
  expectedTime: { cpuCoreSeconds: number; gpuSeconds: number };
  referenceRates: { cpuCore: number; gpu: number };
  repeatingDigits: number;
  hasLeadingZeros: boolean;
  leadingZeroCount: number;
  hasTrailingZeros: boolean;
  trailingZeroCount: number;
  hasPalindrome: boolean;
  hasSequence: boolean;
  hasWordPattern: boolean;
  caseSensitivePattern: boolean;
};

export type AddressCheckResponse = AddressCheckValid | AddressCheckInvalid;
