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
import { type Column, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { addresses, encryptedKeys, listingPromotions, type Network, priceHistory, sealedIntake } from "../../schema/db";
import type { PromotionType } from "../../schema/listings";
import { columnList, type Db, writeBatch } from "../db/database";
import { unitsToNumber } from "../../schema/money";
import type { RarityAnalysis } from "../domain/rarity";
import { sealingKey, sealKey, type VaultEnv } from "../vault";
import type { ChangeableStatus } from "../../schema/listing-lifecycle";

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
  status: ChangeableStatus;
  promotionType: PromotionType;
  isFeatured: boolean;
  featuredUntil: number | null;
  createdAt: number;
  /** The canonical private key (ownership.ts normalizePrivateKey); sealed here, never stored in clear. */
  privateKey: string;
  /** The sealed intake row it came from: remembered in the same batch, so that row is never taken twice. */
  intake?: IntakeReceipt;
};

/** A sealed intake row's HPKE enc (its one-time id) and the intake key it was sealed to. */
export type IntakeReceipt = { enc: string; keyId: string };

/** Sort weight of each promotion type (featured lists order by it). */
export const PROMOTION_WEIGHT: Record<PromotionType, number> = { standard: 0, featured: 1, promoted: 2 };

/** An address in the drafts is already listed (found by the unique index inside the batch). */
export class DuplicateAddressError extends Error {
  override name = "DuplicateAddressError";
}

const ATTEMPTS = 5;
/** Sealing is Web Crypto work; this many run at once. */
const SEAL_CONCURRENCY = 64;

const a = addresses;
const k = encryptedKeys;
const h = priceHistory;
const lp = listingPromotions;
/** Each column of addresses a listing insert writes, with the field of listingRow() that holds its value. */
const LISTING_FIELDS: [Column, keyof ReturnType<typeof listingRow>][] = [
  [a.id, "id"],
  [a.address, "address"],
  [a.network, "network"],
  [a.sellerId, "sellerId"],
  [a.price, "price"],
  [a.priceUnits, "priceUnits"],
  [a.currency, "currency"],
  [a.rarityScore, "rarityScore"],
  [a.difficultyLog2, "difficultyLog2"],
  [a.category, "category"],
  [a.pattern, "pattern"],
  [a.isListed, "isListed"],
  [a.status, "status"],
  [a.isFeatured, "isFeatured"],
  [a.featuredUntil, "featuredUntil"],
  [a.isPromoted, "isPromoted"],
  [a.promotionType, "promotionType"],
  [a.promotionWeight, "promotionWeight"],
  [a.patternLength, "patternLength"],
  [a.repeatingDigits, "repeatingDigits"],
  [a.hasLeadingZeros, "hasLeadingZeros"],
  [a.leadingZeroCount, "leadingZeroCount"],
  [a.hasTrailingZeros, "hasTrailingZeros"],
  [a.trailingZeroCount, "trailingZeroCount"],
  [a.hasPalindrome, "hasPalindrome"],
  [a.hasSequence, "hasSequence"],
  [a.hasWordPattern, "hasWordPattern"],
  [a.caseSensitivePattern, "caseSensitivePattern"],
  [a.createdAt, "createdAt"],
  [a.updatedAt, "createdAt"],
];

// Each table is one statement over a JSON array (json_each), whatever the number of rows: D1 allows at most
// 100 bound parameters per statement, and one statement per table keeps a 500-row chunk a 4-statement batch.
const field = (key: string) => sql`json_extract(value, ${sql.raw(`'$.${key}'`)})`;
/** INSERT INTO table (columns) SELECT (each value: a field of the row, or SQL) FROM json_each(rows). */
function insertRows(table: SQLiteTable, values: [Column, string | SQL][], rows: unknown[]): SQL {
  const selected = values.map(([, v]) => (typeof v === "string" ? field(v) : v));
  return sql`INSERT INTO ${table} ${columnList(...values.map(([c]) => c))}
    SELECT ${sql.join(selected, sql`, `)} FROM json_each(${JSON.stringify(rows)})`;
}
const insertListings = (rows: ReturnType<typeof listingRow>[]) => insertRows(a, LISTING_FIELDS, rows);
const insertKeys = (keys: unknown[]) =>
  insertRows(
    k,
    [
      [k.addressId, "id"],
      [k.encryptedPrivateKey, "encryptedPrivateKey"],
      [k.salt, "salt"],
      [k.iv, "iv"],
      [k.wrappedKey, "wrappedKey"],
      [k.mac, "mac"],
      [k.keyVersion, "keyVersion"],
      [k.createdAt, "createdAt"],
      [k.updatedAt, "createdAt"],
    ],
    keys,
  );
const insertHistory = (rows: ReturnType<typeof listingRow>[]) =>
  insertRows(
    h,
    [
      [h.addressId, "id"],
      [h.price, "price"],
      [h.currency, "currency"],
      [h.changeType, sql`'listed'`],
      [h.createdAt, "createdAt"],
    ],
    rows,
  );
const insertPromotions = (rows: ReturnType<typeof listingRow>[]) =>
  insertRows(
    lp,
    [
      [lp.addressId, "id"],
      [lp.promotionType, "promotionType"],
      [lp.price, sql`'0'`],
      [lp.currency, "currency"],
      [lp.startTime, "createdAt"],
      [lp.endTime, "featuredUntil"],
      [lp.isActive, sql`1`],
      [lp.purchasedBy, "sellerId"],
    ],
    rows,
  );

const insertIntake = (rows: { id: number; enc: string; keyId: string; createdAt: number }[]) =>
  insertRows(
    sealedIntake,
    [
      [sealedIntake.enc, "enc"],
      [sealedIntake.keyId, "keyId"],
      [sealedIntake.addressId, "id"],
      [sealedIntake.createdAt, "createdAt"],
    ],
    rows,
  );

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
// A sealed row taken by a concurrent upload (its enc already remembered) counts as its address being listed: the
// caller re-checks, and the row is refused either way.
const isAddressCollision = (err: unknown) => err instanceof Error && /UNIQUE constraint failed: (addresses\.address|sealed_intake\.enc)/i.test(err.message);

/**
 * Inserts the drafts (all or none) and returns their ids in order. Throws DuplicateAddressError when one
 * of the addresses turned out to be listed already (the caller re-checks which and retries the rest).
 */
export async function storeListings(db: Db, env: VaultEnv, drafts: ListingDraft[]): Promise<number[]> {
  if (drafts.length === 0) return [];
  for (let attempt = 1; ; attempt++) {
    const next = await db
      .select({ id: sql<number>`coalesce(max(${a.id}), 0) + 1` })
      .from(a)
      .get();
    const firstId = next!.id;
    const ids = drafts.map((_, i) => firstId + i);
    const keys = await sealAll(env, firstId, drafts);
    const rows = drafts.map((d, i) => listingRow(ids[i], d));
    const promoted = rows.filter((r) => r.promotionType !== "standard");
    const statements = [insertListings(rows), insertKeys(keys), insertHistory(rows)];
    if (promoted.length > 0) statements.push(insertPromotions(promoted));
    const received = drafts.flatMap((d, i) => (d.intake ? [{ id: ids[i], enc: d.intake.enc, keyId: d.intake.keyId, createdAt: d.createdAt }] : []));
    if (received.length > 0) statements.push(insertIntake(received));
    try {
      await writeBatch(db, statements);
      return ids;
    } catch (err) {
      if (isAddressCollision(err)) throw new DuplicateAddressError("an address is already listed");
      if (!isIdCollision(err) || attempt >= ATTEMPTS) throw err;
      // Another writer took these ids first: pick again (and re-seal: the MAC covers the id).
    }
  }
}
