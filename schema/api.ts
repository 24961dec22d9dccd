// Response shapes both sides share. The Worker's handlers build them (checked with `satisfies`), the web
// reads them; keeping them here means neither side imports the other's code.
import type { Network } from "./db";
import type { KeylessReason, RarityAnalysis } from "./rarity";

/**
 * Every error the API answers (worker/http/errors.ts): what went wrong and why, sometimes with extra fields
 * (`currentPrice`, `reservedUntil`, `missingIds`, a refusal's `supportInfo`).
 */
export type ErrorBody = { error: string; message: string } & Record<string, unknown>;

/** POST/GET /api/addresses/validate when the address is not valid: an answer, not an error. */
export type AddressCheckInvalid = { isValid: false; message: string; error: string; network: Network; address: string };

/** POST/GET /api/addresses/validate for a valid address: the rarity analysis plus what it means and is worth. */
export type AddressCheckValid = Omit<RarityAnalysis, "matchRanges"> & {
  isValid: true;
  message: string;
  network: Network;
  address: string;
  currency: "ETH" | "SOL";
  /** Decimal string in `currency`; "0" for a keyless address. */
  estimatedValue: string;
  /** [start, end) character ranges of the full address to highlight. */
  matchRanges: [number, number][];
  /** The difficulty in fixed hex characters, log2(attempts) / 4 (unrounded and unclamped, unlike the score). */
  hexCharacters: number;
  expectedTime: { cpuCoreSeconds: number; gpuSeconds: number };
  referenceRates: { cpuCore: number; gpu: number };
  /** Set when nobody can hold this address's key (zero, burn, precompile, small-order point): worth nothing, never listed. */
  keyless: { reason: KeylessReason; message: string } | null;
  /** The marketplace's listing of this address while it is for sale (its page is /address/{id}); else null. */
  listing: { id: number; price: string; currency: "ETH" | "SOL" } | null;
};

export type AddressCheckResponse = AddressCheckValid | AddressCheckInvalid;
