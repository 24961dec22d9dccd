// The bulk import: rows in the CSV's shape (address, private_key, platform, pattern_type, pattern_matched)
// become listings, each checked on its own so a bad row never stops the good ones. Used by
// POST /api/admin/addresses/bulk and by the seed step (scripts/seed.ts) for the demo listings.
//
// Per row, in order: the five fields present and sane; 8+ matched characters skipped; the
// platform; pattern_type a plain word; the address valid for its network; pattern_matched really the
// address's own start and/or end (so a cell like "=cmd|' /C calc'!A0" is refused, not stored); not listed
// already, nor earlier in the same upload; the key derives the address; a pattern worth listing, unless the
// upload confirms it lists plain addresses. Then the price (the spec's table by matched length, or the estimated
// value the listing's page will show), the spec's rarity table (schema/bulk-pricing.ts), the rarity engine's
// category and pattern fields, sealing and the batched insert (store.ts). Re-importing the same rows only
// reports duplicates.
import { sql } from "drizzle-orm";
import { validateAddress } from "../../schema/address";
import { addresses, type Network } from "../../schema/db";
import {
  BULK_CSV_COLUMNS,
  BULK_MAX_ROWS,
  BULK_MESSAGES,
  type BulkAppraisal,
  type BulkRowReason,
  type BulkRowResult,
  type PromotionType,
} from "../../schema/listings";
import type { Db } from "../db/database";
import { bulkPrice, bulkRarity } from "../../schema/bulk-pricing";
import { checkPrice } from "../../schema/money";
import { type BulkPricing, NO_PATTERN_MESSAGE } from "../../schema/price-advice";
import { proveOwnership } from "../domain/ownership";
import { CONTROL_CHARACTER } from "../http/validate";
import { analyzeAddress, estimateValue, type RarityAnalysis } from "../domain/rarity";
import { NOTABLE_LOG2 } from "../domain/rarity/analyze";
import type { VaultEnv } from "../vault";
import { valueCalibration } from "./address-check";
import { claimedSplit, withClaimedDifficulty, withClaimedPattern } from "./claimed-pattern";
import { rarityString } from "./listing-view";
import { DuplicateAddressError, type IntakeReceipt, type ListingDraft, storeListings } from "./store";
import { currencyOf } from "../../schema/network";
import { type ListingStatus, listingTo } from "../../schema/listing-lifecycle";

/** Longest cell accepted per column (a JSON byte-array key is the longest real value, about 300 characters). */
const MAX_CELL: Record<(typeof BULK_CSV_COLUMNS)[number], number> = {
  address: 128,
  private_key: 1024,
  platform: 32,
  pattern_type: 32,
  pattern_matched: 64,
};
const PATTERN_TYPE_RE = /^[A-Za-z0-9][A-Za-z0-9 +_-]*$/;
/** Address characters only (base58 and hex are both alphanumeric): anything else cannot be a match. */
const MATCHED_RE = /^[A-Za-z0-9]+$/;
const MATCHED_MESSAGE = "pattern_matched must be the characters the address starts and/or ends with";
const PLATFORMS: Record<string, Network> = { ethereum: "ethereum", eth: "ethereum", solana: "solana", sol: "solana" };

/** What the seed may change about a row before it is stored (the endpoint changes nothing). */
/** `refuse`: the row is refused with this message (reason "off-target"), nothing stored: a supply claim's rows must fit its target. */
export type RowDecoration = { price?: string; createdAt?: number; promotionType?: PromotionType; featuredUntil?: number | null; refuse?: string };

export type ImportOptions = {
  /**
   * "table" (the default, and what the bulk endpoint uses): the spec's rarity by matched length, as
   * docs/rarity.md says for bulk uploads. "engine": the rarity engine's score (the seed's demo listings use it, so the
   * demo shows the same scores the checker gives).
   */
  rarity?: "table" | "engine";
  /**
   * "skip" (the default, and what the bulk endpoint uses): rows matching 8+ characters are refused as the spec
   * says. "keep": the seed keeps its mirrored (palindrome) demo rows, which match 8 characters by nature
   * (4 at each end); it prices every demo row itself and scores it with the engine, so the 8+ table is moot.
   */
  longPatterns?: "skip" | "keep";
  /** The sealed intake row each row came from (by its index in `rows`), stored with its listing. */
  intake?: (index: number) => IntakeReceipt | undefined;
  /**
   * "table" (the default): the spec's price by matched length. "estimate": the estimated value the listing's
   * page shows (docs/listings.md#prices-an-operator-can-trust). A decoration's price overrides either.
   */
  pricing?: BulkPricing;
  /**
   * Rows whose address shows no notable pattern (under 1 in 2^11.5 random addresses, counting the claimed
   * characters) are refused unless this is true: the operator confirmed listing plain addresses.
   */
  confirmNoPattern?: boolean;
  decorate?: (row: { index: number; address: string; network: Network; analysis: RarityAnalysis; matchedLength: number }) => RowDecoration | undefined;
  now?: number;
};

/** `prefixLength`: how many matched characters the address starts with (the rest it ends with). */
type Candidate = { index: number; network: Network; address: string; key: string; matched: string; prefixLength: number };
type Outcome = BulkRowResult;
type Failure = Extract<BulkRowResult, { status: "error" }>;

const fail = (index: number, reason: BulkRowReason, message: string): Failure => ({ index, status: "error", reason, message });

/** Checks one row's cells; a Candidate when it may go on to the duplicate and ownership checks. */
function readRow(index: number, input: unknown, options: ImportOptions, needKey = true): Candidate | Failure {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return fail(index, "missing-fields", BULK_MESSAGES.missingFields);
  const row = input as Record<string, unknown>;
  const cells = {} as Record<(typeof BULK_CSV_COLUMNS)[number], string>;
  for (const column of BULK_CSV_COLUMNS) {
    if (column === "private_key" && !needKey) continue;
    const value = row[column];
    if (value === undefined || value === null || (typeof value === "string" && value.trim() === ""))
      return fail(index, "missing-fields", BULK_MESSAGES.missingFields);
    if (typeof value !== "string") return fail(index, "invalid-field", `${column} must be text`);
    if (value.length > MAX_CELL[column]) return fail(index, "invalid-field", `${column} is too long (at most ${MAX_CELL[column]} characters)`);
    if (CONTROL_CHARACTER.test(value.trim())) return fail(index, "invalid-field", `${column} must not contain control characters`);
    cells[column] = value.trim();
  }
  if (!MATCHED_RE.test(cells.pattern_matched)) return fail(index, "invalid-pattern", MATCHED_MESSAGE);
  if (options.longPatterns !== "keep" && cells.pattern_matched.replace(/^0x/i, "").length >= 8) return fail(index, "skipped", BULK_MESSAGES.skipped8);
  const network = PLATFORMS[cells.platform.toLowerCase()];
  if (!network) return fail(index, "invalid-platform", "platform must be ethereum or solana");
  if (!PATTERN_TYPE_RE.test(cells.pattern_type)) {
    return fail(index, "invalid-pattern", "pattern_type must be a plain word such as prefix, suffix or prefix+suffix");
  }
  const checked = validateAddress(cells.address, network);
  if (!checked.isValid) return fail(index, "invalid-address", checked.message);
  const matched = network === "ethereum" ? cells.pattern_matched.replace(/^0x/i, "") : cells.pattern_matched;
  const prefixLength = claimedSplit(checked.normalized, network, matched, /^suffix$/i.test(cells.pattern_type));
  if (prefixLength === null) return fail(index, "invalid-pattern", MATCHED_MESSAGE);
  return { index, network, address: checked.normalized, key: cells.private_key ?? "", matched, prefixLength };
}

const addressKey = (network: Network, address: string) => (network === "ethereum" ? address.toLowerCase() : address);

/**
 * Which of the candidates are listed already (any status: a deleted listing still owns its address), keyed
 * by addressKey. Listings store the EIP-55 form; the all-lower-case form is looked up too, in case a row was
 * ever written without normalizing. Both are exact lookups on the unique index.
 */
export async function listedAlready(db: Db, candidates: { network: Network; address: string }[]): Promise<Map<string, { id: number; status: ListingStatus }>> {
  const found = new Map<string, { id: number; status: ListingStatus }>();
  if (candidates.length === 0) return found;
  const forms = candidates.flatMap((c) => (c.network === "ethereum" ? [c.address, c.address.toLowerCase()] : [c.address]));
  const a = addresses;
  const rows = await db
    .select({ id: a.id, address: a.address, network: a.network, status: a.status })
    .from(a)
    .where(sql`${a.address} IN (SELECT value FROM json_each(${JSON.stringify(forms)}))`);
  for (const r of rows) found.set(addressKey(r.network, r.address), { id: r.id, status: r.status });
  return found;
}

/** The multiplier of estimated values per listing kind, read once per kind and upload chunk. */
type Calibrations = (network: Network, category: string, patternLength: number) => Promise<number>;

function calibrations(db: Db): Calibrations {
  const seen = new Map<string, Promise<number>>();
  return (network, category, patternLength) => {
    const key = `${network}|${category}|${patternLength}`;
    let m = seen.get(key);
    if (!m) {
      m = valueCalibration(db, network, category, patternLength).then((c) => c.multiplier);
      seen.set(key, m);
    }
    return m;
  };
}

/**
 * What the store knows about a row before it is listed: the analysis it is stored with (the claimed pattern and,
 * for the bulk endpoint, the claimed difficulty where the engine saw less), whether that is a notable pattern, and
 * the estimated value its listing page will show.
 */
export async function rowAppraisal(
  c: { network: Network; address: string; matched: string; prefixLength: number },
  options: ImportOptions,
  calibrate: Calibrations,
): Promise<{ analysis: RarityAnalysis; notable: boolean; estimate: string; tablePrice: string | null }> {
  const claimed = withClaimedPattern(analyzeAddress(c.address, c.network), c.address, c.network, c.matched.length, c.prefixLength);
  const worked = withClaimedDifficulty(claimed, c.network, c.matched, c.prefixLength);
  // The seed stores its demo rows with the engine's figures alone; the endpoint counts the work the claim took.
  const analysis = options.rarity === "engine" ? claimed : worked;
  const multiplier = await calibrate(c.network, analysis.category, analysis.patternLength);
  return {
    analysis,
    notable: worked.difficulty.log2 >= NOTABLE_LOG2,
    estimate: estimateValue(analysis.difficulty.log2, c.network, multiplier),
    tablePrice: bulkPrice(c.matched.length),
  };
}

async function draftFor(
  c: Candidate,
  sellerId: number,
  privateKey: string,
  options: ImportOptions,
  now: number,
  calibrate: Calibrations,
): Promise<ListingDraft | Failure> {
  const { analysis, notable, estimate, tablePrice } = await rowAppraisal(c, options, calibrate);
  if (!notable && options.confirmNoPattern !== true) return fail(c.index, "no-pattern", NO_PATTERN_MESSAGE);
  const currency = currencyOf(c.network);
  const decoration = options.decorate?.({ index: c.index, address: c.address, network: c.network, analysis, matchedLength: c.matched.length }) ?? {};
  if (decoration.refuse !== undefined) return fail(c.index, "off-target", decoration.refuse);
  const price = checkPrice(decoration.price ?? (options.pricing === "estimate" ? estimate : tablePrice));
  if (!price.ok) return fail(c.index, "invalid-field", price.message);
  const promotionType = decoration.promotionType ?? "standard";
  return {
    address: c.address,
    network: c.network,
    sellerId,
    price: price.price,
    priceUnits: price.units,
    currency,
    rarityScore: options.rarity === "engine" ? analysis.rarityScore : bulkRarity(c.matched.length),
    analysis,
    isListed: true,
    status: listingTo("list"),
    promotionType,
    isFeatured: promotionType !== "standard",
    featuredUntil: promotionType !== "standard" ? (decoration.featuredUntil ?? null) : null,
    createdAt: decoration.createdAt ?? now,
    privateKey,
    intake: options.intake?.(c.index),
  };
}

/**
 * The bulk preview's figures for rows sent without their keys (POST /api/admin/addresses/bulk/appraise): per row
 * the price each pricing would give, the estimated value its page will show and whether its pattern is notable,
 * or why the upload would refuse it. Nothing is stored and no key is asked for.
 */
export async function appraiseRows(db: Db, rows: unknown[]): Promise<BulkAppraisal[]> {
  const calibrate = calibrations(db);
  return Promise.all(
    rows.map(async (input, index): Promise<BulkAppraisal> => {
      const c = readRow(index, input, {}, false);
      if ("reason" in c) return c;
      const { analysis, notable, estimate, tablePrice } = await rowAppraisal(c, {}, calibrate);
      return {
        index,
        status: "ok",
        currency: currencyOf(c.network),
        tablePrice,
        estimatedValue: estimate,
        notable,
        pattern: analysis.pattern,
        tableRarity: rarityString(bulkRarity(c.matched.length)),
      };
    }),
  );
}

/** Imports at most BULK_MAX_ROWS rows in one batch; see importListings. */
async function importChunk(db: Db, env: VaultEnv, sellerId: number, rows: unknown[], offset: number, options: ImportOptions): Promise<Outcome[]> {
  const now = options.now ?? Date.now();
  const calibrate = calibrations(db);
  const outcomes: Outcome[] = [];
  let pending: Candidate[] = [];
  const firstSeen = new Map<string, number>();
  rows.forEach((input, i) => {
    const r = readRow(offset + i, input, options);
    if ("reason" in r) return void outcomes.push(r);
    const key = addressKey(r.network, r.address);
    const earlier = firstSeen.get(key);
    if (earlier !== undefined) return void outcomes.push(fail(r.index, "duplicate", `Duplicate of row ${earlier + 1} in this upload`));
    firstSeen.set(key, r.index);
    pending.push(r);
  });

  // A race with another upload can list an address between our check and our batch; the unique index then
  // refuses the whole batch, and we check again. Three rounds settle any realistic race.
  for (let round = 0; round < 3 && pending.length > 0; round++) {
    const listed = await listedAlready(db, pending);
    const drafts: ListingDraft[] = [];
    const draftRows: Candidate[] = [];
    for (const c of pending) {
      const existing = listed.get(addressKey(c.network, c.address));
      if (existing) {
        outcomes.push(fail(c.index, "duplicate", `Already listed (listing #${existing.id}${existing.status === listingTo("delete") ? ", deleted" : ""})`));
        continue;
      }
      const proof = proveOwnership(c.network, c.address, c.key);
      if (!proof.verified) {
        outcomes.push(fail(c.index, proof.reason, proof.error));
        continue;
      }
      const draft = await draftFor(c, sellerId, proof.privateKey, options, now, calibrate);
      if ("reason" in draft) outcomes.push(draft);
      else {
        drafts.push(draft);
        draftRows.push(c);
      }
    }
    try {
      const ids = await storeListings(db, env, drafts);
      ids.forEach((id, i) => {
        const d = drafts[i];
        outcomes.push({
          index: draftRows[i].index,
          status: "success",
          id,
          address: d.address,
          price: d.price,
          currency: d.currency,
          rarityScore: rarityString(d.rarityScore),
        });
      });
      pending = [];
    } catch (err) {
      if (!(err instanceof DuplicateAddressError)) throw err;
      pending = draftRows;
    }
  }
  for (const c of pending) outcomes.push(fail(c.index, "duplicate", "Already listed"));
  return outcomes;
}

/**
 * Imports bulk rows as listings of `sellerId` and returns one result per row (index = position in `rows`),
 * in order. Rows are stored in batches of BULK_MAX_ROWS, each atomic with its keys.
 */
export async function importListings(db: Db, env: VaultEnv, sellerId: number, rows: unknown[], options: ImportOptions = {}): Promise<BulkRowResult[]> {
  const results: Outcome[] = [];
  for (let start = 0; start < rows.length; start += BULK_MAX_ROWS) {
    results.push(...(await importChunk(db, env, sellerId, rows.slice(start, start + BULK_MAX_ROWS), start, options)));
  }
  return results.sort((a, b) => a.index - b.index);
}
