// One public client per chain, created in one place. The transport follows the spec's wallet
// configuration: 10 s timeout, 3 retries with a 150 ms base delay that doubles, JSON-RPC batching.
import { type Chain, createPublicClient, defineChain, http, type PublicClient } from "viem";

/** Typed as viem's Chain: the Worker's declarations (worker/tsconfig.api.json) need a type they can name. */
export function ethereumChain(env: Pick<Env, "ETH_CHAIN_ID" | "ETH_RPC_URL">): Chain {
  const id = Number(env.ETH_CHAIN_ID);
  return defineChain({
    id,
    name: id === 1 ? "Ethereum" : id === 11155111 ? "Sepolia" : `Chain ${id}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [env.ETH_RPC_URL] } },
  });
}

export function ethereumClient(env: Pick<Env, "ETH_CHAIN_ID" | "ETH_RPC_URL">): PublicClient {
  return createPublicClient({
    chain: ethereumChain(env),
    transport: http(env.ETH_RPC_URL, { timeout: 10_000, retryCount: 3, retryDelay: 150, batch: { batchSize: 1000 } }),
  });
}
