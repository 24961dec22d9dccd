// Reference key-generation rates, used to turn a difficulty into "expected time" on the checker and to
// price the compute behind a pattern (value.ts). docs/rarity.md gives the sources; they are round,
// deliberately middle-of-the-road figures, not a benchmark of any one machine.
import type { Network } from "../../../schema/rarity";

export type KeyRates = {
  /** Random keys per second on one CPU core (one thread). */
  cpuCore: number;
  /** Random keys per second on one high-end consumer GPU (RTX 4090 class). */
  gpu: number;
};

export const REFERENCE_RATES: Readonly<Record<Network, Readonly<KeyRates>>> = {
  ethereum: {
    // Independent keys: one secp256k1 scalar multiplication plus keccak-256 per key.
    cpuCore: 25_000,
    // profanity2-class OpenCL grinder on an RTX 4090.
    gpu: 1_000_000_000,
  },
  solana: {
    // solana-keygen grind: about 1.05 M keys/s on a 16-core, 32-thread Ryzen 9 5950X.
    cpuCore: 33_000,
    // CUDA ed25519 grinders: about 100 M keys/s per RTX 5090.
    gpu: 100_000_000,
  },
};

/** Expected seconds to find a pattern needing `attempts` keys at `keysPerSecond` (the geometric mean). */
export function expectedTimeSeconds(attempts: number, keysPerSecond: number): number {
  if (!(keysPerSecond > 0)) throw new RangeError("keysPerSecond must be positive");
  return attempts / keysPerSecond;
}
