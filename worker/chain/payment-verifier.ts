// One interface over both chains, so purchase logic never asks which network it is on (issue 10 §0). Each
// implementation finds payments, reads what the chain says about one, and reports its depth; what that
// means for the purchase is decided by domain/payment-decision.ts.
import type { Network } from "../../schema/db";
import type { PaymentObservation } from "../domain/payment-decision";
import { ethereumVerifier } from "./ethereum-payments";
import { solanaVerifier } from "./solana-payments";

/** What a purchase expects of its payment. */
export type PaymentExpectation = {
  /** The signed-in buyer's wallet. */
  buyer: string;
  /** Solana reference key (base58); null on Ethereum. */
  reference: string | null;
};

/** A purchase the scan looks for a payment to. */
export type ScanTarget = PaymentExpectation & {
  id: string;
  /** Amount asked, in wei or lamports. */
  expected: bigint;
  /** Open purchases are matched first; closed ones only catch late or second payments. */
  open: boolean;
  /** Ethereum: first block to look at. */
  fromBlock: number | null;
  createdAt: number;
};

export type ScanResult = {
  /** Payments found, each with the purchase it is for. Null when the node could not be asked. */
  found: { targetId: string; hash: string }[] | null;
  /** Ethereum: the last block examined (targets need not look below it again); null otherwise. */
  scannedThrough: number | null;
};

export interface PaymentVerifier {
  readonly network: Network;
  /** The platform address buyers pay. */
  readonly recipient: string;
  /** Depth at which a payment is final (Ethereum blocks; Solana 1 = the configured commitment reached). */
  readonly requiredConfirmations: number;
  /** What the chain says about `hash` as a payment to the platform from `expect.buyer`. Never throws. */
  inspect(hash: string, expect: PaymentExpectation): Promise<PaymentObservation>;
  /** Payments the browser never reported. Never throws. */
  scan(targets: ScanTarget[], knownHashes: ReadonlySet<string>): Promise<ScanResult>;
  /** Where a scan for a purchase made now should start (Ethereum: the head block), or null. */
  scanStart(): Promise<number | null>;
  /** The explorer page of a transaction. */
  explorerUrl(hash: string): string | null;
  /** wei or lamports -> decimal coin text. */
  formatAmount(baseUnits: bigint): string;
}

export type VerifierEnv = Pick<
  Env,
  "ETH_RPC_URL" | "ETH_CHAIN_ID" | "ETH_CONFIRMATIONS" | "PLATFORM_ETH_ADDRESS" | "SOL_RPC_URL" | "SOL_COMMITMENT" | "PLATFORM_SOL_ADDRESS"
>;

export function paymentVerifier(env: VerifierEnv, network: Network): PaymentVerifier {
  return network === "ethereum" ? ethereumVerifier(env) : solanaVerifier(env);
}

/** A positive whole number from configuration text, else `fallback`. */
export function configuredDepth(text: string | undefined, fallback: number): number {
  const n = Number((text ?? "").trim());
  return Number.isSafeInteger(n) && n >= 1 && n <= 1000 ? n : fallback;
}
