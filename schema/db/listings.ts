// Listings: the addresses for sale, their sealed keys, counts, price history and promotions (the watchlist is
// in collectors.ts).
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bool, createdAt, NETWORKS, nowMs } from "./columns";
import { users } from "./identity";

import { CATEGORIES, PROMOTION_TYPES, RARITY_SCALE } from "../constants";
import { LISTING_BROWSABLE, LISTING_STATUSES } from "../listing-lifecycle";

export { CATEGORIES, LISTING_STATUSES, PROMOTION_TYPES, RARITY_SCALE };

/**
 * Rows the public marketplace may show at all (LISTING_BROWSABLE: available or sold); the partial search indexes use
 * this term, and a query repeats it verbatim for SQLite to prove an index usable, so its text never changes.
 */
export const BROWSABLE_SQL = `status in (${LISTING_BROWSABLE.map((s) => `'${s}'`).join(", ")})`;
/**
 * How many leading characters of a search key (or of its reverse) the pattern-walk indexes are keyed by. One:
 * every pattern, of any length, then lies in one start per end and network (with four, a pattern of two or
 * three characters spanned up to 3,364 starts).
 */
export const KEY_START = 1;
/** Longest address a search key is reversed over (Solana base58 is at most 44 characters). */
const SEARCH_KEY_MAX = 48;
const SEARCH_KEY_SQL = sql.raw(
  "CASE WHEN network = 'ethereum' THEN lower(CASE WHEN substr(address, 1, 2) IN ('0x', '0X') THEN substr(address, 3) ELSE address END) ELSE address END",
);
// SQLite has no reverse(); substr past the end is '', so concatenating characters from the last possible
// position down to 1 reverses any key up to SEARCH_KEY_MAX characters.
const SEARCH_KEY_REV_SQL = sql.raw(Array.from({ length: SEARCH_KEY_MAX }, (_, i) => `substr(search_key, ${SEARCH_KEY_MAX - i}, 1)`).join(" || "));

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
    // Which rarity scale rarity_score is on: 1 = the old 10 x log2(D) / 64, 2 = log2(D) / 4 (docs/rarity.md).
    // Rows from before migration 0009 are 1 until the cron rescores them (worker/jobs/rescore-rarity.ts).
    rarityScale: integer("rarity_scale").notNull().default(RARITY_SCALE),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull().default(nowMs),
    // Search keys for the marketplace's pattern filter, computed by SQLite (virtual, never written by code):
    // the address as patterns match it (Ethereum: hex after 0x, lower-case; Solana: exact base58) and the
    // same reversed, so "ends with" is an index range too.
    searchKey: text("search_key").generatedAlwaysAs(SEARCH_KEY_SQL, { mode: "virtual" }),
    searchKeyRev: text("search_key_rev").generatedAlwaysAs(SEARCH_KEY_REV_SQL, { mode: "virtual" }),
    // Their first KEY_START characters: every match of a pattern shares them (the pattern-walk indexes).
    searchKeyStart: text("search_key_start").generatedAlwaysAs(sql.raw(`substr(search_key, 1, ${KEY_START})`), { mode: "virtual" }),
    searchKeyRevStart: text("search_key_rev_start").generatedAlwaysAs(sql.raw(`substr(search_key_rev, 1, ${KEY_START})`), { mode: "virtual" }),
  },
  (t) => [
    uniqueIndex("addresses_address_unique").on(t.address),
    // Marketplace search (worker/listings/search.ts) reads only publicly browsable rows, so these indexes are
    // partial on BROWSABLE_SQL (the query repeats that exact term). Each starts with what it orders or ranges
    // by and carries the filter columns, so filters are checked inside the index without reading rows.
    index("addresses_search_rarity").on(t.rarityScore, t.id, t.network, t.category, t.patternLength, t.status, t.isListed).where(sql.raw(BROWSABLE_SQL)),
    index("addresses_search_created").on(t.createdAt, t.id, t.network, t.category, t.patternLength, t.status, t.isListed).where(sql.raw(BROWSABLE_SQL)),
    index("addresses_search_price")
      .on(t.network, t.currency, t.priceUnits, t.id, t.category, t.patternLength, t.status, t.isListed)
      .where(sql.raw(BROWSABLE_SQL)),
    // The same three orders within each (category, pattern length) bucket: category and character-count
    // filters correlate with every sort (longer patterns are rarer and pricier), so filtered searches merge
    // per-bucket ranges instead of skipping through the global order (search.ts bucketPage).
    index("addresses_search_len_rarity").on(t.category, t.patternLength, t.rarityScore, t.id, t.network, t.status, t.isListed).where(sql.raw(BROWSABLE_SQL)),
    index("addresses_search_len_created").on(t.category, t.patternLength, t.createdAt, t.id, t.network, t.status, t.isListed).where(sql.raw(BROWSABLE_SQL)),
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
    // A common pattern (tens of thousands of matches) is walked in sort order instead of sorted: its matches all
    // share the key's first character, so these hold each order inside every first character, with the
    // filters and the whole key to check the rest of the pattern in the index (search-sql.ts patternWalkPage).
    ...(["search_key", "search_key_rev"] as const).flatMap((key) => {
      const end = key === "search_key" ? "start" : "end";
      const [keyCol, start] = key === "search_key" ? [t.searchKey, t.searchKeyStart] : [t.searchKeyRev, t.searchKeyRevStart];
      const filters = [t.network, t.category, t.patternLength, t.status, t.isListed, keyCol] as const;
      return [
        index(`addresses_search_${end}_rarity`)
          .on(start, t.rarityScore, t.id, ...filters)
          .where(sql.raw(BROWSABLE_SQL)),
        index(`addresses_search_${end}_created`)
          .on(start, t.createdAt, t.id, ...filters)
          .where(sql.raw(BROWSABLE_SQL)),
        index(`addresses_search_${end}_price`)
          .on(start, t.network, t.currency, t.priceUnits, t.id, t.category, t.patternLength, t.status, t.isListed, keyCol)
          .where(sql.raw(BROWSABLE_SQL)),
      ];
    }),
    // Browsing: the public marketplace reads listed rows ordered by rarity, price or age.
    index("addresses_browse_rarity").on(t.status, t.isListed, t.rarityScore),
    index("addresses_browse_price").on(t.status, t.isListed, t.priceUnits),
    index("addresses_browse_created").on(t.status, t.isListed, t.createdAt),
    index("addresses_network").on(t.network),
    index("addresses_category").on(t.category),
    index("addresses_seller").on(t.sellerId),
    index("addresses_featured").on(t.isFeatured, t.status),
    // Rows still on an old scale: tiny once the rescoring job has run, so each cron tick finds them at once.
    index("addresses_rarity_scale_pending")
      .on(t.id)
      .where(sql`rarity_scale < ${sql.raw(String(RARITY_SCALE))}`),
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

// One counter, bumped by triggers on addresses and transactions (migrations/0010_listings_version.sql) on every
// change: the edge cache keys anonymous browse answers by it, so a change makes every old answer unreachable.
export const listingsVersion = sqliteTable("listings_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
});

// One encrypted private key per listing (docs/key-custody.md: envelope encryption, encrypt-then-MAC).
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

/**
 * Each sealed intake row that became a listing (docs/key-custody.md#sealed-intake), by its HPKE `enc`: the
 * sender's one-time public key, fresh for every seal. The primary key refuses the same sealed row a second
 * time, even after its listing's key was destroyed; it is written in the listing's own batch.
 */
export const sealedIntake = sqliteTable("sealed_intake", {
  enc: text("enc").primaryKey(),
  keyId: text("key_id").notNull(),
  addressId: integer("address_id")
    .notNull()
    .references(() => addresses.id),
  createdAt: createdAt(),
});

export const priceHistory = sqliteTable(
  "price_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    addressId: integer("address_id")
      .notNull()
      .references(() => addresses.id),
    price: text("price").notNull(),
    currency: text("currency").$type<"ETH" | "SOL">().notNull(),
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
  (t) => [index("listing_promotions_address").on(t.addressId), index("listing_promotions_start").on(t.startTime, t.promotionType)],
);

export type Listing = typeof addresses.$inferSelect;
export type NewListing = typeof addresses.$inferInsert;
export type EncryptedKey = typeof encryptedKeys.$inferSelect;
