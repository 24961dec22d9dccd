// The node layer's Ethereum clients, created in one place, for reads that decide no money: one node by its URL (the
// cron's probe of each node), or the first node of ETH_RPC_URLS that answers (viem's fallback transport; the chain
// tests' own reads). Sign-in's contract-wallet check asks every node itself (contract-signature.ts). Money reads go through the payment verifier (payment-verifier.ts), which asks every
// node. The transport follows the spec's wallet configuration: 10 s timeout, 3 retries with a 150 ms base delay
// that doubles, JSON-RPC batching.
import { type Chain, createPublicClient, defineChain, fallback, http, type PublicClient } from "viem";
import { type RpcNodesText, rpcUrls } from "../deployment/rpc-nodes";

type ChainEnv = Pick<Env, "ETH_CHAIN_ID"> & RpcNodesText;

/** Chain `id` served by the nodes at `urls`. Typed as viem's Chain: the Worker's declarations (worker/tsconfig.api.json) need a type they can name. */
export function chainOf(id: number, urls: string[]): Chain {
  return defineChain({
    id,
    name: id === 1 ? "Ethereum" : id === 11155111 ? "Sepolia" : `Chain ${id}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: urls } },
  });
}

/** The configured chain (ETH_CHAIN_ID) over the configured nodes. */
export function ethereumChain(env: ChainEnv): Chain {
  return chainOf(Number(env.ETH_CHAIN_ID), rpcUrls(env, "ethereum"));
}

const transportTo = (url: string) => http(url, { timeout: 10_000, retryCount: 3, retryDelay: 150, batch: { batchSize: 1000 } });

/** A client of the one node at `url`, on chain `chainId`. */
export function ethereumNodeClient(url: string, chainId: number): PublicClient {
  return createPublicClient({ chain: chainOf(chainId, [url]), transport: transportTo(url) });
}

export function ethereumClient(env: ChainEnv): PublicClient {
  const nodes = rpcUrls(env, "ethereum").map(transportTo);
  return createPublicClient({ chain: ethereumChain(env), transport: nodes.length === 1 ? nodes[0] : fallback(nodes) });
}
