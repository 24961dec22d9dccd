// The database schema (D1 / SQLite through drizzle-orm). Every table of the spec's data schema
// (transactions-profile-admin.md §3) plus what the design needs: sign-in nonces and sessions, integer
// price units beside each decimal price, and the indexes that keep the invariants in the database.
//
// Conventions:
// - Money: `price` is the decimal string the spec shows (at most 8 decimals); `priceUnits` is the same
//   amount as an integer count of 1e-8 units, used for sorting and arithmetic (DESIGN §3).
// - Time: integer milliseconds since the epoch.
// - Ethereum wallet addresses are stored lower-case (identity is case-insensitive); listing addresses
//   keep the checksummed form buyers expect to see.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const nowMs = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const createdAt = () => integer("created_at", { mode: "number" }).notNull().default(nowMs);
const bool = (name: string) => integer(name, { mode: "boolean" });

export const NETWORKS = ["ethereum", "solana"] as const;
export type Network = (typeof NETWORKS)[number];

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    walletAddress: text("wallet_address").notNull(),
    network: text("network", { enum: NETWORKS }).notNull(),
    email: text("email"),
    membershipTier: text("membership_tier").notNull().default("basic"),
    isVerified: bool("is_verified").notNull().default(false),
    isAdmin: bool("is_admin").notNull().default(false),
    reputationScore: integer("reputation_score").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_username_unique").on(t.username), uniqueIndex("users_wallet_unique").on(t.walletAddress)],
);

export const LISTING_STATUSES = ["active", "inactive", "pending", "sold", "deleted"] as const;
export const PROMOTION_TYPES = ["standard", "featured", "promoted"] as const;
export const CATEGORIES = ["leading-zeros", "trailing-zeros", "word-like", "palindrome", "sequential", "custom"] as const;

/** Rows the public marketplace may show at all (available or sold); the partial search indexes use this term. */
export const BROWSABLE_SQL = "status in ('active', 'sold')";
/** Longest address a search key is reversed over (Solana base58 is at most 44 characters). */
const SEARCH_KEY_MAX = 48;
const SEARCH_KEY_SQL = sql.raw(
  "CASE WHEN network = 'ethereum' THEN lower(CASE WHEN substr(address, 1, 2) IN ('0x', '0X') THEN substr(address, 3) ELSE address END) ELSE address END",
);
// SQLite has no reverse(); substr past the end is '', so concatenating characters from the last possible
// position down to 1 reverses any key up to SEARCH_KEY_MAX characters.
const SEARCH_KEY_REV_SQL = sql.raw(
  Array.from({ length: SEARCH_KEY_MAX }, (_, i) => `substr(search_key, ${SEARCH_KEY_MAX - i}, 1)`).join(" || "),
);

export const addresses = sqliteTable(
  "addresses",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    address: text("address").notNull(),
    network: text("network", { enum: NETWORKS }).notNull(),
    sellerId: integer("seller_id").references(() => users.id),
    price: text("price").notNull(),
    priceUnits: integer("price_units").notNull(),
    currency: text("currency", { enum: ["ETH", "SOL"] }).notNull(),
    rarityScore: real("rarity_score").notNull().default(0),
    difficultyLog2: real("difficulty_log2").notNull().default(0),
    category: text("category").notNull().default("custom"),
    pattern: text("pattern").notNull().default("custom"),
    isListed: bool("is_listed").notNull().default(true),
    status: text("status", { enum: LISTING_STATUSES }).notNull().default("active"),
    isFeatured: bool("is_featured").notNull().default(false),
    featuredUntil: integer("featured_until"),
    listingTier: text("listing_tier").notNull().default("basic"),
    isPremiumListing: bool("is_premium_listing").notNull().default(false),
    isPromoted: bool("is_promoted").notNull().default(false),
    promotionType: text("promotion_type", { enum: PROMOTION_TYPES }).notNull().default("standard"),
    promotionWeight: integer("promotion_weight").notNull().default(0),
    searchTags: text("search_tags"),
    patternLength: integer("pattern_length").notNull().default(0),
    repeatingDigits: integer("repeating_digits").notNull().default(0),
    hasLeadingZeros: bool("has_leading_zeros").notNull().default(false),
    leadingZeroCount: integer("leading_zero_count").notNull().default(0),
    hasTrailingZeros: bool("has_trailing_zeros").notNull().default(false),
    trailingZeroCount: integer("trailing_zero_count").notNull().default(0),
    hasPalindrome: bool("has_palindrome").notNull().default(false),
    hasSequence: bool("has_sequence").notNull().default(false),
    hasWordPattern: bool("has_word_pattern").notNull().default(false),
    caseSensitivePattern: bool("case_sensitive_pattern").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull().default(nowMs),
    // Search keys for the marketplace's pattern filter, computed by SQLite (virtual, never written by code):
    // the address as patterns match it (Ethereum: hex after 0x, lower-case; Solana: exact base58) and the
    // same reversed, so "ends with" is an index range too.
    searchKey: text("search_key").generatedAlwaysAs(SEARCH_KEY_SQL, { mode: "virtual" }),
    searchKeyRev: text("search_key_rev").generatedAlwaysAs(SEARCH_KEY_REV_SQL, { mode: "virtual" }),
  },
  (t) => [
    uniqueIndex("addresses_address_unique").on(t.address),
    // Marketplace search (worker/listings/search.ts) reads only publicly browsable rows, so these indexes are
    // partial on BROWSABLE_SQL (the query repeats that exact term). Each starts with what it orders or ranges
    // by and carries the filter columns, so filters are checked inside the index without reading rows.
    index("addresses_search_rarity")
      .on(t.rarityScore, t.id, t.network, t.category, t.patternLength, t.status, t.isListed)
      .where(sql.raw(BROWSABLE_SQL)),
    index("addresses_search_created")
      .on(t.createdAt, t.id, t.network, t.category, t.patternLength, t.status, t.isListed)
      .where(sql.raw(BROWSABLE_SQL)),
    index("addresses_search_price")
      .on(t.network, t.currency, t.priceUnits, t.id, t.category, t.patternLength, t.status, t.isListed)
      .where(sql.raw(BROWSABLE_SQL)),
    // The same three orders within each (category, pattern length) bucket: category and character-count
    // filters correlate with every sort (longer patterns are rarer and pricier), so filtered searches merge
    // per-bucket ranges instead of skipping through the global order (search.ts bucketPage).
    index("addresses_search_len_rarity")
      .on(t.category, t.patternLength, t.rarityScore, t.id, t.network, t.status, t.isListed)
      .where(sql.raw(BROWSABLE_SQL)),
    index("addresses_search_len_created")
      .on(t.category, t.patternLength, t.createdAt, t.id, t.network, t.status, t.isListed)
      .where(sql.raw(BROWSABLE_SQL)),
    index("addresses_search_len_price")
      .on(t.category, t.patternLength, t.network, t.currency, t.priceUnits, t.id, t.status, t.isListed)
      .where(sql.raw(BROWSABLE_SQL)),
    // The pattern indexes also carry every sort key: a pattern's matches are counted and sorted from the
    // index alone, and only the page's rows are read.
    index("addresses_search_prefix")
      .on(t.searchKey, t.network, t.category, t.patternLength, t.status, t.isListed, t.rarityScore, t.createdAt, t.currency, t.priceUnits)
      .where(sql.raw(BROWSABLE_SQL)),
    index("addresses_search_suffix")
      .on(t.searchKeyRev, t.network, t.category, t.patternLength, t.status, t.isListed, t.rarityScore, t.createdAt, t.currency, t.priceUnits)
      .where(sql.raw(BROWSABLE_SQL)),
    // Browsing: the public marketplace reads listed rows ordered by rarity, price or age.
    index("addresses_browse_rarity").on(t.status, t.isListed, t.rarityScore),
    index("addresses_browse_price").on(t.status, t.isListed, t.priceUnits),
    index("addresses_browse_created").on(t.status, t.isListed, t.createdAt),
    index("addresses_network").on(t.network),
    index("addresses_category").on(t.category),
    index("addresses_seller").on(t.sellerId),
    index("addresses_featured").on(t.isFeatured, t.status),
  ],
);

// Exact counts and price sums of browsable listings per (state, network, currency, category, pattern length),
// kept by triggers on addresses (migrations/0003_browse_search_sql.sql). The marketplace's totals and the market
// stats read these few hundred rows instead of counting a million listings. state: "available" (active and
// listed) or "sold".
export const listingCounts = sqliteTable(
  "listing_counts",
  {
    state: text("state", { enum: ["available", "sold"] }).notNull(),
    network: text("network", { enum: NETWORKS }).notNull(),
    currency: text("currency", { enum: ["ETH", "SOL"] }).notNull(),
    category: text("category").notNull(),
    patternLength: integer("pattern_length").notNull(),
    listings: integer("listings").notNull().default(0),
    // REAL: a display statistic that must never overflow, not an amount anyone pays.
    priceUnits: real("price_units").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.state, t.network, t.currency, t.category, t.patternLength] })],
);

export const TRANSACTION_STATUSES = ["initiated", "pending", "verified", "completed", "failed", "cancelled", "expired"] as const;
export const OPEN_TRANSACTION_STATUSES = ["initiated", "pending", "verified"] as const;

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
    status: text("status", { enum: TRANSACTION_STATUSES }).notNull().default("initiated"),
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
  },
  (t) => [
    // At most one open purchase per listing: a second buyer's insert fails inside the database.
    uniqueIndex("transactions_one_open_per_listing")
      .on(t.addressId)
      .where(sql`status in ('initiated', 'pending', 'verified')`),
    // A payment hash or signature settles at most one purchase per network.
    uniqueIndex("transactions_payment_unique")
      .on(t.network, t.txHash)
      .where(sql`tx_hash is not null`),
    index("transactions_buyer").on(t.buyerId, t.createdAt),
    index("transactions_seller").on(t.sellerId, t.createdAt),
    index("transactions_status").on(t.status, t.updatedAt),
    index("transactions_created").on(t.createdAt),
  ],
);

export const watchlist = sqliteTable(
  "watchlist",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    addressId: integer("address_id")
      .notNull()
      .references(() => addresses.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("watchlist_user_address_unique").on(t.userId, t.addressId)],
);

// One encrypted private key per listing (DESIGN §5: envelope encryption, encrypt-then-MAC).
export const encryptedKeys = sqliteTable(
  "encrypted_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    addressId: integer("address_id")
      .notNull()
      .references(() => addresses.id),
    encryptedPrivateKey: text("encrypted_private_key").notNull(),
    salt: text("salt").notNull(),
    iv: text("iv").notNull(),
    wrappedKey: text("wrapped_key").notNull(),
    mac: text("mac").notNull(),
    keyVersion: integer("key_version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull().default(nowMs),
  },
  (t) => [uniqueIndex("encrypted_keys_address_unique").on(t.addressId), index("encrypted_keys_version").on(t.keyVersion)],
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
  },
  (t) => [uniqueIndex("fee_config_one_active_per_network").on(t.network).where(sql`is_active = 1`)],
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
  (t) => [index("transaction_audit_transaction").on(t.transactionId, t.timestamp)],
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

export const priceHistory = sqliteTable(
  "price_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    addressId: integer("address_id")
      .notNull()
      .references(() => addresses.id),
    price: text("price").notNull(),
    currency: text("currency").notNull(),
    priceUsd: text("price_usd"),
    changeType: text("change_type").notNull(),
    previousPrice: text("previous_price"),
    changePercentage: text("change_percentage"),
    marketCap: text("market_cap"),
    volume24h: text("volume_24h"),
    transactionId: text("transaction_id"),
    createdAt: createdAt(),
  },
  (t) => [index("price_history_address").on(t.addressId, t.createdAt)],
);

export const marketTrends = sqliteTable(
  "market_trends",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    category: text("category").notNull(),
    network: text("network", { enum: NETWORKS }).notNull(),
    avgPrice: text("avg_price"),
    medianPrice: text("median_price"),
    minPrice: text("min_price"),
    maxPrice: text("max_price"),
    totalVolume: text("total_volume"),
    activeListings: integer("active_listings").notNull().default(0),
    soldCount: integer("sold_count").notNull().default(0),
    priceChange24h: text("price_change_24h"),
    priceChange7d: text("price_change_7d"),
    volumeChange24h: text("volume_change_24h"),
    period: text("period").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("market_trends_category").on(t.category, t.network, t.period)],
);

export const listingPromotions = sqliteTable(
  "listing_promotions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    addressId: integer("address_id")
      .notNull()
      .references(() => addresses.id),
    promotionType: text("promotion_type", { enum: PROMOTION_TYPES }).notNull(),
    price: text("price").notNull().default("0"),
    currency: text("currency").notNull().default("ETH"),
    duration: integer("duration"),
    startTime: integer("start_time").notNull().default(nowMs),
    endTime: integer("end_time"),
    isActive: bool("is_active").notNull().default(true),
    purchasedBy: integer("purchased_by").references(() => users.id),
  },
  (t) => [index("listing_promotions_address").on(t.addressId)],
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

export const gasEstimationAudit = sqliteTable("gas_estimation_audit", {
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
});

export const algorithmAdjustments = sqliteTable(
  "algorithm_adjustments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    network: text("network", { enum: NETWORKS }).notNull(),
    baseValueMultiplier: real("base_value_multiplier").notNull().default(1.0),
    salesDataPeriod: integer("sales_data_period").notNull().default(30),
    salesCount: integer("sales_count").notNull().default(0),
    averageActualPrice: text("average_actual_price"),
    averageEstimatedPrice: text("average_estimated_price"),
    adjustmentReason: text("adjustment_reason"),
    confidenceScore: real("confidence_score").notNull().default(0.5),
    isActive: bool("is_active").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index("algorithm_adjustments_active").on(t.network, t.isActive)],
);

export const salesAnalytics = sqliteTable(
  "sales_analytics",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    transactionId: text("transaction_id").notNull(),
    addressId: integer("address_id")
      .notNull()
      .references(() => addresses.id),
    network: text("network", { enum: NETWORKS }).notNull(),
    rarityScore: real("rarity_score"),
    category: text("category"),
    estimatedValue: text("estimated_value"),
    actualSalePrice: text("actual_sale_price").notNull(),
    priceVariance: text("price_variance"),
    saleDate: integer("sale_date").notNull().default(nowMs),
    leadingZeros: integer("leading_zeros").notNull().default(0),
    patterns: text("patterns", { mode: "json" }),
  },
  (t) => [uniqueIndex("sales_analytics_transaction_unique").on(t.transactionId), index("sales_analytics_date").on(t.network, t.saleDate)],
);

export const escrowTransactions = sqliteTable("escrow_transactions", {
  id: text("id").primaryKey(),
  network: text("network", { enum: NETWORKS }).notNull(),
  amount: text("amount").notNull(),
  currency: text("currency").notNull(),
  senderAddress: text("sender_address"),
  recipientAddress: text("recipient_address"),
  status: text("status").notNull().default("pending"),
  txHash: text("tx_hash"),
  releaseTxHash: text("release_tx_hash"),
  releaseTime: integer("release_time"),
  createdAt: createdAt(),
});

// Sign-in nonces (DESIGN §4): random, 10-minute TTL, consumed once by a DELETE ... RETURNING.
export const authNonces = sqliteTable(
  "auth_nonces",
  {
    nonce: text("nonce").primaryKey(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("auth_nonces_expiry").on(t.expiresAt)],
);

// Sessions: only the hash of the opaque cookie value is stored, bound to (network, address).
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    network: text("network", { enum: NETWORKS }).notNull(),
    walletAddress: text("wallet_address").notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user").on(t.userId), index("sessions_expiry").on(t.expiresAt)],
);

// Fixed-window request counters (worker/http/rate-limit.ts): one row per (key, window start), bumped by an
// atomic upsert; rows of windows that have ended are deleted as new ones are counted.
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limits_window").on(t.windowStart)],
);

export type User = typeof users.$inferSelect;
export type Listing = typeof addresses.$inferSelect;
export type NewListing = typeof addresses.$inferInsert;
export type Transaction = typeof transactions.$inferSelect;
export type EncryptedKey = typeof encryptedKeys.$inferSelect;
export type Session = typeof sessions.$inferSelect;
