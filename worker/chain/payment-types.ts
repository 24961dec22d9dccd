// The one interface over both chains (issue 10 §0) and the shapes it speaks in. The implementations
// (ethereum-payments.ts, solana-payments.ts) import these; payment-verifier.ts picks one per network, so
// neither implementation imports the file that imports it.
import type { Network } from "../../schema/db";
import type { PaymentObservation } from "../domain/payment-decision";
import type { ReconcileCursor, TransferCheck } from "../domain/reconciliation";

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

/** What the platform received in one transaction, whoever sent it and however (a refund's re-check, the reconciliation). */
export type TransferReceipt =
  | Exclude<TransferCheck, { kind: "found" }>
  | (Extract<TransferCheck, { kind: "found" }> & {
      /** Plain transfers to the platform explain all of it (Ethereum: the transaction's own value; Solana: System transfers). */
      direct: boolean;
      /** Solana: the extra accounts on the transfers to the platform (where a reference key rides). */
      references: string[];
      blockNumber: number | null;
    });

/** A transfer that reached the platform, as the reconciliation reads it. */
export type ReceivedTransfer = { hash: string; amount: bigint; senders: string[]; direct: boolean; references: string[]; blockNumber: number | null };

/** One run's read of the platform address. */
export type ReconcileWindow = {
  transfers: ReceivedTransfer[];
  /** Ethereum: blocks where the platform's balance moved by more (or less) than the transfers seen explain. */
  unexplained: { block: number; amount: bigint }[];
  cursor: ReconcileCursor;
  /** Where the reconciliation now stands, in words for the admin (a block number, a signature); null before it starts. */
  through: string | null;
};

export interface PaymentVerifier {
  readonly network: Network;
  /** The platform address buyers pay. */
  readonly recipient: string;
  /** Depth at which a payment is final (Ethereum blocks; Solana 1 = the configured commitment reached). */
  readonly requiredConfirmations: number;
  /** What the chain says about `hash` as a payment to the platform from `expect.buyer`. Never throws. */
  inspect(hash: string, expect: PaymentExpectation): Promise<PaymentObservation>;
  /** What the platform received in `hash`, whoever sent it and however. Never throws. */
  received(hash: string): Promise<TransferReceipt>;
  /**
   * The platform address's received transfers after `cursor`, at most `limit` blocks (Ethereum) or signatures
   * (Solana), never past block `upTo` (Ethereum). Null when the node cannot be asked (nothing moves). Never throws.
   */
  reconcile(cursor: ReconcileCursor, opts: { limit: number; upTo: number | null }): Promise<ReconcileWindow | null>;
  /** Payments the browser never reported. Never throws. */
  scan(targets: ScanTarget[], knownHashes: ReadonlySet<string>): Promise<ScanResult>;
  /** Where a scan for a purchase made now should start (Ethereum: the head block), or null. */
  scanStart(): Promise<number | null>;
  /**
   * The newest block (Ethereum) or confirmed slot (Solana) the node knows now, or null when it does not answer:
   * recorded at reservation, so a transfer mined before it is known not to be a payment for it
   * (domain/payment-decision.ts firstPaymentBlock).
   */
  chainPosition(): Promise<number | null>;
  /** The explorer page of a transaction. */
  explorerUrl(hash: string): string | null;
  /** wei or lamports -> decimal coin text. */
  formatAmount(baseUnits: bigint): string;
}

export type VerifierEnv = Pick<
  Env,
  "ETH_RPC_URL" | "ETH_CHAIN_ID" | "ETH_CONFIRMATIONS" | "PLATFORM_ETH_ADDRESS" | "SOL_RPC_URL" | "SOL_COMMITMENT" | "PLATFORM_SOL_ADDRESS"
>;
