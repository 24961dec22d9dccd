// SOL_CLUSTER: the Solana cluster payments are taken on, written down and checked against what the node says
// it is (its genesis hash), because nothing in a Solana transaction names its cluster. A devnet node behind an
// RPC URL that looks like mainnet's, or a mainnet site whose Solana URL still points at devnet, would otherwise
// sell real keys for SOL that faucets give away (docs/production-settings.md#the-solana-cluster).
import type { SolanaCluster } from "../../schema/purchases";

export const SOLANA_CLUSTERS = ["mainnet-beta", "devnet", "testnet", "localnet"] as const satisfies readonly SolanaCluster[];

/** Genesis hashes of the public Solana clusters, as getGenesisHash answers. Any other hash is a validator of one's own: localnet. */
export const SOLANA_GENESIS_HASHES = {
  "mainnet-beta": "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d",
  devnet: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG",
  testnet: "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY",
} as const satisfies Record<Exclude<SolanaCluster, "localnet">, string>;

/** SOL_CLUSTER as one of SOLANA_CLUSTERS (spaces trimmed, nothing else forgiven), or null. */
export function readCluster(text: string | undefined): SolanaCluster | null {
  const trimmed = (text ?? "").trim();
  return (SOLANA_CLUSTERS as readonly string[]).includes(trimmed) ? (trimmed as SolanaCluster) : null;
}

/** The cluster a node with this genesis hash serves. */
export function clusterOfGenesis(genesisHash: string): SolanaCluster {
  const publicCluster = (Object.keys(SOLANA_GENESIS_HASHES) as (keyof typeof SOLANA_GENESIS_HASHES)[]).find((c) => SOLANA_GENESIS_HASHES[c] === genesisHash);
  return publicCluster ?? "localnet";
}

/** Why a node with `genesisHash` is not SOL_CLUSTER (a problem naming the setting), or null when it is. */
export function clusterMismatch(pinned: SolanaCluster, genesisHash: string): string | null {
  const served = clusterOfGenesis(genesisHash);
  if (served === pinned) return null;
  const what = served === "localnet" ? `a cluster that is not ${pinned} (genesis hash ${genesisHash})` : `${served} (its genesis hash is ${served}'s)`;
  return `SOL_CLUSTER is "${pinned}", but the node at SOL_RPC_URL serves ${what}: payments would be read from the wrong cluster.`;
}
