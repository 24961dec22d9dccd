// When a deployment is local (a deployment fails closed: docs/production-settings.md#local-and-production).
// Local behaviour (the public dev accounts as platform addresses and admins, the in-page dev wallets and their
// relay, a development chain's depth) applies only while the site itself is on this machine, not just its
// nodes: a Worker deployed with the local defaults serves a public host name and cannot reach 127.0.0.1, so
// loopback node URLs prove nothing there. The host a request came to and SITE_ORIGIN must both be loopback.
// A request cannot fake this from outside: Cloudflare routes a request to the Worker by its host name, so a
// deployed Worker only ever sees its own public hosts; a lie can only make a local site look public.
import { type RpcNodesText, readUrl, rpcUrls } from "./rpc-nodes";
import { readCluster } from "./solana-cluster";
import { parseSiteOrigin } from "./site-origin";

/** Chain ids of local development chains (anvil and Hardhat 31337; geth --dev and Ganache 1337). */
export const LOCAL_ETH_CHAIN_IDS: readonly number[] = [31337, 1337];

/** The host name a request came to (its URL's); null outside a request (the cron job, the deploy check). */
export type RequestHost = string | null;

/** The settings local mode reads (wrangler.toml [vars]). */
export type LocalModeText = { SITE_ORIGIN?: string; ETH_CHAIN_ID?: string; SOL_CLUSTER?: string } & RpcNodesText;

export type Locality = { local: true } | { local: false; reason: string };

/** A host on this machine: localhost, *.localhost, 127.0.0.0/8, [::1] or 0.0.0.0. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "[::1]" || host === "0.0.0.0";
}

/** An http(s) URL, or null. */
export function parseHttpUrl(text: string | undefined): URL | null {
  const url = text === undefined ? null : readUrl(text);
  return url && (url.protocol === "http:" || url.protocol === "https:") ? url : null;
}

/** A host name as a refusal may quote it (a request's host is the client's text: bounded). */
export const shownHost = (host: string) => (host.length > 80 ? `${host.slice(0, 80)}...` : host);

/** Whether the site is on this machine: the host the request came to (when there is one) and SITE_ORIGIN's. */
export function siteLocality(siteOrigin: string | undefined, requestHost: RequestHost): Locality {
  if (requestHost !== null && !isLoopbackHost(requestHost))
    return { local: false, reason: `the site is served at ${shownHost(requestHost)}, not on this machine` };
  const site = parseSiteOrigin(siteOrigin);
  if (!site) return { local: false, reason: "SITE_ORIGIN is not an origin" };
  if (!isLoopbackHost(site.hostname)) return { local: false, reason: `SITE_ORIGIN is ${site.origin}, not this machine` };
  return { local: true };
}

/** Every node URL (ETH_RPC_URLS or ETH_RPC_URL, and Solana's) is on this machine, and there is one. */
function allOnThisMachine(urls: string[]): boolean {
  return (
    urls.length > 0 &&
    urls.every((u) => {
      const url = parseHttpUrl(u);
      return url !== null && isLoopbackHost(url.hostname);
    })
  );
}

/** Whether the Ethereum node is a development chain on this machine, as configured (the node is asked elsewhere). */
export function ethNodeLocality(env: Pick<LocalModeText, "ETH_RPC_URL" | "ETH_RPC_URLS" | "ETH_CHAIN_ID">): Locality {
  if (!allOnThisMachine(rpcUrls(env, "ethereum"))) return { local: false, reason: "ETH_RPC_URL is not on this machine" };
  const chainText = (env.ETH_CHAIN_ID ?? "").trim();
  const chainId = /^\d{1,15}$/.test(chainText) ? Number(chainText) : NaN;
  if (!LOCAL_ETH_CHAIN_IDS.includes(chainId)) return { local: false, reason: `ETH_CHAIN_ID ${shownHost(chainText)} is not a development chain's` };
  return { local: true };
}

/** Whether the Solana node is a local validator on this machine, as configured. */
export function solNodeLocality(env: Pick<LocalModeText, "SOL_RPC_URL" | "SOL_RPC_URLS" | "SOL_CLUSTER">): Locality {
  if (!allOnThisMachine(rpcUrls(env, "solana"))) return { local: false, reason: "SOL_RPC_URL is not on this machine" };
  if (readCluster(env.SOL_CLUSTER) !== "localnet") return { local: false, reason: "SOL_CLUSTER is not localnet" };
  return { local: true };
}

/**
 * Whether this deployment is local as configured: the site (the request's host and SITE_ORIGIN) and both nodes on
 * this machine, on development chains. The admin role and the dev wallets use it; the payment check also asks
 * the nodes what they are (payment-rules.ts).
 */
export function isLocalDeployment(env: LocalModeText, requestHost: RequestHost): boolean {
  return siteLocality(env.SITE_ORIGIN, requestHost).local && ethNodeLocality(env).local && solNodeLocality(env).local;
}
