// Writing new listings: each listing row, its sealed private key, its first price_history row ("listed")
// and, when promoted, its listing_promotions row go in ONE D1 batch, so a listing never exists without its
// key and a key never without its listing. Used by POST /api/addresses (one listing) and by the bulk import
// (up to a chunk of listings per batch).
//
// Why ids are chosen before the batch: the vault's MAC binds each sealed key to its listing id (a record
// moved to another row fails to open), so the id must be known before sealing, and therefore before the
// insert. We take MAX(id) + 1 onwards and insert with explicit ids. Two writers that pick the same ids at
// the same moment collide on the primary key; D1 rolls that whole batch back and we pick again and re-seal.
// Listings are never hard-deleted (deletion is a status), so an id is never handed out twice.
import type { Network } from "../../schema/db";
import type { PromotionType } from "../../schema/listings";
import type { Db } from "../db";
import { unitsToNumber } from "../../schema/money";
import type { RarityAnalysis } from "../domain/rarity";
import { sealingKey, sealKey, type VaultEnv } from "../vault";

/** Everything a new listing needs except its id; every field already validated and normalized. */
export type ListingDraft = {
  address: string;
  network: Network;
  sellerId: number;
  price: string;
  priceUnits: bigint;
  currency: "ETH" | "SOL";
  rarityScore: number;
  analysis: RarityAnalysis;
  isListed: boolean;
  status: "active" | "inactive";
  promotionType: PromotionType;
  isFeatured: boolean;
  featuredUntil: number | null;
  createdAt: number;
  /** The canonical private key (ownership.ts normalizePrivateKey); sealed here, never stored in clear. */
  privateKey: string;
};

/** Sort weight of each promotion type (featured lists order by it). */
export const PROMOTION_WEIGHT: Record<PromotionType, number> = { standard: 0, featured: 1, promoted: 2 };

/** An address in the drafts is already listed (found by the unique index inside the batch). */
export class DuplicateAddressError extends Error {
  override name = "DuplicateAddressError";
}

const ATTEMPTS = 5;
/** Sealing is Web Crypto work; this many run at once. */
const SEAL_CONCURRENCY = 64;

const LISTING_FIELDS = [
  ["id", "id"],
  ["address", "address"],
  ["network", "network"],
  ["seller_id", "sellerId"],
  ["price", "price"],
  ["price_units", "priceUnits"],
  ["currency", "currency"],
  ["rarity_score", "rarityScore"],
  ["difficulty_log2", "difficultyLog2"],
  ["category", "category"],
  ["pattern", "pattern"],
  ["is_listed", "isListed"],
  ["status", "status"],
  ["is_featured", "isFeatured"],
  ["featured_until", "featuredUntil"],
  ["is_promoted", "isPromoted"],
  ["promotion_type", "promotionType"],
  ["promotion_weight", "promotionWeight"],
  ["pattern_length", "patternLength"],
  ["repeating_digits", "repeatingDigits"],
  ["has_leading_zeros", "hasLeadingZeros"],
  ["leading_zero_count", "leadingZeroCount"],
  ["has_trailing_zeros", "hasTrailingZeros"],
  ["trailing_zero_count", "trailingZeroCount"],
  ["has_palindrome", "hasPalindrome"],
  ["has_sequence", "hasSequence"],
  ["has_word_pattern", "hasWordPattern"],
  ["case_sensitive_pattern", "caseSensitivePattern"],
  ["created_at", "createdAt"],
  ["updated_at", "createdAt"],
] as const;

// Each table is one statement over a JSON array (json_each), whatever the number of rows: D1 allows at most
// 100 bound parameters per statement, and one statement per table keeps a 500-row chunk a 4-statement batch.
const col = (key: string) => `json_extract(value, '$.${key}')`;
const INSERT_LISTINGS = `INSERT INTO addresses (${LISTING_FIELDS.map(([c]) => c).join(", ")})
  SELECT ${LISTING_FIELDS.map(([, k]) => col(k)).join(", ")} FROM json_each(?1)`;
const INSERT_KEYS = `INSERT INTO encrypted_keys (address_id, encrypted_private_key, salt, iv, wrapped_key, mac, key_version, created_at, updated_at)
  SELECT ${["id", "encryptedPrivateKey", "salt", "iv", "wrappedKey", "mac", "keyVersion", "createdAt", "createdAt"].map(col).join(", ")} FROM json_each(?1)`;
const INSERT_HISTORY = `INSERT INTO price_history (address_id, price, currency, change_type, created_at)
  SELECT ${col("id")}, ${col("price")}, ${col("currency")}, 'listed', ${col("createdAt")} FROM json_each(?1)`;
const INSERT_PROMOTIONS = `INSERT INTO listing_promotions (address_id, promotion_type, price, currency, start_time, end_time, is_active, purchased_by)
  SELECT ${col("id")}, ${col("promotionType")}, '0', ${col("currency")}, ${col("createdAt")}, ${col("featuredUntil")}, 1, ${col("sellerId")}
  FROM json_each(?1)`;

const bit = (b: boolean) => (b ? 1 : 0);

function listingRow(id: number, d: ListingDraft) {
  const a = d.analysis;
  return {
    id,
    address: d.address,
    network: d.network,
    sellerId: d.sellerId,
    price: d.price,
    priceUnits: unitsToNumber(d.priceUnits),
    currency: d.currency,
    rarityScore: d.rarityScore,
    difficultyLog2: a.difficulty.log2,
    category: a.category,
    pattern: a.pattern,
    isListed: bit(d.isListed),
    status: d.status,
    isFeatured: bit(d.isFeatured),
    featuredUntil: d.featuredUntil,
    isPromoted: bit(d.promotionType === "promoted"),
    promotionType: d.promotionType,
    promotionWeight: PROMOTION_WEIGHT[d.promotionType],
    patternLength: a.patternLength,
    repeatingDigits: a.repeatingDigits,
    hasLeadingZeros: bit(a.hasLeadingZeros),
    leadingZeroCount: a.leadingZeroCount,
    hasTrailingZeros: bit(a.hasTrailingZeros),
    trailingZeroCount: a.trailingZeroCount,
    hasPalindrome: bit(a.hasPalindrome),
    hasSequence: bit(a.hasSequence),
    hasWordPattern: bit(a.hasWordPattern),
    caseSensitivePattern: bit(a.caseSensitivePattern),
    createdAt: d.createdAt,
  };
}

async function sealAll(env: VaultEnv, firstId: number, drafts: ListingDraft[]) {
  const { secret, keyVersion } = sealingKey(env);
  const sealed = new Array(drafts.length);
  for (let start = 0; start < drafts.length; start += SEAL_CONCURRENCY) {
    const slice = drafts.slice(start, start + SEAL_CONCURRENCY);
    const records = await Promise.all(
      slice.map((d, i) => sealKey({ secret, keyVersion, listingId: firstId + start + i, address: d.address, privateKey: d.privateKey })),
    );
    records.forEach((r, i) => (sealed[start + i] = { id: firstId + start + i, createdAt: drafts[start + i].createdAt, ...r }));
  }
  return sealed;
}

const isIdCollision = (err: unknown) => err instanceof Error && /UNIQUE constraint failed: addresses\.id|PRIMARY KEY/i.test(err.message);
const isAddressCollision = (err: unknown) => err instanceof Error && /UNIQUE constraint failed: addresses\.address/i.test(err.message);

/**
 * Inserts the drafts (all or none) and returns their ids in order. Throws DuplicateAddressError when one
 * of the addresses turned out to be listed already (the caller re-checks which and retries the rest).
 */
export async function storeListings(db: Db, env: VaultEnv, drafts: ListingDraft[]): Promise<number[]> {
  if (drafts.length === 0) return [];
  const d1 = db.$client;
  for (let attempt = 1; ; attempt++) {
    const next = await d1.prepare("SELECT COALESCE(MAX(id), 0) + 1 AS id FROM addresses").first<{ id: number }>();
    const firstId = next!.id;
    const ids = drafts.map((_, i) => firstId + i);
    const keys = await sealAll(env, firstId, drafts);
    const rows = drafts.map((d, i) => listingRow(ids[i], d));
    const promoted = rows.filter((r) => r.promotionType !== "standard");
    const statements = [
      d1.prepare(INSERT_LISTINGS).bind(JSON.stringify(rows)),
      d1.prepare(INSERT_KEYS).bind(JSON.stringify(keys)),
      d1.prepare(INSERT_HISTORY).bind(JSON.stringify(rows)),
    ];
    if (promoted.length > 0) statements.push(d1.prepare(INSERT_PROMOTIONS).bind(JSON.stringify(promoted)));
    try {
      await d1.batch(statements);
      return ids;
    } catch (err) {
      if (isAddressCollision(err)) throw new DuplicateAddressError("an address is already listed");
      if (!isIdCollision(err) || attempt >= ATTEMPTS) throw err;
      // Another writer took these ids first: pick again (and re-seal: the MAC covers the id).
    }
  }
}
