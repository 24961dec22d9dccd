// The deployment: what this Worker was deployed with, read once per request (the `deployment` middleware, on
// c.var.deployment) and once per cron run (jobs/scheduled.ts), and handed down instead of `env` to code that only
// needs it (docs/deploying.md#the-deployment-as-the-worker-reads-it). It is built on the parsers beside it, which
// stay the one home of each rule: the site (site-origin.ts), the nodes and quorum (rpc-nodes.ts), the chain rules
// (payment-rules.ts, evm-chains.ts, solana-cluster.ts), local mode (local-mode.ts) and the secrets (secrets.ts).
// Reading never throws: a setting that does not read is null or falls back as its parser says, and `payments`
// holds every problem, worded as the payment routes, the cron job and `npm run deploy` refuse it.
import type { Network } from "../../schema/db";
import type { SolanaCluster } from "../../schema/purchases";
import { readDust } from "../domain/dust";
import { isLocalDeployment, type RequestHost } from "./local-mode";
import {
  checkDeployment,
  ethChainKind,
  type PaymentCommitment,
  type DeploymentCheck,
  type DeploymentText,
  readCommitment,
  readConfirmations,
} from "./payment-rules";
import { nodeHost, nodeNames, quorumOf, readUrl } from "./rpc-nodes";
import { missingSecrets, REQUIRED_SECRETS, type RequiredSecret } from "./secrets";
import { parseSiteOrigin, type SiteOrigin } from "./site-origin";
import { readCluster } from "./solana-cluster";

/** One configured JSON-RPC node: the URL the node layer asks, and how people and the host rule see it. */
export type RpcNode = {
  url: string;
  /** Its host and port, distinct per node (rpc-nodes.ts nodeNames): never the whole URL, which may carry an API key. */
  name: string;
  /** The host the mainnet rule "different hosts" compares (rpc-nodes.ts nodeHost); null when the URL does not read. */
  host: string | null;
};

/** A network's nodes and how many of them must agree (docs/payments.md#trust-no-single-node). */
export type NodeList = { nodes: RpcNode[]; quorum: number };

/** Ethereum's chain rules as written; the payment check refuses those that do not read. */
export type EthereumRules = {
  /** ETH_CHAIN_ID; null when it is not a positive whole number. */
  chainId: number | null;
  /** What the rules make of the chain (evm-chains.ts): coins of real value, a test chain, or one this site does not know. */
  chain: "real" | "test" | "unknown";
  /** ETH_CONFIRMATIONS; null when unreadable (a verifier then waits the deepest allowed, never a shallow default). */
  confirmations: number | null;
  /** PLATFORM_ETH_ADDRESS as written. */
  recipient: string;
  /** PAYMENT_DUST_ETH in wei (domain/dust.ts). */
  dustBelow: bigint;
};

/** Solana's chain rules as written. */
export type SolanaRules = {
  /** SOL_CLUSTER; null when it is not one of the clusters. */
  cluster: SolanaCluster | null;
  /** SOL_COMMITMENT; null when unreadable (payments are then read at "finalized", never weaker). */
  commitment: PaymentCommitment | null;
  /** PLATFORM_SOL_ADDRESS as written. */
  recipient: string;
  /** PAYMENT_DUST_SOL in lamports. */
  dustBelow: bigint;
};

/** The admin wallets as written, one entry a wallet; who is an admin is auth/roles.ts's rule over them. */
export type AdminLists = {
  /** ADMIN_WALLETS. */
  wallets: string[];
  /** ADMIN_CONTRACT_WALLETS: the admins an operator allows to sign in by a contract wallet's signature. */
  contractWallets: string[];
};

export type Deployment = {
  /** SITE_ORIGIN; null when it is not an origin. */
  site: SiteOrigin | null;
  admins: AdminLists;
  ethereum: NodeList & EthereumRules;
  solana: NodeList & SolanaRules;
  /** Which required secrets are set and long enough: booleans only, never the values. */
  secrets: Record<RequiredSecret, boolean>;
  /** The host the request came to; null in the cron job, where SITE_ORIGIN alone says where the site is. */
  requestHost: RequestHost;
  /** The site and both nodes on this machine, on development chains (local-mode.ts). */
  local: boolean;
  /** The payment rules' verdict on the settings as written (the nodes are asked by payment-readiness.ts). */
  payments: DeploymentCheck;
  /** The settings text the payment rules read, to check it again against what the nodes say about themselves. */
  text: DeploymentText;
};

/** The bindings a deployment is read from. */
export type DeploymentEnv = DeploymentText &
  Partial<Record<RequiredSecret | "PAYMENT_DUST_ETH" | "PAYMENT_DUST_SOL" | "ETH_TEST_CHAIN_ID" | "ADMIN_CONTRACT_WALLETS", string>>;

/** The settings the payment rules read (DeploymentText): the deployment keeps these, never a secret or a binding. */
const SETTINGS_TEXT = [
  "ETH_RPC_URL",
  "ETH_RPC_URLS",
  "ETH_RPC_QUORUM",
  "ETH_CHAIN_ID",
  "ETH_TEST_CHAIN_ID",
  "ETH_CONFIRMATIONS",
  "PLATFORM_ETH_ADDRESS",
  "SOL_RPC_URL",
  "SOL_RPC_URLS",
  "SOL_RPC_QUORUM",
  "SOL_CLUSTER",
  "SOL_COMMITMENT",
  "PLATFORM_SOL_ADDRESS",
  "ADMIN_WALLETS",
  "SITE_ORIGIN",
] as const satisfies readonly (keyof DeploymentText)[];

function nodeListOf(env: DeploymentText, network: Network): NodeList {
  const { urls, quorum } = quorumOf(env, network);
  const names = nodeNames(urls);
  return {
    nodes: urls.map((url, i) => {
      const parsed = readUrl(url);
      return { url, name: names[i], host: parsed ? nodeHost(parsed) : null };
    }),
    quorum,
  };
}

/** A comma-separated list of wallets, each entry trimmed; no text, or an empty entry, names no wallet. */
function readWalletList(text: string | undefined): string[] {
  // Stryker disable next-line MethodExpression,StringLiteral: an empty entry names no wallet, so keeping empties (or reading no text as one entry of junk) changes no answer
  return (text ?? "")
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);
}

/** The deployment `env` describes, for a request that came to `host` (null: no request, as in the cron job). */
export function readDeployment(env: DeploymentEnv, host: RequestHost = null): Deployment {
  // Stryker disable next-line StringLiteral: any text in place of a missing one fails the digits test, as "" does (equivalent mutant)
  const chainText = (env.ETH_CHAIN_ID ?? "").trim();
  const chainId = /^\d{1,15}$/.test(chainText) && Number(chainText) >= 1 ? Number(chainText) : null;
  const missing = missingSecrets(env);
  return {
    site: parseSiteOrigin(env.SITE_ORIGIN),
    admins: { wallets: readWalletList(env.ADMIN_WALLETS), contractWallets: readWalletList(env.ADMIN_CONTRACT_WALLETS) },
    ethereum: {
      ...nodeListOf(env, "ethereum"),
      chainId,
      chain: chainId === null ? "unknown" : ethChainKind(chainId, env, []).kind,
      confirmations: readConfirmations(env.ETH_CONFIRMATIONS),
      recipient: env.PLATFORM_ETH_ADDRESS ?? "",
      dustBelow: readDust(env.PAYMENT_DUST_ETH, "ETH"),
    },
    solana: {
      ...nodeListOf(env, "solana"),
      cluster: readCluster(env.SOL_CLUSTER),
      commitment: readCommitment(env.SOL_COMMITMENT),
      recipient: env.PLATFORM_SOL_ADDRESS ?? "",
      dustBelow: readDust(env.PAYMENT_DUST_SOL, "SOL"),
    },
    secrets: Object.fromEntries(REQUIRED_SECRETS.map((name) => [name, !missing.includes(name)])) as Record<RequiredSecret, boolean>,
    requestHost: host,
    local: isLocalDeployment(env, host),
    payments: checkDeployment(env, { requestHost: host }),
    text: Object.fromEntries(SETTINGS_TEXT.map((name) => [name, env[name]])),
  };
}
