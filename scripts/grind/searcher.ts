import { EthereumSearcher } from "./ethereum.ts";
import type { PatternSpec } from "../../schema/grind-pattern.ts";
import { SolanaSearcher } from "./solana.ts";
import type { Searcher } from "./types.ts";

/** A searcher for the pattern; with `publicKey` (Ethereum only) a split-key search from the buyer's A. */
export function createSearcher(spec: PatternSpec, publicKey?: string): Searcher {
  if (publicKey !== undefined && spec.network !== "ethereum") throw new Error("split-key search is Ethereum only");
  return spec.network === "ethereum" ? new EthereumSearcher(spec, { publicKey }) : new SolanaSearcher(spec);
}
