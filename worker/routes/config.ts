// GET /api/config: the public settings the browser needs to link out correctly: which Ethereum chain and
// which Solana cluster this marketplace settles on (the listing page's "View on Explorer"). Nothing secret:
// the RPC URLs themselves (which may carry an API key) are never returned, only the cluster read from them.
import { Hono } from "hono";
import type { AppEnv } from "../types";
import { localDevWallets } from "./dev-chains";

export type SolanaCluster = "mainnet-beta" | "devnet" | "testnet" | "localnet";
/** Mirrored by web/src/lib/explorer.ts ChainConfig. */
export type ChainConfigResponse = {
  ethChainId: number;
  solCluster: SolanaCluster;
  /** Both chains are local nodes: the web app may offer the public dev accounts as wallets (web/src/wallet/dev/). */
  localDevWallets: boolean;
};

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "0.0.0.0"]);

/** The Solana cluster an RPC URL serves: a local validator, devnet, testnet, or else mainnet. */
export function solanaCluster(rpcUrl: string): SolanaCluster {
  let host: string;
  try {
    host = new URL(rpcUrl).hostname.toLowerCase();
  } catch {
    return "localnet";
  }
  if (LOCAL_HOSTS.has(host) || host.endsWith(".localhost")) return "localnet";
  if (host.includes("devnet")) return "devnet";
  if (host.includes("testnet")) return "testnet";
  return "mainnet-beta";
}

export const configRoutes = new Hono<AppEnv>().get("/", (c) => {
  const chainId = Number(c.env.ETH_CHAIN_ID);
  c.header("Cache-Control", "public, max-age=300");
  return c.json({
    ethChainId: Number.isSafeInteger(chainId) && chainId > 0 ? chainId : 0,
    solCluster: solanaCluster(c.env.SOL_RPC_URL),
    localDevWallets: localDevWallets(c.env),
  } satisfies ChainConfigResponse);
});
