// One interface over both chains, so purchase logic never asks which network it is on. Each
// implementation finds payments, reads what the chain says about one, and reports its depth; what that
// means for the purchase is decided by domain/payment-decision.ts. The interface and its shapes are in
// payment-types.ts.
//
// Every chain read that moves money comes through here (a test fails when money code reaches a node another
// way: worker/chain/money-path.test.ts). With several nodes per chain (ETH_RPC_URLS, SOL_RPC_URLS), each is asked
// through its own verifier and quorum-verifier.ts keeps only what a quorum of them report identically
// (docs/payments.md#trust-no-single-node).
import type { Network } from "../../schema/db";
import type { Deployment } from "../deployment/deployment";
import { ethereumVerifier } from "./ethereum-payments";
import type { PaymentVerifier } from "./payment-types";
import { type DisagreementReport, quorumVerifier } from "./quorum-verifier";
import { pinnedToCluster } from "./solana-cluster-pin";
import { solanaVerifier } from "./solana-payments";

export type {
  PaymentVerifier,
  ReceivedTransfer,
  ReconcileWindow,
  ScanCursor,
  ScanWindow,
} from "./payment-types";

/** The verifier of the node at `url`, read by the deployment's rules of `network`. */
function nodeVerifier(deployment: Deployment, network: Network, url: string): PaymentVerifier {
  if (network === "ethereum") return ethereumVerifier(url, deployment.ethereum);
  // Solana reads wait until the node has shown it serves SOL_CLUSTER (solana-cluster-pin.ts).
  return pinnedToCluster(url, deployment.solana.cluster, solanaVerifier(url, deployment.solana));
}

/**
 * The verifier of `network` over the deployment's nodes. `report` records a node that contradicts the others
 * (operations/node-disagreements.ts recordDisagreements); every caller that can settle, list or clear money passes
 * one. Null only where nothing is decided (a page's explorer link and amounts): a disagreement is then only logged.
 */
export function paymentVerifier(deployment: Deployment, network: Network, report: DisagreementReport | null): PaymentVerifier {
  const { nodes, quorum } = deployment[network];
  // One node, a quorum of one (local development): that node's verifier as it is.
  if (nodes.length <= 1) return nodeVerifier(deployment, network, nodes[0]?.url ?? "");
  return quorumVerifier(
    network,
    nodes.map((node) => ({ name: node.name, verifier: nodeVerifier(deployment, network, node.url) })),
    quorum,
    report ?? (async () => {}),
  );
}
