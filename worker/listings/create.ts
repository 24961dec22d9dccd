// POST /api/addresses: the spec's create-listing payload checked and
// turned into a listing draft. The server decides everything it can: the address's normalized form, the
// rarity, category and pattern fields (the client's are ignored), the seller (the signed-in admin), and
// whether the key really derives the address. Only then is anything stored.
import * as v from "valibot";
import { NETWORKS, PROMOTION_TYPES } from "../../schema/db";
import { OWNERSHIP_MESSAGES } from "../../schema/listings";
import { checkPrice } from "../../schema/money";
import { MAX_PRIVATE_KEY_LENGTH, proveOwnership } from "../domain/ownership";
import { NO_PATTERN_MESSAGE } from "../../schema/price-advice";
import { analyzeAddress } from "../domain/rarity";
import { NOTABLE_LOG2 } from "../domain/rarity/analyze";
import { ApiError } from "../http/errors";
import { bodyMessage } from "../http/params";
import { noControlCharacters } from "../http/validate";
import type { VaultEnv } from "../vault/keyring";
import type { Db } from "../db/database";
import { listedAlready } from "./import";
import { DuplicateAddressError, type ListingDraft, storeListings } from "./store";
import { currencyOf } from "../../schema/network";
import { LISTING_CHANGEABLE, listingTo } from "../../schema/listing-lifecycle";

/** Longest a featured period set at creation may run. */
export const MAX_FEATURED_MS = 366 * 24 * 60 * 60 * 1000;

const ignored = v.optional(v.unknown());

export const createListingBody = v.object(
  {
    address: v.pipe(
      v.string("address must be a string"),
      v.maxLength(256, "address must be at most 256 characters"),
      noControlCharacters("address"),
      v.trim(),
      v.minLength(1, "address is required"),
    ),
    network: v.picklist(NETWORKS, "network must be ethereum or solana"),
    // Checked by checkPrice, so the messages are exactly the spec's.
    price: v.optional(v.unknown()),
    currency: v.optional(v.picklist(["ETH", "SOL"], "currency must be ETH or SOL")),
    privateKey: v.optional(v.unknown()),
    promotionType: v.optional(v.picklist(PROMOTION_TYPES, "promotionType must be standard, featured or promoted"), "standard"),
    isFeatured: v.optional(v.boolean("isFeatured must be true or false")),
    featuredUntil: v.optional(
      v.nullable(v.union([v.pipe(v.string(), v.maxLength(64)), v.number()], "featuredUntil must be a date (ISO 8601 text or milliseconds)")),
    ),
    isListed: v.optional(v.boolean("isListed must be true or false"), true),
    status: v.optional(v.picklist(LISTING_CHANGEABLE, `status must be ${LISTING_CHANGEABLE.join(" or ")}`), listingTo("list")),
    // An address with no notable pattern is listed only when the admin confirmed it (the form's checkbox).
    confirmNoPattern: v.optional(v.boolean("confirmNoPattern must be true or false"), false),
    // Sent by the spec's client but decided here: the seller is the session's user, rarity is computed.
    sellerId: ignored,
    rarityScore: ignored,
    category: ignored,
    pattern: ignored,
  },
  bodyMessage,
);

export type CreateListingBody = v.InferOutput<typeof createListingBody>;

function featuredUntil(input: string | number | null | undefined, now: number): number | null {
  if (input === undefined || input === null || input === "") return null;
  const ms = typeof input === "number" ? input : Date.parse(input);
  if (!Number.isFinite(ms) || !Number.isInteger(ms)) throw new ApiError(400, "featuredUntil must be a date (ISO 8601 text or milliseconds)");
  if (ms <= now) throw new ApiError(400, "featuredUntil must be in the future");
  if (ms > now + MAX_FEATURED_MS) throw new ApiError(400, "featuredUntil must be within a year");
  return ms;
}

/** The checked draft of a new listing by `sellerId`, or a 400 saying what is wrong. */
export function draftFromPayload(body: CreateListingBody, sellerId: number, now: number): ListingDraft {
  const price = checkPrice(body.price);
  if (!price.ok) throw new ApiError(400, price.message);
  const key = body.privateKey;
  if (key === undefined || key === null || (typeof key === "string" && key.trim() === "")) throw new ApiError(400, OWNERSHIP_MESSAGES.keyRequired);
  if (typeof key !== "string") throw new ApiError(400, "privateKey must be a string");
  if (key.length > MAX_PRIVATE_KEY_LENGTH) throw new ApiError(400, `privateKey must be at most ${MAX_PRIVATE_KEY_LENGTH} characters`);

  const currency = currencyOf(body.network);
  if (body.currency !== undefined && body.currency !== currency) throw new ApiError(400, `Currency must be ${currency} for ${body.network} listings`);

  const promotionType = body.promotionType;
  if (promotionType === "standard" && body.isFeatured === true) throw new ApiError(400, "isFeatured can only be true for a featured or promoted listing");
  if (promotionType === "featured" && body.isFeatured === false) throw new ApiError(400, "A featured listing has isFeatured true");
  const until = featuredUntil(body.featuredUntil, now);
  if (until !== null && promotionType === "standard") throw new ApiError(400, "featuredUntil needs a featured or promoted listing");

  const proof = proveOwnership(body.network, body.address, key);
  if (!proof.verified) throw new ApiError(400, proof.error, { reason: proof.reason });

  const analysis = analyzeAddress(proof.address, body.network);
  if (analysis.difficulty.log2 < NOTABLE_LOG2 && !body.confirmNoPattern) throw new ApiError(400, NO_PATTERN_MESSAGE, { reason: "no-pattern" });
  return {
    address: proof.address,
    network: body.network,
    sellerId,
    price: price.price,
    priceUnits: price.units,
    currency,
    rarityScore: analysis.rarityScore,
    analysis,
    isListed: body.isListed,
    status: body.status,
    promotionType,
    // Promoted is the stronger promotion and is featured unless the admin says otherwise.
    isFeatured: promotionType === "standard" ? false : (body.isFeatured ?? true),
    featuredUntil: until,
    createdAt: now,
    privateKey: proof.privateKey,
  };
}

const duplicate = (address: string) => new ApiError(409, `${address} is already listed`);

/** Creates the listing the payload describes for `sellerId`; its id. 409 when the address is listed already. */
export async function createListing(db: Db, env: VaultEnv, sellerId: number, body: CreateListingBody, now = Date.now()): Promise<number> {
  const draft = draftFromPayload(body, sellerId, now);
  if ((await listedAlready(db, [draft])).size > 0) throw duplicate(draft.address);
  try {
    const [id] = await storeListings(db, env, [draft]);
    return id;
  } catch (err) {
    // Listed by someone else between our check and our insert: the unique index refused it.
    if (err instanceof DuplicateAddressError) throw duplicate(draft.address);
    throw err;
  }
}
