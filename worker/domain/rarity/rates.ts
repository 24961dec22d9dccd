// The key-generation rates that turn a difficulty into "expected time" on the checker and the listing pages: this
// store's own grinder (schema/grinder-rates.ts), so every screen and the custom-order quote say the same time for
// the same pattern. The value model prices rented compute with its own figure (value.ts).
import { type GrinderRates, STORE_GRINDER_RATES } from "../../../schema/grinder-rates";
import type { Network } from "../../../schema/rarity";

export type KeyRates = GrinderRates;

export const REFERENCE_RATES: Readonly<Record<Network, Readonly<KeyRates>>> = STORE_GRINDER_RATES;

/** Expected seconds to find a pattern needing `attempts` keys at `keysPerSecond` (the geometric mean). */
export function expectedTimeSeconds(attempts: number, keysPerSecond: number): number {
  if (!(keysPerSecond > 0)) throw new RangeError("keysPerSecond must be positive");
  return attempts / keysPerSecond;
}
