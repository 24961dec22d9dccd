// GET /api/config: the public settings the browser needs to link out and to pay: which Ethereum chain and
// Solana cluster this marketplace settles on, the platform address to pay on each, the depth a payment
// needs, and how long a reservation lasts. Nothing secret: the RPC URLs themselves (which may carry an API
// key) are never returned, only the cluster read from them and whether both are local.
import { Hono } from "hono";
import { type ChainConfigResponse, RESERVATION_MINUTES, type SolanaCluster } from "../../schema/purchases";
import { configuredDepth } from "../chain/payment-verifier";
import { solanaCommitment } from "../chain/solana-payments";
import type { AppEnv } from "../types";
import { localDevWallets } from "./dev-chains";

export type { ChainConfigResponse, SolanaCluster };

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
  const id = Number(c.env.ETH_CHAIN_ID);
  const ethChainId = Number.isSafeInteger(id) && id > 0 ? id : 0;
  const solCluster = solanaCluster(c.env.SOL_RPC_URL);
  c.header("Cache-Control", "public, max-age=300");
  return c.json({
    ethChainId,
    solCluster,
    payments: {
      ethereum: { recipient: c.env.PLATFORM_ETH_ADDRESS, chainId: ethChainId, confirmations: configuredDepth(c.env.ETH_CONFIRMATIONS, 1) },
      solana: { recipient: c.env.PLATFORM_SOL_ADDRESS, cluster: solCluster, commitment: solanaCommitment(c.env.SOL_COMMITMENT) },
    },
    reservationMinutes: RESERVATION_MINUTES,
    localDevWallets: localDevWallets(c.env),
  } satisfies ChainConfigResponse);
});
