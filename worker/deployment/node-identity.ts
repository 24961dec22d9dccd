// What the configured nodes say they are: the Ethereum node's chain id (eth_chainId) and the Solana node's genesis
// hash (getGenesisHash). Asked once and remembered per isolate; the payment check (payment-readiness.ts), the
// Solana verifier's cluster pin (solana-cluster-pin.ts) and the deploy check (scripts/deploy.ts) read them.
import type { NodeFacts, DeploymentText } from "./payment-rules";
import { rpcUrls } from "./rpc-nodes";
import { clusterMismatch, readCluster } from "./solana-cluster";

const NODE_TIMEOUT_MS = 3_000;
/** A node's identity does not change; it is asked again now and then in case its URL was repointed. */
const KNOWN_FOR_MS = 10 * 60_000;
/** A node that did not answer is asked again after this long (it proves nothing either way meanwhile). */
const UNKNOWN_FOR_MS = 30_000;

const remembered = new Map<string, { value: number | string | null; until: number }>();

/** Forgets what the nodes said (tests). */
export function forgetNodeFacts() {
  remembered.clear();
}

async function ask<T extends number | string>(key: string, url: string, method: string, read: (result: unknown) => T | null, now: number): Promise<T | null> {
  const known = remembered.get(key);
  if (known && known.until > now) return known.value as T | null;
  let value: T | null = null;
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }),
      signal: AbortSignal.timeout(NODE_TIMEOUT_MS),
    });
    if (res.ok) value = read(((await res.json()) as { result?: unknown }).result);
  } catch {
    // Unreachable or not JSON-RPC: unknown.
  }
  remembered.set(key, { value, until: now + (value === null ? UNKNOWN_FOR_MS : KNOWN_FOR_MS) });
  return value;
}

/** The genesis hash of the Solana node at `url`; null when it did not answer. */
export function solanaGenesisHash(url: string, now = Date.now()): Promise<string | null> {
  return ask(`sol ${url}`, url, "getGenesisHash", (r) => (typeof r === "string" && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(r) ? r : null), now);
}

/**
 * What the configured nodes say they are (every node of ETH_RPC_URLS and SOL_RPC_URLS); null when none answered.
 * Where the nodes differ, the answer of one that is not the configured chain, so the settings check refuses it.
 */
export async function nodeFacts(
  env: Pick<DeploymentText, "ETH_RPC_URL" | "ETH_RPC_URLS" | "SOL_RPC_URL" | "SOL_RPC_URLS" | "ETH_CHAIN_ID" | "SOL_CLUSTER">,
  now = Date.now(),
): Promise<NodeFacts> {
  const [chainIds, geneses] = await Promise.all([
    Promise.all(
      rpcUrls(env, "ethereum").map((url) =>
        ask(`eth ${url}`, url, "eth_chainId", (r) => (typeof r === "string" && /^0x[0-9a-f]{1,15}$/i.test(r) ? Number.parseInt(r, 16) : null), now),
      ),
    ),
    Promise.all(rpcUrls(env, "solana").map((url) => solanaGenesisHash(url, now))),
  ]);
  const ids = chainIds.filter((id): id is number => id !== null);
  const hashes = geneses.filter((g): g is string => g !== null);
  const pinned = readCluster(env.SOL_CLUSTER);
  return {
    ethChainId: ids.find((id) => String(id) !== (env.ETH_CHAIN_ID ?? "").trim()) ?? ids[0] ?? null,
    solGenesisHash: hashes.find((g) => pinned !== null && clusterMismatch(pinned, g) !== null) ?? hashes[0] ?? null,
  };
}
