// Which payment settings a deployment may take money with (docs/production-settings.md). Pure: the configuration
// text in (and what the nodes and the request say), the settings or every problem out, each problem naming its
// setting. The Worker refuses its payment routes and the cron job's payment checks while any problem stands
// (payment-readiness.ts), and `npm run deploy` refuses to upload (scripts/deploy-check.ts): one rule set.
//
// Local and production. A chain is local when the site is on this machine (local-mode.ts) and so is its node,
// on a development chain (31337 anvil/Hardhat, 1337 geth --dev/Ganache; SOL_CLUSTER localnet). What the nodes
// then say about themselves overrides the text: a loopback URL whose node reports another chain id, or the
// genesis hash of a public cluster, is not local. A deployment is in production as soon as either chain is not
// local; the public dev accounts' keys are known to everyone, so a platform address or admin wallet among them
// would hand the money or the admin role to anyone.
import { base58 } from "@scure/base";
import { isAddress, zeroAddress } from "viem";
import type { SolanaCluster } from "../../schema/purchases";
import { ethNodeLocality, isLoopbackHost, type Locality, parseHttpUrl, type RequestHost, shownHost, siteLocality, solNodeLocality } from "./local-mode";
import { describeDevAccount, publicDevAccount, publicDevAddresses } from "./public-dev-accounts";
import { clusterMismatch, clusterOfGenesis, readCluster, SOLANA_CLUSTERS, SOLANA_GENESIS_HASHES } from "./solana-cluster";
import { nodeHost, nodeSettingNames, type RpcNodesText, readQuorum, rpcUrls } from "./rpc-nodes";
import { parseSiteOrigin } from "./site-origin";
import { MAINNET_MIN_CONFIRMATIONS, REAL_VALUE_EVM_CHAINS, type RealValueChain, TEST_EVM_CHAINS } from "./evm-chains";

export { isLoopbackHost, MAINNET_MIN_CONFIRMATIONS, SOLANA_GENESIS_HASHES };
export const MAX_CONFIRMATIONS = 1000;
/** The commitments a payment may be read at ("processed" can still be rolled back). */
export const SOLANA_COMMITMENTS = ["confirmed", "finalized"] as const;
export type PaymentCommitment = (typeof SOLANA_COMMITMENTS)[number];

/** Every public dev account's address (public-dev-accounts.ts): the test mnemonic's accounts 0, 1, 2 ... first. */
export const PUBLIC_DEV_ETH_ADDRESSES: readonly string[] = publicDevAddresses("ethereum");
export const PUBLIC_DEV_SOL_ADDRESSES: readonly string[] = publicDevAddresses("solana");

/** The deployment's configuration text the rules read (wrangler.toml [vars], and the RPC URLs, secrets in production). */
export type DeploymentText = RpcNodesText & {
  ETH_RPC_URL?: string;
  ETH_CHAIN_ID?: string;
  ETH_TEST_CHAIN_ID?: string;
  ETH_CONFIRMATIONS?: string;
  PLATFORM_ETH_ADDRESS?: string;
  SOL_RPC_URL?: string;
  SOL_CLUSTER?: string;
  SOL_COMMITMENT?: string;
  PLATFORM_SOL_ADDRESS?: string;
  ADMIN_WALLETS?: string;
  SITE_ORIGIN?: string;
};

/** What the nodes said about themselves; null or absent where a node did not answer. */
export type NodeFacts = { ethChainId?: number | null; solGenesisHash?: string | null };
/** What the nodes said, and the host the request came to (absent or null: no request, as in the cron job). */
export type DeploymentFacts = NodeFacts & { requestHost?: RequestHost };

/** A deployment the payment rules accept: what each chain takes payments on, and whether it is production. */
export type AcceptedDeployment = {
  /** Either chain is not local (module comment). */
  production: boolean;
  ethereum: { chainId: number; local: boolean; recipient: string; confirmations: number; nodes: number; quorum: number };
  solana: { cluster: SolanaCluster; local: boolean; recipient: string; commitment: PaymentCommitment; nodes: number; quorum: number };
};

/** The rules' verdict on a deployment: accepted, or every problem, each naming its setting. */
export type DeploymentCheck = { ok: true; settings: AcceptedDeployment } | { ok: false; problems: string[] };

/** The Solana cluster an RPC URL's host suggests: for display only when SOL_CLUSTER is unreadable (the rules read SOL_CLUSTER). */
export function solanaCluster(rpcUrl: string): SolanaCluster {
  const url = parseHttpUrl(rpcUrl);
  // Unreadable: no public explorer link either (and checkDeployment refuses it).
  if (!url) return "localnet";
  const host = url.hostname.toLowerCase();
  if (isLoopbackHost(host)) return "localnet";
  if (host.includes("devnet")) return "devnet";
  if (host.includes("testnet")) return "testnet";
  return "mainnet-beta";
}

// The node's answers decide which payments release keys: off this machine they must not be readable or
// changeable on the way.
const insecureRemote = (url: URL) => url.protocol !== "https:" && !isLoopbackHost(url.hostname);
const INSECURE = (name: string) => `${name} must use https for a node that is not on this machine: its answers decide which payments release keys.`;

/** The value as written (quoted, so stray spaces show), or "not set". */
const shown = (text: string | undefined) => (text === undefined || text === "" ? "not set" : JSON.stringify(text.slice(0, 66)));

/** The public dev account an address is, described, or null (Ethereum compared case-insensitively, Solana exactly). */
const devAccountNote = (address: string) => {
  const account = publicDevAccount(address);
  return account ? `${describeDevAccount(account)}, whose key everyone holds` : null;
};

const isSolanaAddress = (text: string) => /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(text) && base58.decode(text).length === 32;

/** Least nodes, on different hosts, and least quorum on mainnet: one node alone must not decide which payments release keys. */
export const MAINNET_MIN_QUORUM = 2;

/**
 * The problems with one chain's node list and quorum (rpc-nodes.ts): every URL an http(s) URL, https off this
 * machine; the quorum from 1 to the number of nodes; on mainnet at least two nodes on different hosts and a quorum
 * of two (docs/payments.md#trust-no-single-node).
 */
function nodeListProblems(env: RpcNodesText, network: "ethereum" | "solana", mainnet: boolean): { problems: string[]; nodes: number; quorum: number } {
  const names = nodeSettingNames(network);
  const listed = (network === "ethereum" ? env.ETH_RPC_URLS : env.SOL_RPC_URLS)?.trim() ? names.urls : names.url;
  const urls = rpcUrls(env, network);
  const problems: string[] = [];
  const chain = network === "ethereum" ? "an Ethereum" : "a Solana";
  if (urls.length === 0) problems.push(`${names.url} (or ${names.urls}) must be an http(s) URL of ${chain} JSON-RPC node.`);
  const parsed = urls.map(parseHttpUrl);
  parsed.forEach((url, i) => {
    const which = urls.length > 1 ? `${listed} (node ${i + 1})` : listed;
    if (!url) problems.push(`${which} must be an http(s) URL of ${chain} JSON-RPC node.`);
    else if (insecureRemote(url)) problems.push(INSECURE(which));
  });
  const quorumText = network === "ethereum" ? env.ETH_RPC_QUORUM : env.SOL_RPC_QUORUM;
  const quorum = readQuorum(quorumText, urls.length);
  if (urls.length > 0 && quorum === null)
    problems.push(`${names.quorum} must be a whole number of nodes from 1 to ${urls.length} (the nodes in ${listed}); it is ${shown(quorumText)}.`);
  if (mainnet) {
    // Hosts compared however each URL spells them (rpc-nodes.ts nodeHost: RPC.A.example. and rpc.a.example:8443
    // are one provider). An unreadable URL is a problem of its own above, and this rule waits until every URL
    // reads: several URLs then mean one host or more.
    const hosts = new Set(parsed.map((u) => u && nodeHost(u)));
    if (hosts.size < MAINNET_MIN_QUORUM && !parsed.includes(null))
      problems.push(
        `${names.urls} must list at least ${MAINNET_MIN_QUORUM} nodes on different hosts on mainnet (it lists ${urls.length > 1 ? `${urls.length} on one host` : `${hosts.size}`}): one node alone would decide which payments release keys.`,
      );
    if (quorum !== null && quorum < MAINNET_MIN_QUORUM)
      problems.push(
        `${names.quorum} is ${quorum} on mainnet; it must be at least ${MAINNET_MIN_QUORUM}, or one node alone would decide which payments release keys.`,
      );
  }
  return { problems, nodes: urls.length, quorum: quorum ?? urls.length };
}

/**
 * What the rules make of ETH_CHAIN_ID (evm-chains.ts): a chain whose coins have real value (the mainnet rules), a
 * test chain, known or declared by ETH_TEST_CHAIN_ID (the test rules), or a chain this site does not know, refused.
 * An unreadable chain id is refused as that alone; it is "unknown" here with no problem of its own.
 */
type EthChainKind = { kind: "real"; chain: RealValueChain } | { kind: "test" } | { kind: "unknown" };

export function ethChainKind(chainId: number, env: DeploymentText, problems: string[]): EthChainKind {
  if (!(chainId >= 1)) return { kind: "unknown" };
  const real = REAL_VALUE_EVM_CHAINS.get(chainId);
  const declared = (env.ETH_TEST_CHAIN_ID ?? "").trim();
  const declaresThis = /^\d{1,15}$/.test(declared) && Number(declared) === chainId;
  if (declared !== "" && !declaresThis)
    problems.push(
      `ETH_TEST_CHAIN_ID must be unset or ETH_CHAIN_ID's chain id (${chainId}): it declares that chain a test chain; it is ${shown(env.ETH_TEST_CHAIN_ID)}.`,
    );
  else if (declaresThis && real)
    problems.push(
      `ETH_TEST_CHAIN_ID declares chain id ${chainId} (${real.name}) a test chain, but its coins have real value and the mainnet rules hold there: remove ETH_TEST_CHAIN_ID.`,
    );
  if (real) return { kind: "real", chain: real };
  // Stryker disable next-line ObjectLiteral,StringLiteral: the callers tell "real" and "unknown" apart, and anything else is a test chain (equivalent mutant)
  if (TEST_EVM_CHAINS.has(chainId) || declaresThis) return { kind: "test" };
  problems.push(
    `ETH_CHAIN_ID is ${chainId}, a chain this site does not know, so nothing says whether its coins have value: if it is a test chain, declare it with ETH_TEST_CHAIN_ID = "${chainId}"; a chain whose coins have value needs its least confirmation depth in worker/deployment/evm-chains.ts first.`,
  );
  return { kind: "unknown" };
}

/** Why something is not local, or null when it is. */
const reasonOf = (locality: Locality) => (locality.local ? null : locality.reason);

/** ETH_CONFIRMATIONS as a depth from 1 to MAX_CONFIRMATIONS, or null: never a silent default. */
export function readConfirmations(text: string | undefined): number | null {
  // Stryker disable next-line StringLiteral: any text in place of a missing one fails the digits test below, as "" does (equivalent mutant)
  const trimmed = (text ?? "").trim();
  const n = /^\d{1,4}$/.test(trimmed) ? Number(trimmed) : NaN;
  return n >= 1 && n <= MAX_CONFIRMATIONS ? n : null;
}

/** SOL_COMMITMENT as one of SOLANA_COMMITMENTS, or null ("processed" can still be rolled back). */
export function readCommitment(text: string | undefined): PaymentCommitment | null {
  // Stryker disable next-line StringLiteral: "Stryker was here!" is no commitment either, as "" is not (equivalent mutant)
  const trimmed = (text ?? "").trim();
  return (SOLANA_COMMITMENTS as readonly string[]).includes(trimmed) ? (trimmed as PaymentCommitment) : null;
}

/**
 * Every problem with the payment settings, or the settings. `facts` (what the nodes report, where the request
 * came) may only make the rules stricter: a node that is not the configured chain is a problem of its own.
 */
export function checkDeployment(env: DeploymentText, facts: DeploymentFacts = {}): DeploymentCheck {
  const problems: string[] = [];

  // ---- the site: local behaviour only on this machine (local-mode.ts)
  const requestHost = facts.requestHost ?? null;
  const siteOrigin = parseSiteOrigin(env.SITE_ORIGIN);
  if (!siteOrigin) {
    problems.push(`SITE_ORIGIN must be the site's origin (scheme://host[:port], such as https://vanity.example); it is ${shown(env.SITE_ORIGIN)}.`);
  } else if (isLoopbackHost(siteOrigin.hostname) && requestHost !== null && !isLoopbackHost(requestHost)) {
    problems.push(
      `SITE_ORIGIN is "${siteOrigin.origin}", on this machine, but this site is served at ${shownHost(requestHost)}: these are the local settings, and nothing local applies on a public site. Set SITE_ORIGIN to the site's own origin (https://...) and the payment settings for its chains.`,
    );
  } else if (siteOrigin.scheme !== "https" && !isLoopbackHost(siteOrigin.hostname)) {
    problems.push(
      `SITE_ORIGIN must use https for a site that is not on this machine (sessions and sign-in messages travel over it); it is "${siteOrigin.origin}".`,
    );
  }
  const site = siteLocality(env.SITE_ORIGIN, requestHost);

  // ---- Ethereum
  // Stryker disable next-line StringLiteral: any text in place of a missing one fails the digits test below, as "" does (equivalent mutant)
  const chainText = (env.ETH_CHAIN_ID ?? "").trim();
  const chainId = /^\d{1,15}$/.test(chainText) ? Number(chainText) : NaN;
  if (!(chainId >= 1)) problems.push(`ETH_CHAIN_ID must be a positive whole number (1 for Ethereum mainnet); it is ${shown(env.ETH_CHAIN_ID)}.`);
  const ethChain = ethChainKind(chainId, env, problems);
  const realChain = ethChain.kind === "real" ? ethChain.chain : null;
  const ethNodes = nodeListProblems(env, "ethereum", realChain !== null);
  problems.push(...ethNodes.problems);
  const nodeChainId = facts.ethChainId ?? null;
  const nodeIsOtherChain = nodeChainId !== null && chainId >= 1 && nodeChainId !== chainId;
  if (nodeIsOtherChain) {
    problems.push(`ETH_CHAIN_ID is ${chainId}, but the node at ETH_RPC_URL serves chain id ${nodeChainId}: payments would be read from the wrong chain.`);
  }
  const ethNotLocal = reasonOf(site) ?? reasonOf(ethNodeLocality(env)) ?? (nodeIsOtherChain ? `the node at ETH_RPC_URL serves chain id ${nodeChainId}` : null);

  const confirmations = readConfirmations(env.ETH_CONFIRMATIONS) ?? NaN;
  if (Number.isNaN(confirmations)) {
    problems.push(
      `ETH_CONFIRMATIONS must be a whole number of blocks from 1 to ${MAX_CONFIRMATIONS}${realChain ? ` (at least ${realChain.minConfirmations} on ${realChain.name})` : ""}; it is ${shown(env.ETH_CONFIRMATIONS)}.`,
    );
  } else if (realChain && confirmations < realChain.minConfirmations) {
    problems.push(
      `ETH_CONFIRMATIONS is ${confirmations} on ${realChain.name} (chain id ${chainId}); it must be at least ${realChain.minConfirmations}, or a reorganised block could take back a payment after the key is released.`,
    );
  }

  // Addresses are taken as written (no trimming): the verifier compares them with the chain's as they are.
  // Stryker disable next-line StringLiteral: "Stryker was here!" is no address either, and the refusal quotes the setting itself (equivalent mutant)
  const ethRecipient = env.PLATFORM_ETH_ADDRESS ?? "";
  if (!isAddress(ethRecipient) || ethRecipient.toLowerCase() === zeroAddress) {
    problems.push(
      `PLATFORM_ETH_ADDRESS must be an Ethereum address (0x and 40 hex digits; mixed case only with a valid EIP-55 checksum), not the zero address; it is ${shown(env.PLATFORM_ETH_ADDRESS)}.`,
    );
  } else if (ethNotLocal !== null && devAccountNote(ethRecipient) !== null) {
    problems.push(
      `PLATFORM_ETH_ADDRESS is ${devAccountNote(ethRecipient)}; this deployment is not local (${ethNotLocal}), so anyone could take the payments. Set your own receiving address.`,
    );
  }

  // ---- Solana
  // Stryker disable next-line StringLiteral: rpcUrls reads every network but "ethereum" as Solana (equivalent mutant)
  const solUrls = rpcUrls(env, "solana").map(parseHttpUrl);
  const pinned = readCluster(env.SOL_CLUSTER);
  if (pinned === null) {
    problems.push(
      `SOL_CLUSTER must be the Solana cluster SOL_RPC_URL serves, one of ${SOLANA_CLUSTERS.join(", ")} (checked against the node's genesis hash); it is ${shown(env.SOL_CLUSTER)}.`,
    );
  } else if (pinned === "localnet" && solUrls.some((u) => u !== null && !isLoopbackHost(u.hostname))) {
    problems.push('SOL_CLUSTER is "localnet", but SOL_RPC_URL is not on this machine: a node elsewhere is a public cluster\'s, or one nobody here controls.');
  }
  const genesis = facts.solGenesisHash ?? null;
  const mismatch = pinned !== null && genesis !== null ? clusterMismatch(pinned, genesis) : null;
  if (mismatch) problems.push(mismatch);
  // What the node says wins; before it answers, what SOL_CLUSTER says.
  const cluster: SolanaCluster | null = genesis !== null ? clusterOfGenesis(genesis) : pinned;
  const solMainnet = cluster === "mainnet-beta" || pinned === "mainnet-beta";
  // Stryker disable next-line StringLiteral: nodeListProblems (and rpc-nodes.ts) read every network but "ethereum" as Solana (equivalent mutant)
  const solNodes = nodeListProblems(env, "solana", solMainnet);
  problems.push(...solNodes.problems);
  // (solNodeLocality needs SOL_CLUSTER localnet: past it, only the node's genesis hash can say otherwise.)
  const solNotLocal = reasonOf(site) ?? reasonOf(solNodeLocality(env)) ?? (cluster !== "localnet" ? `the node's genesis hash is ${cluster}'s` : null);

  const commitment = readCommitment(env.SOL_COMMITMENT);
  if (commitment === null) {
    problems.push(`SOL_COMMITMENT must be "confirmed" or "finalized" ("finalized" on mainnet); it is ${shown(env.SOL_COMMITMENT)}.`);
  } else if (cluster === "mainnet-beta" && commitment !== "finalized") {
    problems.push(
      `SOL_COMMITMENT is "${commitment}" on Solana mainnet (${genesis !== null ? "the node's genesis hash is mainnet-beta's" : 'SOL_CLUSTER is "mainnet-beta"'}); it must be "finalized", or a payment could be rolled back after the key is released.`,
    );
  }

  // Stryker disable next-line StringLiteral: "Stryker was here!" is no address either, and the refusal quotes the setting itself (equivalent mutant)
  const solRecipient = env.PLATFORM_SOL_ADDRESS ?? "";
  if (!isSolanaAddress(solRecipient)) {
    problems.push(`PLATFORM_SOL_ADDRESS must be a Solana address (base58, 32 bytes); it is ${shown(env.PLATFORM_SOL_ADDRESS)}.`);
  } else if (solNotLocal !== null && devAccountNote(solRecipient) !== null) {
    problems.push(
      `PLATFORM_SOL_ADDRESS is ${devAccountNote(solRecipient)}; this deployment is not local (${solNotLocal}), so anyone could take the payments. Set your own receiving address.`,
    );
  }

  // ---- both chains real money, or neither: a key is worth the same whichever coin bought it, so a site on
  // Ethereum mainnet must not sell keys for devnet SOL (faucets give it away), nor the other way round.
  // (A node that is not SOL_CLUSTER is refused above already.)
  // (A chain id this site does not know is refused above already.)
  if (ethChain.kind !== "unknown" && pinned !== null && mismatch === null && (realChain !== null) !== (pinned === "mainnet-beta")) {
    problems.push(
      realChain
        ? `SOL_CLUSTER is "${pinned}" while ETH_CHAIN_ID is ${chainId} (${realChain.name}): keys would sell for ${pinned} SOL, which costs nothing. Use mainnet-beta, or test chains for both.`
        : `ETH_CHAIN_ID is ${chainId} while SOL_CLUSTER is "mainnet-beta": keys would sell for coins of a test chain, which cost nothing. Use a chain whose coins have real value (1 for Ethereum mainnet), or test chains for both.`,
    );
  }

  // ---- who may act as admin: an admin marks refunds paid and manages every listing.
  const notLocal = ethNotLocal ?? solNotLocal;
  if (notLocal !== null) {
    // Stryker disable next-line StringLiteral: "Stryker was here!" is no public dev account either, as "" is not (equivalent mutant)
    const adminWallets = env.ADMIN_WALLETS ?? "";
    for (const wallet of adminWallets.split(",").map((w) => w.trim())) {
      const note = wallet ? devAccountNote(wallet) : null;
      if (note)
        problems.push(`ADMIN_WALLETS lists ${wallet}, ${note}; this deployment is not local (${notLocal}), so anyone could sign in as admin. Remove it.`);
    }
  }

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    settings: {
      production: notLocal !== null,
      ethereum: { chainId, local: ethNotLocal === null, recipient: ethRecipient, confirmations, nodes: ethNodes.nodes, quorum: ethNodes.quorum },
      // No problem means every setting was read: the cluster and commitment are not null here.
      solana: {
        cluster: cluster as SolanaCluster,
        local: solNotLocal === null,
        recipient: solRecipient,
        commitment: commitment as PaymentCommitment,
        nodes: solNodes.nodes,
        quorum: solNodes.quorum,
      },
    },
  };
}
