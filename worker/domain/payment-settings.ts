// Which payment settings a deployment may take money with (issue 26 §8; docs/production-settings.md). Pure:
// the configuration text in, the settings or every problem out, each problem naming its setting. The Worker
// refuses its payment routes and the cron job's payment checks while any problem stands (payment-config.ts).
//
// Local and production. A chain is local when its node is on this machine (a loopback RPC host) and, for
// Ethereum, the chain id is a development chain's (31337 anvil/Hardhat, 1337 geth --dev/Ganache). Whatever
// the node then says about itself overrides the text: a loopback URL whose node reports another chain id, or
// a Solana genesis hash of a public cluster, is not local. A deployment is in production as soon as either
// chain is not local; its dev accounts' keys are public, so a platform address or admin wallet among them
// would hand the money or the admin role to anyone.
import { base58 } from "@scure/base";
import { isAddress, zeroAddress } from "viem";
import type { SolanaCluster } from "../../schema/purchases";

/** Chain ids of local development chains. */
export const LOCAL_ETH_CHAIN_IDS: readonly number[] = [31337, 1337];
export const ETHEREUM_MAINNET_CHAIN_ID = 1;
/** Least depth on Ethereum mainnet: beacon-chain reorgs of several blocks have happened; 12 blocks is about 2.4 minutes. */
export const MAINNET_MIN_CONFIRMATIONS = 12;
export const MAX_CONFIRMATIONS = 1000;
/** The commitments a payment may be read at ("processed" can still be rolled back). */
export const SOLANA_COMMITMENTS = ["confirmed", "finalized"] as const;
export type PaymentCommitment = (typeof SOLANA_COMMITMENTS)[number];
/** Genesis hashes of the public Solana clusters, as getGenesisHash answers. */
export const SOLANA_GENESIS_HASHES = {
  "mainnet-beta": "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d",
  devnet: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG",
} as const satisfies Partial<Record<SolanaCluster, string>>;

/**
 * Accounts 0-9 of the public development mnemonic "test test test test test test test test test test test
 * junk": anvil's and Hardhat's funded accounts, and the same indexes on Solana's m/44'/501'/i'/0' (the local
 * chains of `npm start`, scripts/dev-accounts.ts). Everyone holds these keys. payment-settings.test.ts
 * derives each one from the mnemonic.
 */
export const PUBLIC_DEV_ETH_ADDRESSES: readonly string[] = [
  "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
  "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
  "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
  "0x976EA74026E726554dB657fA54763abd0C3a0aa9",
  "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
  "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f",
  "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
];
export const PUBLIC_DEV_SOL_ADDRESSES: readonly string[] = [
  "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96",
  "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD",
  "CqMbRgMuEhQi9BUS8xP44Wk5nENm48FqJnfjEi4eNb1k",
  "9Tj3srBSxH7RFRCm8uharreY7ZBS49XSfpwCeYa7Xaqp",
  "6gYw7q94fJdEwL8WkT1a6LHBdTMbix1aciALwEWPx3Wp",
  "7EeV8eiRuGoR8bFHCjdCRGQd1RM5sR2dAkdiTEtC9ko7",
  "F9fVg2LeE2RhM6CfNn888hbjqovZDEWY3vm2hEkvX3Nh",
  "26roUwgM5T6bccX41hakjiW4fDiKFSao1RyoFsAxr6e6",
  "5mCGtMUD21HEvWJxKGKS6HEAH7ezzy12MWGs4bPgcJwV",
  "2yaW8VAMLhQiornz1BgcSWDUSH2jC2dmB8RWnTJi8Yab",
];

/** The configuration text this reads (wrangler.toml [vars]; never a secret). */
export type PaymentSettingsText = {
  ETH_RPC_URL?: string;
  ETH_CHAIN_ID?: string;
  ETH_CONFIRMATIONS?: string;
  PLATFORM_ETH_ADDRESS?: string;
  SOL_RPC_URL?: string;
  SOL_COMMITMENT?: string;
  PLATFORM_SOL_ADDRESS?: string;
  ADMIN_WALLETS?: string;
};

/** What the nodes said about themselves; null or absent where a node did not answer. */
export type NodeFacts = { ethChainId?: number | null; solGenesisHash?: string | null };

export type PaymentSettings = {
  /** Either chain is not local (module comment). */
  production: boolean;
  ethereum: { chainId: number; local: boolean; recipient: string; confirmations: number };
  solana: { cluster: SolanaCluster; local: boolean; recipient: string; commitment: PaymentCommitment };
};

export type PaymentSettingsCheck = { ok: true; settings: PaymentSettings } | { ok: false; problems: string[] };

function parseUrl(text: string | undefined): URL | null {
  const url = text !== undefined && URL.canParse(text) ? new URL(text) : null;
  return url && (url.protocol === "http:" || url.protocol === "https:") ? url : null;
}

/** A host on this machine: localhost, *.localhost, 127.0.0.0/8, [::1] or 0.0.0.0. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "[::1]" || host === "0.0.0.0";
}

/** The Solana cluster an RPC URL names: a local validator, devnet, testnet, or else (any other host) mainnet. */
export function solanaCluster(rpcUrl: string): SolanaCluster {
  const url = parseUrl(rpcUrl);
  // Unreadable: no public explorer link either (and checkPaymentSettings refuses it).
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

/** The dev account an address is, or -1: Ethereum compared case-insensitively, Solana exactly (as ADMIN_WALLETS is). */
const ethDevIndex = (address: string) => PUBLIC_DEV_ETH_ADDRESSES.findIndex((a) => a.toLowerCase() === address.toLowerCase());
const solDevIndex = (address: string) => PUBLIC_DEV_SOL_ADDRESSES.indexOf(address);
const devNote = (index: number) => `public dev account ${index} of the test mnemonic ("test test ... junk"), whose key everyone holds`;

const isSolanaAddress = (text: string) => /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(text) && base58.decode(text).length === 32;

/**
 * Whether both chains are local as configured (the text only; the payment check also asks the nodes). The admin
 * role uses it: a public dev wallet is an admin only there (auth/roles.ts).
 */
export function bothChainsLocal(env: Pick<PaymentSettingsText, "ETH_RPC_URL" | "ETH_CHAIN_ID" | "SOL_RPC_URL">): boolean {
  const ethUrl = parseUrl(env.ETH_RPC_URL);
  const solUrl = parseUrl(env.SOL_RPC_URL);
  const chainText = (env.ETH_CHAIN_ID ?? "").trim();
  const ethLocal = ethUrl !== null && isLoopbackHost(ethUrl.hostname) && /^\d{1,15}$/.test(chainText) && LOCAL_ETH_CHAIN_IDS.includes(Number(chainText));
  return ethLocal && solUrl !== null && isLoopbackHost(solUrl.hostname);
}

/** Whether `address` is one of the public dev accounts above (Ethereum in any letter case, Solana exactly). */
export function isPublicDevWallet(address: string): boolean {
  return ethDevIndex(address) >= 0 || solDevIndex(address) >= 0;
}

/** ETH_CONFIRMATIONS as a depth from 1 to MAX_CONFIRMATIONS, or null: never a silent default. */
export function readConfirmations(text: string | undefined): number | null {
  const trimmed = (text ?? "").trim();
  const n = /^\d{1,4}$/.test(trimmed) ? Number(trimmed) : NaN;
  return n >= 1 && n <= MAX_CONFIRMATIONS ? n : null;
}

/** SOL_COMMITMENT as one of SOLANA_COMMITMENTS, or null ("processed" can still be rolled back). */
export function readCommitment(text: string | undefined): PaymentCommitment | null {
  const trimmed = (text ?? "").trim();
  return (SOLANA_COMMITMENTS as readonly string[]).includes(trimmed) ? (trimmed as PaymentCommitment) : null;
}

/**
 * Every problem with the payment settings, or the settings. `facts` (what the nodes report) may only make the
 * rules stricter: a node that is not the configured chain is a problem of its own.
 */
export function checkPaymentSettings(env: PaymentSettingsText, facts: NodeFacts = {}): PaymentSettingsCheck {
  const problems: string[] = [];

  // ---- Ethereum
  const chainText = (env.ETH_CHAIN_ID ?? "").trim();
  const chainId = /^\d{1,15}$/.test(chainText) ? Number(chainText) : NaN;
  if (!(chainId >= 1)) problems.push(`ETH_CHAIN_ID must be a positive whole number (1 for Ethereum mainnet); it is ${shown(env.ETH_CHAIN_ID)}.`);
  const ethUrl = parseUrl(env.ETH_RPC_URL);
  if (!ethUrl) problems.push("ETH_RPC_URL must be an http(s) URL of an Ethereum JSON-RPC node.");
  else if (insecureRemote(ethUrl)) problems.push(INSECURE("ETH_RPC_URL"));
  const nodeChainId = facts.ethChainId ?? null;
  if (nodeChainId !== null && chainId >= 1 && nodeChainId !== chainId) {
    problems.push(`ETH_CHAIN_ID is ${chainId}, but the node at ETH_RPC_URL serves chain id ${nodeChainId}: payments would be read from the wrong chain.`);
  }
  const ethLocal =
    ethUrl !== null && isLoopbackHost(ethUrl.hostname) && LOCAL_ETH_CHAIN_IDS.includes(chainId) && (nodeChainId === null || nodeChainId === chainId);

  const confirmations = readConfirmations(env.ETH_CONFIRMATIONS) ?? NaN;
  if (Number.isNaN(confirmations)) {
    problems.push(
      `ETH_CONFIRMATIONS must be a whole number of blocks from 1 to ${MAX_CONFIRMATIONS} (${MAINNET_MIN_CONFIRMATIONS} or more on chain id 1); it is ${shown(env.ETH_CONFIRMATIONS)}.`,
    );
  } else if (chainId === ETHEREUM_MAINNET_CHAIN_ID && confirmations < MAINNET_MIN_CONFIRMATIONS) {
    problems.push(
      `ETH_CONFIRMATIONS is ${confirmations} on Ethereum mainnet (chain id 1); it must be at least ${MAINNET_MIN_CONFIRMATIONS}, or a reorganised block could take back a payment after the key is released.`,
    );
  }

  // Addresses are taken as written (no trimming): the verifier compares them with the chain's as they are.
  const ethRecipient = env.PLATFORM_ETH_ADDRESS ?? "";
  if (!isAddress(ethRecipient) || ethRecipient.toLowerCase() === zeroAddress) {
    problems.push(
      `PLATFORM_ETH_ADDRESS must be an Ethereum address (0x and 40 hex digits; mixed case only with a valid EIP-55 checksum), not the zero address; it is ${shown(env.PLATFORM_ETH_ADDRESS)}.`,
    );
  } else if (!ethLocal && ethDevIndex(ethRecipient) >= 0) {
    problems.push(
      `PLATFORM_ETH_ADDRESS is ${devNote(ethDevIndex(ethRecipient))}; on a chain that is not local anyone could take the payments. Set your own receiving address.`,
    );
  }

  // ---- Solana
  const solUrl = parseUrl(env.SOL_RPC_URL);
  if (!solUrl) problems.push("SOL_RPC_URL must be an http(s) URL of a Solana JSON-RPC node.");
  else if (insecureRemote(solUrl)) problems.push(INSECURE("SOL_RPC_URL"));
  const genesis = facts.solGenesisHash ?? null;
  const publicCluster =
    (Object.keys(SOLANA_GENESIS_HASHES) as (keyof typeof SOLANA_GENESIS_HASHES)[]).find((c) => SOLANA_GENESIS_HASHES[c] === genesis) ?? null;
  const cluster: SolanaCluster = publicCluster ?? solanaCluster(env.SOL_RPC_URL ?? "");
  const solLocal = solUrl !== null && cluster === "localnet";

  const commitment = readCommitment(env.SOL_COMMITMENT);
  if (commitment === null) {
    problems.push(`SOL_COMMITMENT must be "confirmed" or "finalized" ("finalized" on mainnet); it is ${shown(env.SOL_COMMITMENT)}.`);
  } else if (cluster === "mainnet-beta" && commitment !== "finalized") {
    problems.push(
      `SOL_COMMITMENT is "${commitment}" on Solana mainnet (${publicCluster ? "the node's genesis hash is mainnet-beta's" : "SOL_RPC_URL is not a local, devnet or testnet host"}); it must be "finalized", or a payment could be rolled back after the key is released.`,
    );
  }

  const solRecipient = env.PLATFORM_SOL_ADDRESS ?? "";
  if (!isSolanaAddress(solRecipient)) {
    problems.push(`PLATFORM_SOL_ADDRESS must be a Solana address (base58, 32 bytes); it is ${shown(env.PLATFORM_SOL_ADDRESS)}.`);
  } else if (!solLocal && solDevIndex(solRecipient) >= 0) {
    problems.push(
      `PLATFORM_SOL_ADDRESS is ${devNote(solDevIndex(solRecipient))}; on a cluster that is not local anyone could take the payments. Set your own receiving address.`,
    );
  }

  // ---- who may act as admin: an admin marks refunds paid and manages every listing.
  const production = !ethLocal || !solLocal;
  if (production) {
    for (const wallet of (env.ADMIN_WALLETS ?? "").split(",").map((w) => w.trim())) {
      const index = wallet.startsWith("0x") ? ethDevIndex(wallet) : solDevIndex(wallet);
      if (index >= 0) problems.push(`ADMIN_WALLETS lists ${wallet}, ${devNote(index)}; outside a local chain anyone could sign in as admin. Remove it.`);
    }
  }

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    settings: {
      production,
      ethereum: { chainId, local: ethLocal, recipient: ethRecipient, confirmations },
      // No problem means every setting was read: commitment is not null here.
      solana: { cluster, local: solLocal, recipient: solRecipient, commitment: commitment as PaymentCommitment },
    },
  };
}
