// The JSON-RPC nodes of each chain and how many must agree before a payment counts (docs/payments.md#trust-no-single-node).
// ETH_RPC_URLS / SOL_RPC_URLS list the nodes (comma separated); unset or empty, the single ETH_RPC_URL /
// SOL_RPC_URL is a list of one. ETH_RPC_QUORUM / SOL_RPC_QUORUM is how many of them must report a payment
// identically; unset, a majority of the nodes. Pure: payment-rules.ts checks these, chain/payment-verifier.ts
// builds one verifier per node from them.
import type { Network } from "../../schema/db";

export type RpcNodesText = {
  ETH_RPC_URL?: string;
  ETH_RPC_URLS?: string;
  ETH_RPC_QUORUM?: string;
  SOL_RPC_URL?: string;
  SOL_RPC_URLS?: string;
  SOL_RPC_QUORUM?: string;
};

/** The setting names of one network, for messages. */
export function nodeSettingNames(network: Network) {
  return network === "ethereum"
    ? { url: "ETH_RPC_URL", urls: "ETH_RPC_URLS", quorum: "ETH_RPC_QUORUM" }
    : { url: "SOL_RPC_URL", urls: "SOL_RPC_URLS", quorum: "SOL_RPC_QUORUM" };
}

/** The node URLs of `network`, in the order written: the first is the one asked for reads that decide no money. */
export function rpcUrls(env: RpcNodesText, network: Network): string[] {
  const list = network === "ethereum" ? env.ETH_RPC_URLS : env.SOL_RPC_URLS;
  const many = (list ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter((u) => u !== "");
  if (many.length > 0) return many;
  const one = (network === "ethereum" ? env.ETH_RPC_URL : env.SOL_RPC_URL)?.trim();
  return one ? [one] : [];
}

/** The quorum as written, checked against the number of nodes: a whole number from 1 to `nodes`; unset, a majority. Null when unreadable. */
export function readQuorum(text: string | undefined, nodes: number): number | null {
  const trimmed = (text ?? "").trim();
  if (trimmed === "") return Math.floor(nodes / 2) + 1;
  const n = /^\d{1,3}$/.test(trimmed) ? Number(trimmed) : NaN;
  return n >= 1 && n <= nodes ? n : null;
}

/**
 * How a node is named to people (alerts, the admin's health view, logs): its host and port, never the whole URL,
 * whose path or query may carry the provider's API key.
 */
export function nodeName(url: string): string {
  return URL.canParse(url) ? new URL(url).host || "an unreadable URL" : "an unreadable URL";
}

/**
 * The display names of `urls`, in order, each distinct: a host listed twice (one provider, two API keys) is
 * "host", then "host #2", so each node keeps its own row in the cron's probe (operations/chains.ts).
 */
export function nodeNames(urls: string[]): string[] {
  const seen = new Map<string, number>();
  return urls.map((url) => {
    const name = nodeName(url);
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name} #${n}`;
  });
}

/** The quorum of `network` as configured, falling back to every node when unreadable (payment-rules.ts refuses that). */
export function quorumOf(env: RpcNodesText, network: Network): { urls: string[]; quorum: number } {
  const urls = rpcUrls(env, network);
  const text = network === "ethereum" ? env.ETH_RPC_QUORUM : env.SOL_RPC_QUORUM;
  return { urls, quorum: readQuorum(text, urls.length) ?? Math.max(1, urls.length) };
}
