// The one interface over both chains and the shapes it speaks in. The implementations
// (ethereum-payments.ts, solana-payments.ts) import these; payment-verifier.ts picks one per network, so
// neither implementation imports the file that imports it.
import type { Network } from "../../schema/db";
import type { PaymentObservation } from "../domain/payment-decision";
import type { ReconcileCursor, SolanaSignature, TransferCheck } from "../domain/reconciliation";

/** What a purchase expects of its payment. */
export type PaymentExpectation = {
  /** The signed-in buyer's wallet. */
  buyer: string;
  /** Solana reference key (base58); null on Ethereum. */
  reference: string | null;
};

/**
 * Where one network's payment scan stands (payment_scan_cursors): Ethereum, the next block to read; Solana, the
 * newest platform signature read. Null before the first run.
 */
export type ScanCursor = { nextBlock: number | null; lastSignature: string | null };

/** One run's read of the chain for payments: every transfer to the platform in it, and where the next run starts. */
export type ScanWindow = { transfers: ReceivedTransfer[]; cursor: ScanCursor };

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

/** A transfer that reached the platform, as the scan and the reconciliation read it. */
export type ReceivedTransfer = { hash: string; amount: bigint; senders: string[]; direct: boolean; references: string[]; blockNumber: number | null };

/** One run's read of the platform address. */
export type ReconcileWindow = {
  transfers: ReceivedTransfer[];
  /** Ethereum: blocks where the platform's balance moved by more (or less) than the transfers seen explain. */
  unexplained: { block: number; amount: bigint }[];
  cursor: ReconcileCursor;
  /** Where the reconciliation now stands, in words for the admin (a block number, a signature); null before it starts. */
  through: string | null;
  /** Everything up to this block (Ethereum) or slot (Solana) is read; null when this run does not know (a Solana backlog). */
  throughBlock: number | null;
  /** This run read up to the chain's final head: nothing is left behind it. */
  caughtUp: boolean;
  /**
   * Solana: what this node read, for the quorum (quorum-verifier.ts) to compare: the slot it stopped at, the
   * signatures read (newest first, without a gap, with their slots) and whether older ones of the window are left.
   */
  solana?: { through: number; read: SolanaSignature[]; more: boolean };
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
  /** Transfers below this many wei or lamports are dust: recorded as ignored, never owed back (docs/payments.md#dust). */
  readonly dustBelow: bigint;
  /**
   * The platform address's received transfers after `cursor`, at most `limit` blocks (Ethereum) or signatures
   * (Solana: only those in slots up to `throughSlot`, when given). What was read before a call failed is kept (the
   * window ends there); null when nothing could be read (nothing moves). Never throws.
   */
  reconcile(cursor: ReconcileCursor, opts: { limit: number; throughSlot?: number }): Promise<ReconcileWindow | null>;
  /**
   * Payments the browser never reported, for every reservation at once: the transfers to the platform in the
   * chain's new part (Ethereum: at most `limit` blocks from the cursor, or from `startAt` on the first run, up to
   * the head; the cursor passes only final blocks. Solana: the platform's newest `limit` signatures since the
   * cursor). Null when the node cannot be asked. Never throws.
   */
  scanTransfers(cursor: ScanCursor, opts: { limit: number; startAt: number | null }): Promise<ScanWindow | null>;
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
