// /api/addresses: one router for the resource. The address checker, public listing reads,
// verify-ownership, and creating and changing listings:
//   POST|GET /validate              the address checker (public)
//   GET    /search, /featured, /{id} public listing reads
//   GET    /{id}/context            the listing page's explanation of the purchase (public)
//   POST   /verify-ownership        does this key derive this address? (public, rate limited, needs the secrets)
//   POST   /                        create a listing (admins)
//   GET    /user                    the caller's listings ("My Listings"; admin only, as the spec says)
//   PATCH  /{id}                    price, or promotion (owner or admin; LISTING_CHANGE_LIMIT)
//   DELETE /{id}                    soft deletion (owner or admin)
// Who may act comes from the session alone; the x-wallet-address header is checked against it by
// auth/middleware.ts (a disagreeing header is a 403) and authorises nothing. verify-ownership proves knowledge
// of a key only, so it needs no sign-in; it is an oracle anyone can ask, hence the rate limit. Keys are never
// logged, stored by it or echoed.
import { type Context, Hono } from "hono";
import * as v from "valibot";
import { guessNetwork } from "../../schema/address";
import type { SearchResponse } from "../../schema/browse";
import type { ListingContext } from "../../schema/listing-context";
import { NETWORKS, PROMOTION_TYPES } from "../../schema/db";
import {
  LISTING_CHANGE_LIMIT,
  OWNERSHIP_MESSAGES,
  OWNERSHIP_RATE_LIMIT,
  type OwnershipResponse,
  PROFILE_LIST_DEFAULT,
  PROFILE_LIST_MAX,
} from "../../schema/listings";
import { requireAdmin, requireSession } from "../auth/middleware";
import { getUsdPrices } from "../prices/price-feed";
import { requireSecrets } from "../deployment/middleware";
import { MAX_PRIVATE_KEY_LENGTH, verifyOwnership } from "../domain/ownership";
import { ApiError } from "../http/errors";
import { ignoredWalletQuery, queryInt, validId } from "../http/params";
import { limitSignedIn, rateLimit } from "../http/rate-limit";
import { noControlCharacters, validate } from "../http/validate";
import { checkAddress, checkGetQuery, checkPostBody } from "../listings/address-check";
import { changeListing, softDelete } from "../listings/changes";
import { listingContext } from "../listings/context";
import { createListing, createListingBody } from "../listings/create";
import { toListingViews } from "../listings/listing-view";
import { featuredListings, listingById, visibleListing } from "../listings/listings";
import { userListings } from "../listings/profile";
import { searchQuerySchema } from "../listings/search-params";
import { paginate, searchListings } from "../listings/search";
import type { AppEnv } from "../types";
import { listingTo } from "../../schema/listing-lifecycle";

/**
 * The signed-in user's id, or null. Read loosely: the session middleware (worker/auth) sets `session`; the
 * `walletAddress` query parameter or any header never makes anyone an owner.
 */
export function sessionUserId(c: Context<AppEnv>): number | null {
  const session = (c.var as { session?: unknown }).session as { userId?: unknown } | null | undefined;
  const id = session?.userId;
  return typeof id === "number" && Number.isSafeInteger(id) ? id : null;
}

const MAX_ADDRESS_LENGTH = 256;

const ownershipBody = v.object({
  address: v.optional(
    v.pipe(
      v.string("address must be a string"),
      v.maxLength(MAX_ADDRESS_LENGTH, `address must be at most ${MAX_ADDRESS_LENGTH} characters`),
      noControlCharacters("address"),
      v.trim(),
    ),
  ),
  privateKey: v.optional(
    v.pipe(v.string("privateKey must be a string"), v.maxLength(MAX_PRIVATE_KEY_LENGTH, `privateKey must be at most ${MAX_PRIVATE_KEY_LENGTH} characters`)),
  ),
  network: v.optional(v.picklist(NETWORKS, "network must be ethereum or solana")),
});

// Counted after the session and the body are checked, so a refused or malformed call writes no counter row.
const listingChangeLimit = limitSignedIn("listing-changes", LISTING_CHANGE_LIMIT);

const patchBody = v.object({
  // Checked by checkPrice, so the messages are exactly the spec's.
  price: v.optional(v.unknown()),
  promotionType: v.optional(v.picklist(PROMOTION_TYPES, "promotionType must be standard, featured or promoted")),
  isFeatured: v.optional(v.boolean("isFeatured must be true or false")),
});

// The marketplace's network filter; absent: both networks (the home page).
const featuredQuery = v.object({ network: v.optional(v.picklist(NETWORKS, "network must be ethereum or solana")) });

const listQuery = v.object({
  walletAddress: ignoredWalletQuery,
  limit: v.optional(queryInt("limit", 1, PROFILE_LIST_MAX)),
  offset: v.optional(queryInt("offset", 0, 1_000_000)),
});

export const addressRoutes = new Hono<AppEnv>()
  .post("/validate", validate("json", checkPostBody), async (c) => {
    const { address, network } = c.req.valid("json");
    return c.json(await checkAddress(c.var.db, address, network ?? guessNetwork(address)));
  })
  .get("/validate", validate("query", checkGetQuery), async (c) => {
    const { address } = c.req.valid("query");
    return c.json(await checkAddress(c.var.db, address, guessNetwork(address)));
  })
  // ---- listing reads
  .get("/search", validate("query", searchQuerySchema), async (c) => {
    const q = c.req.valid("query");
    const rates = await getUsdPrices(c.env);
    const result = await searchListings(c.var.db, q, rates);
    const viewer = sessionUserId(c);
    return c.json({
      addresses: await toListingViews(c.var.db, result.rows, rates, viewer),
      pagination: paginate(q.offset, q.limit, result.total, result.totalIsExact),
    } satisfies SearchResponse);
  })
  .get("/featured", validate("query", featuredQuery), async (c) => {
    const { network } = c.req.valid("query");
    const [rates, rows] = await Promise.all([getUsdPrices(c.env), featuredListings(c.var.db, Date.now(), network)]);
    const viewer = sessionUserId(c);
    return c.json(await toListingViews(c.var.db, rows, rates, viewer));
  })
  // Every static GET sits above GET /:id: Hono tries routes in the order they are added, and /:id takes any segment.
  .get("/user", requireAdmin, validate("query", listQuery), async (c) => {
    const { limit = PROFILE_LIST_DEFAULT, offset = 0 } = c.req.valid("query");
    const userId = c.var.session.userId;
    const [rates, rows] = await Promise.all([getUsdPrices(c.env), userListings(c.var.db, userId, limit, offset)]);
    return c.json(await toListingViews(c.var.db, rows, rates, userId));
  })
  .get("/:id", validId("listing"), async (c) => {
    const [rates, row] = await Promise.all([getUsdPrices(c.env), visibleListing(c.var.db, c.req.valid("param").id, c.var.session)]);
    if (!row) throw new ApiError(404, "Address not found");
    return c.json((await toListingViews(c.var.db, [row], rates, sessionUserId(c)))[0]);
  })
  // Same visibility as GET /{id} (visibleListing).
  .get("/:id/context", validId("listing"), async (c) => {
    const [rates, row] = await Promise.all([getUsdPrices(c.env), visibleListing(c.var.db, c.req.valid("param").id, c.var.session)]);
    if (!row) throw new ApiError(404, "Address not found");
    return c.json((await listingContext(c.var.db, row, rates, sessionUserId(c))) satisfies ListingContext);
  })
  // ---- ownership proof
  .post(
    "/verify-ownership",
    requireSecrets,
    rateLimit("verify-ownership", OWNERSHIP_RATE_LIMIT.limit, OWNERSHIP_RATE_LIMIT.windowMs),
    validate("json", ownershipBody),
    (c) => {
      const { address, privateKey, network } = c.req.valid("json");
      if (!address || !privateKey || privateKey.trim() === "") throw new ApiError(400, OWNERSHIP_MESSAGES.missing);
      const result = verifyOwnership(network ?? guessNetwork(address), address, privateKey);
      return c.json({ verified: result.verified, error: result.error ?? null } satisfies OwnershipResponse);
    },
  )
  // ---- creating and changing listings
  // Creating seals a key: without KEY_ENCRYPTION_SECRET it is refused up front (503), like the bulk path.
  .post("/", requireSecrets, requireAdmin, validate("json", createListingBody), async (c) => {
    const session = c.var.session;
    const db = c.var.db;
    const id = await createListing(db, c.env, session.userId, c.req.valid("json"));
    const [rates, row] = await Promise.all([getUsdPrices(c.env), listingById(db, id)]);
    return c.json({ success: true, id, listing: (await toListingViews(db, [row!], rates, session.userId))[0] }, 201);
  })
  .patch("/:id", validId("listing"), requireSession, validate("json", patchBody), listingChangeLimit, async (c) => {
    const { id } = c.req.valid("param");
    const session = c.var.session;
    await changeListing(c.var.db, session, id, c.req.valid("json"));
    const [rates, row] = await Promise.all([getUsdPrices(c.env), listingById(c.var.db, id)]);
    return c.json((await toListingViews(c.var.db, [row!], rates, session.userId))[0]);
  })
  .delete("/:id", validId("listing"), requireSession, async (c) => {
    const { id } = c.req.valid("param");
    await softDelete(c.var.db, id, c.var.session, Date.now());
    return c.json({ success: true, id, status: listingTo("delete") });
  });
