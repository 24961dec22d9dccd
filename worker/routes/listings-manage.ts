// Creating and changing listings (mounted on /api/addresses beside the browse routes):
//   POST   /              create a listing (admins; transactions-profile-admin.md §2, §3, §5)
//   GET    /user          the caller's listings ("My Listings"; admin only, as the spec says)
//   PATCH  /{id}          price, or promotion (owner or admin; public-side.md §4, §7)
//   DELETE /{id}          soft deletion (owner or admin)
// Who may act comes from the session alone; the x-wallet-address header is checked against it by
// auth/middleware.ts (a disagreeing header is a 403) and authorises nothing.
import { Hono } from "hono";
import * as v from "valibot";
import { PROMOTION_TYPES } from "../../schema/db";
import { PROFILE_LIST_DEFAULT, PROFILE_LIST_MAX } from "../../schema/listings";
import { requireAdmin, requireSession } from "../auth/middleware";
import { getUsdPrices } from "../prices/price-feed";
import { requireSecrets } from "../config";
import { checkPrice } from "../domain/money";
import { ApiError } from "../http/errors";
import { ignoredWalletQuery, listingIdParam, queryInt } from "../http/params";
import { validate } from "../http/validate";
import { changePrice, changePromotion, softDelete } from "../listings/changes";
import { createListingBody, draftFromPayload } from "../listings/create";
import { toListingView } from "../listings/listing-view";
import { listingById } from "../listings/listings";
import { listedAlready } from "../listings/import";
import { userListings } from "../listings/profile";
import { DuplicateAddressError, storeListings } from "../listings/store";
import type { AppEnv } from "../types";

const patchBody = v.object({
  // Checked by checkPrice, so the messages are exactly the spec's.
  price: v.optional(v.unknown()),
  promotionType: v.optional(v.picklist(PROMOTION_TYPES, "promotionType must be standard, featured or promoted")),
  isFeatured: v.optional(v.boolean("isFeatured must be true or false")),
});

const listQuery = v.object({
  walletAddress: ignoredWalletQuery,
  limit: v.optional(queryInt("limit", 1, PROFILE_LIST_MAX)),
  offset: v.optional(queryInt("offset", 0, 1_000_000)),
});

const duplicate = (address: string) => new ApiError(409, `${address} is already listed`);

export const listingsManageRoutes = new Hono<AppEnv>()
  // Creating seals a key: without KEY_ENCRYPTION_SECRET it is refused up front (503), like the bulk path.
  .post("/", requireSecrets, requireAdmin, validate("json", createListingBody), async (c) => {
    const session = c.var.session;
    const draft = draftFromPayload(c.req.valid("json"), session.userId, Date.now());
    const db = c.var.db;
    if ((await listedAlready(db, [draft])).size > 0) throw duplicate(draft.address);
    let id: number;
    try {
      [id] = await storeListings(db, c.env, [draft]);
    } catch (err) {
      // Listed by someone else between our check and our insert: the unique index refused it.
      if (err instanceof DuplicateAddressError) throw duplicate(draft.address);
      throw err;
    }
    const [rates, row] = await Promise.all([getUsdPrices(c.env), listingById(db, id)]);
    return c.json({ success: true, id, listing: toListingView(row!, rates, session.userId) }, 201);
  })
  .get("/user", requireAdmin, validate("query", listQuery), async (c) => {
    const { limit = PROFILE_LIST_DEFAULT, offset = 0 } = c.req.valid("query");
    const userId = c.var.session.userId;
    const [rates, rows] = await Promise.all([getUsdPrices(c.env), userListings(c.var.db, userId, limit, offset)]);
    return c.json(rows.map((row) => toListingView(row, rates, userId)));
  })
  .patch("/:id{[0-9]+}", requireSession, validate("param", listingIdParam), validate("json", patchBody), async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const session = c.var.session;
    const wantsPrice = body.price !== undefined;
    const wantsPromotion = body.promotionType !== undefined || body.isFeatured !== undefined;
    if (wantsPrice && wantsPromotion) throw new ApiError(400, "Change the price and the promotion in separate requests");
    if (!wantsPrice && !wantsPromotion) throw new ApiError(400, "Nothing to change: send price, or promotionType and isFeatured");
    const now = Date.now();
    if (wantsPrice) {
      const price = checkPrice(body.price);
      if (!price.ok) throw new ApiError(400, price.message);
      await changePrice(c.var.db, id, session, price.price, price.units, now);
    } else {
      await changePromotion(c.var.db, id, session, body.promotionType, body.isFeatured, now);
    }
    const [rates, row] = await Promise.all([getUsdPrices(c.env), listingById(c.var.db, id)]);
    return c.json(toListingView(row!, rates, session.userId));
  })
  .delete("/:id{[0-9]+}", requireSession, validate("param", listingIdParam), async (c) => {
    const { id } = c.req.valid("param");
    await softDelete(c.var.db, id, c.var.session, Date.now());
    return c.json({ success: true, id, status: "deleted" as const });
  });
