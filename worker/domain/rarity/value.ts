// The estimated value of an address: a floor that rises with the score, plus the compute a grinder
// would rent to produce the pattern, times a margin. All figures are in the network's own currency.
import type { Network } from "../../../schema/rarity";

/**
 * Calibration (docs/rarity.md):
 * - floor: what any listed address is worth (about 4 USD at the reference coin prices), rising linearly
 *   with log2 of the difficulty (by one floor every 64 bits), so rarer always means dearer even where the
 *   compute is negligible;
 * - compute: attempts / reference GPU rate x GPU rental price, converted at the reference coin price (the
 *   spec's fallback USD rates), times `margin` for the seller's time, risk and profit.
 * The admin's algorithm_adjustments.baseValueMultiplier scales the result.
 */
export const VALUE_MODEL = {
  gpuUsdPerHour: 0.5,
  /**
   * Keys per second of the GPU a seller would rent (RTX 4090 class: profanity2-class grinders for Ethereum, CUDA
   * ed25519 grinders for Solana), not this store's grinder: the estimate prices what a pattern costs anyone to make,
   * and the calibration by sales (jobs/calibrate-values.ts) was fitted to these figures.
   */
  rentedGpuKeysPerSecond: { ethereum: 1_000_000_000, solana: 100_000_000 },
  margin: 3,
  ethereum: { floor: 0.001, usdPerCoin: 3796 },
  solana: { floor: 0.02, usdPerCoin: 184 },
} as const;

/** Never more than the largest amount the decimal(18,8) price columns hold (a large admin multiplier could reach it). */
// biome-ignore lint/correctness/noPrecisionLoss: the nearest double to the column's largest value, as JSON carries it.
export const MAX_VALUE = 9_999_999_999.99999999;
const MAX_VALUE_TEXT = "9999999999.99999999";

/**
 * Difficulty past which the value stops rising: 2^56 attempts (14 hex characters), about 2 GPU-years for an
 * Ethereum pattern and 23 for a Solana one at the reference rates, beyond what any seller plausibly ground.
 * Harder patterns are priced as this one (addresses past 2^128 have no key at all: domain/keyless.ts).
 */
export const VALUE_MAX_LOG2 = 56;

/** The value before rounding, in ETH or SOL. Strictly increasing in difficultyLog2 up to VALUE_MAX_LOG2, flat after. */
export function valueInCoin(difficultyLog2: number, network: Network, baseValueMultiplier = 1.0): number {
  if (Number.isNaN(difficultyLog2)) throw new RangeError("difficultyLog2 must be a number");
  if (!Number.isFinite(baseValueMultiplier) || baseValueMultiplier <= 0) {
    throw new RangeError("baseValueMultiplier must be a positive number");
  }
  const log2 = Math.min(VALUE_MAX_LOG2, Math.max(0, difficultyLog2));
  const { floor, usdPerCoin } = VALUE_MODEL[network];
  const gpuSeconds = 2 ** log2 / VALUE_MODEL.rentedGpuKeysPerSecond[network];
  const compute = ((gpuSeconds / 3600) * VALUE_MODEL.gpuUsdPerHour) / usdPerCoin;
  const value = baseValueMultiplier * (floor * (1 + log2 / 64) + VALUE_MODEL.margin * compute);
  return Math.min(value, MAX_VALUE);
}

/**
 * Estimated value as a decimal string in the network's currency (ETH or SOL), at most 8 decimals, no
 * trailing zeros. `baseValueMultiplier` comes from the active algorithm_adjustments row (default 1.0).
 */
export function estimateValue(difficultyLog2: number, network: Network, baseValueMultiplier = 1.0): string {
  const value = valueInCoin(difficultyLog2, network, baseValueMultiplier);
  if (value >= MAX_VALUE) return MAX_VALUE_TEXT;
  const text = value.toFixed(8);
  return text.replace(/\.?0+$/, "");
}
