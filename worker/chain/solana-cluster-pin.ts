// The Solana node is asked which cluster it serves before any payment is read from it (docs/production-settings.md#the-solana-cluster):
// nothing in a Solana transaction names its cluster, so a node repointed to devnet (or never on mainnet) would
// otherwise have devnet transfers pay for real keys. The payment check refuses a mismatch when a route or the
// cron job starts (deployment/payment-readiness.ts); this pin holds when verifying too, including in the minutes between
// the two, and while the node has not said what it is (its answer is remembered per isolate, deployment/node-identity.ts).
import type { SolanaCluster } from "../../schema/purchases";
import { clusterMismatch } from "../deployment/solana-cluster";
import { solanaGenesisHash } from "../deployment/node-identity";
import type { PaymentVerifier } from "./payment-types";

/** Why payments may not be read from the Solana node at `url` now, or null when it serves `pinned` (SOL_CLUSTER; null: unreadable). */
export async function solanaClusterRefusal(url: string, pinned: SolanaCluster | null): Promise<string | null> {
  if (pinned === null) return "SOL_CLUSTER is not set to a cluster";
  const genesis = await solanaGenesisHash(url);
  if (genesis === null) return "the node at SOL_RPC_URL did not say which cluster it serves (getGenesisHash)";
  return clusterMismatch(pinned, genesis);
}

/** `verifier` (of the node at `url`) with every chain read behind the cluster check: refused, each answers as a node that cannot be asked. */
export function pinnedToCluster(url: string, pinned: SolanaCluster | null, verifier: PaymentVerifier): PaymentVerifier {
  const refused = async (what: string) => {
    const why = await solanaClusterRefusal(url, pinned);
    if (why !== null) console.error(`solana ${what} not read: ${why}`);
    return why !== null;
  };
  return {
    ...verifier,
    inspect: async (hash, expect) => ((await refused("payment")) ? { kind: "unavailable" } : verifier.inspect(hash, expect)),
    received: async (hash) => ((await refused("transfer")) ? { kind: "unavailable" } : verifier.received(hash)),
    scanTransfers: async (cursor, opts) => ((await refused("payment scan")) ? null : verifier.scanTransfers(cursor, opts)),
    chainPosition: async () => ((await refused("chain position")) ? null : verifier.chainPosition()),
    reconcile: async (cursor, opts) => ((await refused("reconciliation")) ? null : verifier.reconcile(cursor, opts)),
  };
}
