// The one block explorer per network, for the Worker and the web alike: Etherscan for Ethereum (its host per
// chain id), Solscan for Solana (the cluster as ?cluster=). Solscan rather than explorer.solana.com because it is
// the one whose address pages the listing page already linked, and one explorer per network means a buyer and an
// operator who follow a payment's link land on the same page. A local chain, or a chain with no public explorer,
// has no link: null. schema/network.ts holds the network's other facts (name, currency, units).
import type { Network } from "./db/columns";
import type { SolanaCluster } from "./purchases";

/** Which chain each network is on (GET /api/config answers both); a network left out has no link. */
export type ChainConfig = { ethChainId?: number; solCluster?: SolanaCluster };

const ETHERSCAN_BY_CHAIN: Record<number, string> = {
  1: "https://etherscan.io",
  11155111: "https://sepolia.etherscan.io",
  17000: "https://holesky.etherscan.io",
  560048: "https://hoodi.etherscan.io",
};

function explorerPage(network: Network, kind: "address" | "tx", id: string, config: ChainConfig): string | null {
  const value = encodeURIComponent(id);
  if (network === "ethereum") {
    const base = ETHERSCAN_BY_CHAIN[config.ethChainId ?? 0];
    return base ? `${base}/${kind}/${value}` : null;
  }
  const cluster = config.solCluster;
  if (!cluster || cluster === "localnet") return null;
  const query = cluster === "mainnet-beta" ? "" : `?cluster=${cluster}`;
  return `https://solscan.io/${kind === "address" ? "account" : "tx"}/${value}${query}`;
}

/** An address's page on the explorer of the configured chain; null on a local chain. */
export const explorerUrl = (network: Network, address: string, config: ChainConfig): string | null => explorerPage(network, "address", address, config);

/** A payment's page on the explorer of the configured chain (Etherscan tx, Solscan tx); null on a local chain. */
export const explorerTxUrl = (network: Network, hash: string, config: ChainConfig): string | null => explorerPage(network, "tx", hash, config);

/** The explorer's name for a link's text and accessible description. */
export const explorerName = (network: Network): "Etherscan" | "Solscan" => (network === "ethereum" ? "Etherscan" : "Solscan");
