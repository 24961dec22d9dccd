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
  return readUrl(url)?.host || "an unreadable URL";
}

/**
 * A URL, or null where it does not parse. Not URL.canParse: Node 20's answers false for a non-ASCII URL (an IDN
 * host) once V8 has optimised the call, so the deploy check would refuse such a node at random.
 */
export function readUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
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

/** The first six groups of an IPv6 address whose last 32 bits are an IPv4 address it stands for: mapped (::ffff:0:0/96), translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96). */
const IPV4_IN_IPV6 = ["0:0:0:0:0:ffff", "0:0:0:0:ffff:0", "64:ff9b:0:0:0:0"];

/** The IPv4 address an IPv6 host (as the URL parser writes it: bracketed, lower case, compressed) stands for, or null. */
function embeddedIpv4(bracketed: string): string | null {
  const [head, tail] = bracketed.slice(1, -1).split("::");
  const left = head ? head.split(":") : [];
  // No "::" (tail undefined): the eight groups are all in head.
  const right = tail ? tail.split(":") : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  if (!IPV4_IN_IPV6.includes(groups.slice(0, 6).join(":"))) return null;
  const [high, low] = [parseInt(groups[6], 16), parseInt(groups[7], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/**
 * The host a node URL names, one string per host however the URL spells it: what the mainnet rule "two nodes on
 * different hosts" compares (payment-rules.ts). The URL parser has already lower-cased the name, turned an IDN
 * into punycode, read an IPv4 address written in hex, octal, as one number or with a trailing dot, and written an
 * IPv6 address short; the port is no part of it (two ports are one host). Left here: a name's trailing dot (the
 * fully qualified name resolves to the same host) and an IPv6 address that stands for an IPv4 one. Two names of
 * one provider, or a name and its address, still read as two: nothing here can see that
 * (docs/production-settings.md#several-nodes-on-different-hosts).
 */
export function nodeHost(url: URL): string {
  const host = url.hostname;
  if (host.startsWith("[")) return embeddedIpv4(host) ?? host;
  return host.replace(/\.+$/, "");
}
