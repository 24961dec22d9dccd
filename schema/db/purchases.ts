// Purchases: transactions, fees, audits of every step, and the escrow of received payments.
import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bool, createdAt, NETWORKS, nowMs } from "./columns";
import { users } from "./identity";
import { addresses } from "./listings";
import type { LedgerStatus, RefundStatus } from "../ledger-lifecycle";
import { PURCHASE_STATUSES } from "../purchase-lifecycle";

export const transactions = sqliteTable(
  "transactions",
  {
    id: text("id").primaryKey(),
    addressId: integer("address_id")
      .notNull()
      .references(() => addresses.id),
    buyerId: integer("buyer_id").references(() => users.id),
    sellerId: integer("seller_id").references(() => users.id),
    buyerWallet: text("buyer_wallet"),
    network: text("network", { enum: NETWORKS }).notNull(),
    price: text("price").notNull(),
    priceUnits: integer("price_units").notNull(),
    currency: text("currency", { enum: ["ETH", "SOL"] }).notNull(),
    exchangeFee: text("exchange_fee").notNull().default("0"),
    commissionFee: text("commission_fee").notNull().default("0"),
    totalAmount: text("total_amount").notNull(),
    totalUnits: integer("total_units").notNull(),
    status: text("status", { enum: PURCHASE_STATUSES }).notNull().default("initiated"),
    txHash: text("tx_hash"),
    verificationHash: text("verification_hash"),
    // Solana Pay style reference key carried by the payment, so it can be found without the signature.
    paymentReference: text("payment_reference"),
    disputeReason: text("dispute_reason"),
    failureReason: text("failure_reason"),
    isTestData: bool("is_test_data").notNull().default(false),
    privateKeyDestroyed: bool("private_key_destroyed").notNull().default(false),
    expiresAt: integer("expires_at"),
    createdAt: createdAt(),
    completedAt: integer("completed_at"),
    updatedAt: integer("updated_at").notNull().default(nowMs),
    // The amount to pay in wei or lamports (decimal text: wei exceed 2^53).
    amountBaseUnits: text("amount_base_units"),
    confirmations: integer("confirmations").notNull().default(0),
    // Where the reported payment was last seen (block hash or slot); a change means a reorg.
    paymentBlock: text("payment_block"),
    // Ethereum: the head at reservation. The per-purchase scan cursor this was is unused since one scan serves every
    // purchase (payment_scan_cursors); reservedBlock is the fact that counts.
    scanFromBlock: integer("scan_from_block"),
    // The node's newest block (Ethereum) or confirmed slot (Solana) when the reservation was made, never moved. A
    // payment mined in that Ethereum block or before, or in an earlier Solana slot, was not sent for this purchase
    // (docs/payments.md#the-decision-decidepayment).
    reservedBlock: integer("reserved_block"),
    // Unused since one scan serves every purchase (it was when the per-purchase scan last looked).
    scannedAt: integer("scanned_at"),
    // When the current payment was first reported or found (a re-report of the same hash keeps it).
    reportedAt: integer("reported_at"),
    // A verifying run holds the row until then, so overlapping cron runs do not verify it twice.
    leaseUntil: integer("lease_until"),
    // The client network the reservation was made from (an IPv4 address or an IPv6 /48, worker/http/rate-limit.ts
    // clientNetwork): open reservations are bounded per network as well as per buyer. Null on older rows.
    clientNetwork: text("client_network"),
  },
  (t) => [
    // At most one open purchase per listing: a second buyer's insert fails inside the database.
    uniqueIndex("transactions_one_open_per_listing").on(t.addressId).where(sql`status in ('initiated', 'pending', 'verified')`),
    // A payment hash or signature settles at most one purchase per network. Only purchases it paid count:
    // a failed or unverified report of the same hash must not block the purchase it really paid.
    uniqueIndex("transactions_payment_settles_once").on(t.network, t.txHash).where(sql`status in ('verified', 'completed')`),
    // A listing is sold once: at most one verified/completed purchase per listing (a sold listing is never
    // listed again; a custom order's hidden listing is paid once).
    uniqueIndex("transactions_one_sale_per_listing").on(t.addressId).where(sql`status in ('verified', 'completed')`),
    index("transactions_buyer_open").on(t.buyerId, t.status),
    // The reservation's INSERT counts the open purchases of its client network (purchases/reserve.ts).
    index("transactions_network_open").on(t.clientNetwork, t.status),
    index("transactions_open_expiry").on(t.status, t.expiresAt),
    index("transactions_buyer").on(t.buyerId, t.createdAt),
    index("transactions_seller").on(t.sellerId, t.createdAt),
    index("transactions_status").on(t.status, t.updatedAt),
    index("transactions_created").on(t.createdAt),
    // The public feed of recent sales (purchases/transaction-list.ts): status = 'completed', newest completion first.
    index("transactions_completed_sales").on(t.status, t.completedAt),
    // Admin > Analytics: reservations of a period by outcome (operations/analytics.ts).
    index("transactions_created_outcome").on(t.createdAt, t.status, t.failureReason),
    // The payment scan and the reconciliation find a transfer's purchases by its sender, its hash or its reference key.
    index("transactions_buyer_wallet").on(t.network, t.buyerWallet, t.createdAt),
    index("transactions_payment_hash").on(t.network, t.txHash).where(sql`tx_hash IS NOT NULL`),
    index("transactions_payment_reference").on(t.paymentReference).where(sql`payment_reference IS NOT NULL`),
  ],
);

export const feeConfig = sqliteTable(
  "fee_config",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    network: text("network", { enum: NETWORKS }).notNull(),
    exchangeFeePercentage: text("exchange_fee_percentage").notNull().default("0"),
    commissionFeePercentage: text("commission_fee_percentage").notNull().default("0"),
    minimumFee: text("minimum_fee").notNull().default("0"),
    maximumFee: text("maximum_fee"),
    gasFeeMultiplier: text("gas_fee_multiplier").notNull().default("1.20"),
    effectiveFrom: integer("effective_from").notNull().default(nowMs),
    isActive: bool("is_active").notNull().default(true),
    /** Who set this configuration (an admin's wallet; null for the reference rows) and when (migration 0018). */
    createdBy: text("created_by"),
    createdAt: integer("created_at"),
  },
  // History is kept: the row in force at time t is the active one with the greatest effective_from <= t.
  (t) => [uniqueIndex("fee_config_network_effective").on(t.network, t.effectiveFrom).where(sql`is_active = 1`)],
);

export const transactionAudit = sqliteTable(
  "transaction_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    transactionId: text("transaction_id"),
    addressId: integer("address_id"),
    action: text("action").notNull(),
    performedBy: text("performed_by"),
    metadata: text("metadata", { mode: "json" }),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    timestamp: integer("timestamp").notNull().default(nowMs),
  },
  (t) => [
    index("transaction_audit_transaction").on(t.transactionId, t.timestamp),
    index("transaction_audit_action").on(t.action, t.timestamp, t.transactionId),
  ],
);

export const membershipTiers = sqliteTable(
  "membership_tiers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    price: text("price").notNull().default("0"),
    currency: text("currency").notNull().default("ETH"),
    billingPeriod: text("billing_period").notNull().default("monthly"),
    features: text("features", { mode: "json" }),
    maxListings: integer("max_listings"),
    featuredListingsIncluded: integer("featured_listings_included").notNull().default(0),
    commissionDiscount: text("commission_discount").notNull().default("0"),
    isActive: bool("is_active").notNull().default(true),
  },
  (t) => [uniqueIndex("membership_tiers_name_unique").on(t.name)],
);

export const feeStructure = sqliteTable("fee_structure", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  service: text("service").notNull(),
  tier: text("tier").notNull().default("basic"),
  feeType: text("fee_type").notNull(),
  amount: text("amount"),
  percentage: text("percentage"),
  currency: text("currency"),
  description: text("description"),
  isActive: bool("is_active").notNull().default(true),
});

export const blockchainTransactionAudit = sqliteTable(
  "blockchain_transaction_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    transactionId: text("transaction_id"),
    txHash: text("tx_hash"),
    blockNumber: integer("block_number"),
    blockHash: text("block_hash"),
    confirmations: integer("confirmations"),
    gasUsed: text("gas_used"),
    gasPrice: text("gas_price"),
    gasLimit: text("gas_limit"),
    effectiveGasPrice: text("effective_gas_price"),
    fromAddress: text("from_address"),
    toAddress: text("to_address"),
    value: text("value"),
    recipients: text("recipients", { mode: "json" }),
    status: text("status"),
    networkStatus: text("network_status"),
    errorMessage: text("error_message"),
    network: text("network", { enum: NETWORKS }),
    currency: text("currency"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull().default(nowMs),
    confirmedAt: integer("confirmed_at"),
    rawData: text("raw_data", { mode: "json" }),
    explorerUrls: text("explorer_urls", { mode: "json" }),
  },
  (t) => [index("blockchain_audit_transaction").on(t.transactionId), index("blockchain_audit_hash").on(t.txHash)],
);

export const gasEstimationAudit = sqliteTable(
  "gas_estimation_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    transactionId: text("transaction_id"),
    network: text("network", { enum: NETWORKS }),
    estimatedGas: text("estimated_gas"),
    estimatedGasPrice: text("estimated_gas_price"),
    estimatedCost: text("estimated_cost"),
    actualGas: text("actual_gas"),
    actualGasPrice: text("actual_gas_price"),
    actualCost: text("actual_cost"),
    accuracy: real("accuracy"),
    success: bool("success"),
    failureReason: text("failure_reason"),
    createdAt: createdAt(),
  },
  // Admin > Analytics: the estimates of a period against what settled payments paid (operations/analytics.ts).
  (t) => [index("gas_estimation_audit_created").on(t.createdAt, t.success, t.network, t.accuracy)],
);

/** Every received payment, once: held when seen, released on completion, otherwise marked for refund. */
export const escrowTransactions = sqliteTable(
  "escrow_transactions",
  {
    id: text("id").primaryKey(),
    network: text("network", { enum: NETWORKS }).notNull(),
    amount: text("amount").notNull(),
    currency: text("currency").$type<"ETH" | "SOL">().notNull(),
    senderAddress: text("sender_address"),
    recipientAddress: text("recipient_address"),
    // The column's default (migration 0001) is never used: every INSERT names the status, one of LEDGER_STATUSES;
    // SQLite changes a default only by rebuilding the table and its payment triggers (migration 0015).
    status: text("status").$type<LedgerStatus>().notNull().default(sql`'pending'`),
    txHash: text("tx_hash"),
    releaseTxHash: text("release_tx_hash"),
    releaseTime: integer("release_time"),
    createdAt: createdAt(),
    transactionId: text("transaction_id"),
    amountBaseUnits: text("amount_base_units"),
    expectedBaseUnits: text("expected_base_units"),
    /** late | partial | duplicate | over | failed | unmatched | indirect; null when the payment settled its purchase exactly. */
    attentionReason: text("attention_reason").$type<"late" | "partial" | "duplicate" | "over" | "failed" | "unmatched" | "indirect">(),
    /** null | needed | refunded | dismissed (an admin's note says why) | ignored (dust: docs/payments.md#dust). */
    refundStatus: text("refund_status").$type<RefundStatus>(),
    refundBaseUnits: text("refund_base_units"),
    /** Why the last re-check on the chain (before marking the refund done) refused it; null when it passed. */
    checkFailure: text("check_failure"),
    checkedAt: integer("checked_at"),
    /** A dismissed refund: the admin's note and wallet (migration 0021). */
    resolutionNote: text("resolution_note"),
    resolvedBy: text("resolved_by"),
  },
  (t) => [uniqueIndex("escrow_payment_unique").on(t.network, t.txHash).where(sql`tx_hash is not null`), index("escrow_refund").on(t.refundStatus, t.createdAt)],
);

/**
 * What the reconciliation found that no purchase or ledger row accounts for, one row per difference, until an
 * admin resolves it with a note (docs/payments.md). `alerted_at` is for the operators' console's webhook.
 */
export const paymentAttention = sqliteTable(
  "payment_attention",
  {
    id: text("id").primaryKey(),
    network: text("network", { enum: NETWORKS }).notNull(),
    /** uncredited | balance | ledger */
    kind: text("kind").$type<"uncredited" | "balance" | "ledger">().notNull(),
    /** What makes the difference one row: the hash, or the block. */
    ref: text("ref").notNull(),
    txHash: text("tx_hash"),
    fromBlock: integer("from_block"),
    toBlock: integer("to_block"),
    /** wei or lamports (decimal text, may be negative for a balance that fell unexplained). */
    amountBaseUnits: text("amount_base_units"),
    senderAddress: text("sender_address"),
    transactionId: text("transaction_id"),
    escrowId: text("escrow_id"),
    detail: text("detail").notNull(),
    /** open | resolved */
    status: text("status").$type<"open" | "resolved">().notNull().default("open"),
    createdAt: createdAt(),
    alertedAt: integer("alerted_at"),
    resolvedAt: integer("resolved_at"),
    resolvedBy: text("resolved_by"),
    resolutionNote: text("resolution_note"),
  },
  (t) => [uniqueIndex("payment_attention_once").on(t.network, t.kind, t.ref), index("payment_attention_open").on(t.status, t.createdAt)],
);

/** How far the reconciliation has read each network's platform address. */
export const reconcileCursors = sqliteTable("reconcile_cursors", {
  network: text("network", { enum: NETWORKS }).primaryKey(),
  /** Ethereum: the next block to reconcile. */
  nextBlock: integer("next_block"),
  /** Solana: the newest platform signature reconciled. */
  lastSignature: text("last_signature"),
  /** Solana: a walk back through more than one run's signatures: continue before this one ... */
  backlogBefore: text("backlog_before"),
  /** ... and, once it reaches last_signature, this becomes the new last_signature. */
  backlogNewest: text("backlog_newest"),
  updatedAt: integer("updated_at").notNull(),
  /** Everything up to this block (Ethereum) or slot (Solana) is reconciled (migration 0021). */
  throughBlock: integer("through_block"),
  /** The last run that read up to the chain's final head: the reconciliation's lag is measured from it. */
  caughtUpAt: integer("caught_up_at"),
});

/** Where each network's payment scan stands: one pass over the chain's new part serves every purchase. */
export const paymentScanCursors = sqliteTable("payment_scan_cursors", {
  network: text("network", { enum: NETWORKS }).primaryKey(),
  /** Ethereum: the next block to read (blocks above the required depth are read again until final). */
  nextBlock: integer("next_block"),
  /** Solana: the newest platform signature read. */
  lastSignature: text("last_signature"),
  updatedAt: integer("updated_at").notNull(),
});

export type Transaction = typeof transactions.$inferSelect;
