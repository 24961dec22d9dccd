import { EthereumSearcher } from "./ethereum.ts";
import type { PatternSpec } from "./pattern.ts";
import { SolanaSearcher } from "./solana.ts";
import type { Searcher } from "./types.ts";

export function createSearcher(spec: PatternSpec): Searcher {
  return spec.network === "ethereum" ? new EthereumSearcher(spec) : new SolanaSearcher(spec);
}
