// One interface over both chains, so purchase logic never asks which network it is on (issue 10 §0). Each
// implementation finds payments, reads what the chain says about one, and reports its depth; what that
// means for the purchase is decided by domain/payment-decision.ts. The interface and its shapes are in
// payment-types.ts.
import type { Network } from "../../schema/db";
import { ethereumVerifier } from "./ethereum-payments";
import type { PaymentVerifier, VerifierEnv } from "./payment-types";
import { pinnedToCluster } from "./solana-cluster-pin";
import { solanaVerifier } from "./solana-payments";

export type {
  PaymentExpectation,
  PaymentVerifier,
  ReceivedTransfer,
  ReconcileWindow,
  ScanCursor,
  ScanWindow,
  TransferReceipt,
  VerifierEnv,
} from "./payment-types";

export function paymentVerifier(env: VerifierEnv, network: Network): PaymentVerifier {
  // Solana reads wait until the node has shown it serves SOL_CLUSTER (solana-cluster-pin.ts).
  return network === "ethereum" ? ethereumVerifier(env) : pinnedToCluster(env, solanaVerifier(env));
}
