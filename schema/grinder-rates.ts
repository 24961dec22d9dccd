// This store's grinder in keys (candidates) per second: the one figure the address checker, the listing pages and
// the custom-order quote's default all take their times from (docs/rarity.md#time-at-this-stores-grinder).
// Measured with `npm run bench:grind` (docs/benchmarks.md), rounded down:
// - Ethereum CPU: the split-key grinder that fills orders, 0.6 to 1.34 M/s per core depending on load, 1.04 M/s
//   per core on the 16-core H200 host; GPU: the WebGPU kernel measured 2,700 M/s on one H200, declared with margin
//   as 2,000 M/s, the rate the quote promises where no admin configured another.
// - Solana CPU: 34.6 k/s per core on a quiet machine; GPU: 106.6 M/s on one H200.

export type GrinderRates = {
  /** Keys per second on one CPU core (one thread) of this store's grinder. */
  cpuCore: number;
  /** Keys per second on one GPU running this store's kernel. */
  gpu: number;
};

export const STORE_GRINDER_RATES = {
  ethereum: { cpuCore: 1_000_000, gpu: 2_000_000_000 },
  solana: { cpuCore: 33_000, gpu: 100_000_000 },
} as const satisfies Record<"ethereum" | "solana", GrinderRates>;
