// "View on Explorer" on the listing page: Etherscan for Ethereum, Solscan for Solana, on the network the
// marketplace is configured for (GET /api/config). A local development chain has no public explorer: null.
import type { Network } from "../../../schema/db";

export type SolanaCluster = "mainnet-beta" | "devnet" | "testnet" | "localnet";
export type ChainConfig = { ethChainId: number; solCluster: SolanaCluster };

const ETHERSCAN_BY_CHAIN: Record<number, string> = {
  1: "https://etherscan.io",
  11155111: "https://sepolia.etherscan.io",
  17000: "https://holesky.etherscan.io",
  560048: "https://hoodi.etherscan.io",
};

export function explorerUrl(network: Network, address: string, config: ChainConfig): string | null {
  const a = encodeURIComponent(address);
  if (network === "ethereum") {
    const base = ETHERSCAN_BY_CHAIN[config.ethChainId];
    return base ? `${base}/address/${a}` : null;
  }
  if (config.solCluster === "localnet") return null;
  const cluster = config.solCluster === "mainnet-beta" ? "" : `?cluster=${config.solCluster}`;
  return `https://solscan.io/account/${a}${cluster}`;
}

/** A payment's page on the explorer of the configured chain (Etherscan tx, Solscan tx); null on a local chain. */
export function explorerTxUrl(network: Network, hash: string, config: ChainConfig): string | null {
  const h = encodeURIComponent(hash);
  if (network === "ethereum") {
    const base = ETHERSCAN_BY_CHAIN[config.ethChainId];
    return base ? `${base}/tx/${h}` : null;
  }
  if (config.solCluster === "localnet") return null;
  const cluster = config.solCluster === "mainnet-beta" ? "" : `?cluster=${config.solCluster}`;
  return `https://solscan.io/tx/${h}${cluster}`;
}

/** The explorer's name for the button's accessible description. */
export const explorerName = (network: Network): "Etherscan" | "Solscan" => (network === "ethereum" ? "Etherscan" : "Solscan");
