// Buying (docs/buying.md): the request schemas the Worker validates and the answers the purchase pages read. This
// file is the contract between worker/purchases + worker/routes/transactions.ts and the web's purchase pages;
// change it only together with both sides.
import * as v from "valibot";
import type { Network } from "./db";
import { rowIdInput } from "./ids";
import { paymentHashNetwork } from "./payment-hash";
import type { OpenStatus, PurchaseStatus } from "./purchase-lifecycle";
import type { SealedKey } from "./sealed-delivery";

// ---- constants both sides show ------------------------------------------------------------------------

/** Open purchases (schema/purchase-lifecycle.ts OPEN) one buyer may hold at once. */
export const MAX_OPEN_RESERVATIONS = 3;
/**
 * Open purchases all the wallets of one client network (an IPv4 address or an IPv6 /48) may hold at once: a
 * wallet costs nothing, so the per-wallet bound alone bounds nothing (docs/public-surface.md#client-networks).
 * Room for a household or an office of a few buyers at their own bound each.
 */
export const MAX_OPEN_RESERVATIONS_PER_NETWORK = 10;
/**
 * Reservation calls a minute (POST /api/transactions/initiate, POST /api/transactions and a custom order's
 * payment, counted together), per wallet and per client network for all its wallets.
 */
export const INITIATE_RATE_LIMIT = { perWallet: 10, perClient: 30, windowMs: 60_000, what: "purchase attempts" } as const;
/**
 * Calls a signed-in wallet may make per minute, and calls one client network (an IPv4 address or an IPv6 /64)
 * may make for all its wallets together: each call costs node requests and rows. A payment report asks the node up to four times and
 * writes a chain-audit row; the purchase page re-reports every 3 s while a payment confirms (20 a minute).
 */
export const CONFIRM_RATE_LIMIT = { perWallet: 30, perClient: 120, windowMs: 60_000, what: "payment reports" } as const;
/** The Solana transfer request asks the node for a blockhash each time; the page asks once per payment. */
export const SOLANA_TRANSFER_RATE_LIMIT = { perWallet: 10, perClient: 60, windowMs: 60_000, what: "Solana transfer requests" } as const;
/** Key reveal and destruction together: each attempt, refused or not, writes an audit row, so the bound keeps the audit trail finite. */
export const KEY_ACCESS_RATE_LIMIT = { perWallet: 20, perClient: 60, windowMs: 60_000, what: "private key requests" } as const;
/** Days between scheduled key-encryption-secret rotations (docs/key-custody.md#destroying-a-key-and-the-7-day-window). */
export const KEY_SHRED_INTERVAL_DAYS = 7;
/**
 * The destroy dialog's help text about backup copies (docs/key-custody.md#destroying-a-key-and-the-7-day-window): D1 Time Travel keeps earlier database states
 * for 30 days, so the deleted ciphertext lives on there until the secret that wrapped it is retired.
 */
export const KEY_SHRED_WINDOW_TEXT =
  `Our database host keeps point-in-time backups for 30 days, so an encrypted copy of this key remains in those backups. ` +
  `Every ${KEY_SHRED_INTERVAL_DAYS} days all stored keys are re-encrypted under a new secret and the old secret is deleted; ` +
  `from then on (at most ${KEY_SHRED_INTERVAL_DAYS} days after you destroy it) no one, including us, can decrypt those copies.`;

// ---- GET /api/config ------------------------------------------------------------------------------------

export type SolanaCluster = "mainnet-beta" | "devnet" | "testnet" | "localnet";
export type SolanaCommitment = "processed" | "confirmed" | "finalized";

/** GET /api/config: what the browser needs to link out and to pay. */
export type ChainConfigResponse = {
  ethChainId: number;
  solCluster: SolanaCluster;
  /** Absent while the server refuses payments (unsafe payment settings, docs/production-settings.md). */
  payments?: {
    ethereum: { recipient: string; chainId: number; confirmations: number };
    /** Payments are read at confirmed or finalized only: the Worker refuses "processed" (worker/deployment/payment-rules.ts). */
    solana: { recipient: string; cluster: SolanaCluster; commitment: Exclude<SolanaCommitment, "processed"> };
  };
  reservationMinutes: number;
  /** True only when both RPC URLs point at localhost/127.0.0.1 (the local dev wallets may be offered). */
  localDevWallets: boolean;
};

// ---- request bodies ---------------------------------------------------------------------------------------

/** A listing id as a JSON number or a string of digits. */
// The text is idMessage("listing")'s, written out so the pages importing this file need not carry the kinds table.
const addressIdInput = rowIdInput("must be a listing id (a whole number from 1)");
const walletInput = v.pipe(v.string("must be a string"), v.trim(), v.minLength(1, "must not be empty"), v.maxLength(64, "is too long"));

/** POST /api/transactions/initiate. `buyerId` is the wallet address; it must equal the session's wallet. */
export const InitiateRequest = v.object({
  addressId: addressIdInput,
  buyerId: walletInput,
  /** The price the buyer saw; differing from the server's -> 409 with `currentPrice`. */
  price: v.optional(v.union([v.number(), v.pipe(v.string(), v.maxLength(40, "is too long"))], "must be a number or a decimal string")),
  currency: v.optional(v.picklist(["ETH", "SOL"], "must be ETH or SOL")),
  membershipTier: v.optional(v.literal("basic", "must be basic")),
});
export type InitiateRequest = v.InferOutput<typeof InitiateRequest>;

/** POST /api/transactions (the other buy-flow variant). */
export const CreateTransactionRequest = v.object({
  addressId: addressIdInput,
  buyerId: v.optional(walletInput),
});
export type CreateTransactionRequest = v.InferOutput<typeof CreateTransactionRequest>;

/** 0x + 32-byte hex (Ethereum) or a base58 signature (Solana, 64 bytes = 86-88 characters). */
export const TX_HASH_PATTERN = /^(?:0x[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{64,90})$/;

/** POST /api/transactions/:id/confirm. The hash must decode to what its network's ids are (schema/payment-hash.ts), or nothing is written. */
export const ConfirmRequest = v.object({
  txHash: v.pipe(
    v.string("must be a string"),
    v.trim(),
    v.regex(TX_HASH_PATTERN, "must be an Ethereum transaction hash or a Solana signature"),
    v.check((text) => paymentHashNetwork(text) !== null, "must be an Ethereum transaction hash (32 bytes) or a Solana signature (64 bytes)"),
  ),
  buyerWallet: walletInput,
});
export type ConfirmRequest = v.InferOutput<typeof ConfirmRequest>;

/** POST /api/transactions/:id/solana-transaction (Solana Pay transaction request). */
export const SolanaTransactionRequest = v.object({
  account: v.pipe(v.string("must be a string"), v.trim(), v.regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, "must be a Solana address")),
});
export type SolanaTransactionRequest = v.InferOutput<typeof SolanaTransactionRequest>;

// ---- answers --------------------------------------------------------------------------------------------

export type FeeCalculation = { listingPrice: string; gasFee: string; totalAmount: string };

/** 201 from POST /api/transactions/initiate. */
export type InitiateResponse = { success: true; transactionId: string; expiresAt: string; feeCalculation: FeeCalculation };
/** 201 from POST /api/transactions. */
export type CreateTransactionResponse = { id: string; transactionId: string; expiresAt: string; feeCalculation: FeeCalculation };

/** Why a payment did not complete the purchase (stored as failureReason). */
export const FAILURE_REASONS = [
  "underpaid",
  "wrong-sender",
  "wrong-recipient",
  "reverted",
  "wrong-chain",
  "missing-reference",
  "hash-used",
  "reorged",
  "not-found",
  "expired",
  /** Ethereum: mined in a block before the reservation existed, so not sent for it. */
  "before-reservation",
  /** The listing was sold to another purchase first; the payment is listed for refund. */
  "listing-sold",
  /**
   * Nothing final by the last deadline (expiry + the missing-payment grace + the node-outage grace): the node did
   * not answer, or the payment stopped getting deeper. A payment that arrives later is listed for refund.
   */
  "unverified",
  /** An admin closed the purchase with a note (POST /api/admin/purchases/:id/close; the note is in the audit trail). */
  "admin-closed",
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** GET /api/transactions/:id (buyer, seller or admin only; `Cache-Control: no-store`). */
export type PurchaseView = {
  id: string;
  status: PurchaseStatus;
  failureReason: string | null;
  /** The listing's address. */
  address: string;
  addressId: number;
  network: Network;
  price: string;
  currency: "ETH" | "SOL";
  exchangeFee: string;
  commissionFee: string;
  /** Decimal string in `currency`: what the buyer pays the platform (price + exchange fee + commission). */
  totalAmount: string;
  /**
   * The network fee (gas) estimated when the purchase was reserved, decimal in `currency`, or null: paid by the
   * buyer's wallet to the network, on top of totalAmount; an estimate (the wallet sets the real figure).
   */
  networkFeeEstimate: string | null;
  /** totalAmount in wei (Ethereum) or lamports (Solana), as a decimal string: send exactly this. */
  amountBaseUnits: string;
  /** The platform address to pay. */
  recipient: string;
  /** Ethereum chain id to pay on; null for Solana. */
  chainId: number | null;
  /** Solana reference key (base58) to attach to the transfer; null for Ethereum. */
  paymentReference: string | null;
  txHash: string | null;
  blockchainTxHash: string | null;
  confirmations: number;
  requiredConfirmations: number;
  expiresAt: string | null;
  /**
   * While a payment is awaited or confirming (initiated, pending): the deadline (expiry + 10 minutes) after which
   * a payment not found ends the purchase, and the last deadline (an hour later) that ends it even while the
   * node does not answer (docs/payments.md#deadlines). Null once the purchase has ended.
   */
  paymentDeadline: string | null;
  lastDeadline: string | null;
  /** When the current payment was first reported or found; null before. */
  paymentReportedAt: string | null;
  createdAt: string;
  completedAt: string | null;
  privateKeyDestroyed: boolean;
  role: "buyer" | "seller" | "admin";
  /**
   * The viewer is an admin (whatever their role here: an admin is often the seller too) and the purchase is open and
   * unpaid (initiated or pending), so it may be closed with a note (POST /api/admin/purchases/:id/close).
   */
  adminMayClose: boolean;
  rarityScore: string;
  pattern: string | null;
  category: string | null;
  /**
   * Set when this purchase pays a custom order (docs/custom-orders.md): there is no stored key; once completed, the order
   * page /custom-orders/{id} completes the key in the buyer's browser.
   */
  customOrderId: number | null;
};

/** POST /api/transactions/:id/confirm. */
export type ConfirmResponse = {
  success: boolean;
  status: PurchaseStatus;
  confirmations: number;
  requiredConfirmations: number;
  message: string;
};

export type CancelResponse = { success: true; status: "cancelled" };

/**
 * GET /api/transactions/open (signed-in, `no-store`, primary): the session's own open purchases, so the listing
 * pages can say "Reserved by you" and lead back to the purchase. At most MAX_OPEN_RESERVATIONS.
 */
export type OpenPurchase = { transactionId: string; addressId: number; status: OpenStatus; expiresAt: string };
export type OpenPurchasesResponse = { purchases: OpenPurchase[] };

/** POST /api/transactions/:id/solana-transaction: an unsigned transfer, base64 wire format. */
export type SolanaTransactionResponse = { transaction: string; message: string };

export type SupportInfo = { message: string; instructions: string; txHash: string | null; contactMethod: string };

/**
 * POST /api/transactions/:id/reveal-private-key (`no-store`; body RevealRequest, schema/sealed-delivery.ts): the key
 * sealed to the page's one-time public key, never the plain key.
 */
export type RevealResponse =
  | { success: true; sealed: SealedKey; address: string; network: Network }
  | { success: false; error: string; message: string; supportInfo?: SupportInfo };

/** DELETE /api/transactions/:id/private-key. */
export type DestroyKeyResponse = { success: true; message: string };

export type PurchaseListItem = {
  id: string;
  status: PurchaseStatus;
  /** Why a failed (or expired) purchase ended, as in PurchaseView. */
  failureReason: string | null;
  price: string;
  currency: "ETH" | "SOL";
  network: Network;
  totalAmount: string;
  createdAt: string;
  completedAt: string | null;
  privateKeyDestroyed: boolean;
  address: { id: number; address: string; network: Network; rarityScore: string };
  /**
   * Set when this purchase paid a custom order (docs/custom-orders.md): the buyer's browser made the key, the
   * store never held it, so there is nothing to reveal or destroy here.
   */
  customOrderId: number | null;
};

export const PURCHASES_PAGE_DEFAULT = 20;
export const PURCHASES_PAGE_MAX = 100;

/** GET /api/transactions/purchases?page=&limit= (the session's own purchases, newest first). */
export type PurchasesResponse = {
  purchases: PurchaseListItem[];
  pagination: { page: number; totalPages: number; total: number; hasPrevPage: boolean; hasNextPage: boolean };
};
