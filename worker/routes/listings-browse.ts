// Public listing reads (public-side.md §7): search, featured, one listing. Mounted on /api/addresses beside
// other sub-apps (validate, user, verify-ownership...), so the id route only takes digits and the
// malformed-id answer defers to any sibling route that matches.
import { type Context, Hono, type Next } from "hono";
import { matchedRoutes } from "hono/route";
import type { SearchResponse } from "../../schema/browse";
import { getUsdPrices } from "../prices/price-feed";
import { ApiError } from "../http/errors";
import { LISTING_ID_MESSAGE, listingIdParam } from "../http/params";
import { validate } from "../http/validate";
import { toListingView } from "../listings/listing-view";
import { featuredListings, listingById } from "../listings/listings";
import { searchQuerySchema } from "../listings/search-params";
import { paginate, searchListings } from "../listings/search";
import type { AppEnv } from "../types";

/**
 * The signed-in user's id, or null. Read loosely: the session middleware (worker/auth) sets `session`; the
 * `walletAddress` query parameter or any header never makes anyone an owner.
 */
export function sessionUserId(c: Context<AppEnv>): number | null {
  const session = (c.var as { session?: unknown }).session as { userId?: unknown } | null | undefined;
  const id = session?.userId;
  return typeof id === "number" && Number.isSafeInteger(id) ? id : null;
}

const ID_MESSAGE = `id: ${LISTING_ID_MESSAGE}`;

/** Non-numeric ids get a 400 only when no sibling route (e.g. GET /validate) handles the path. */
async function malformedId(c: Context<AppEnv>, next: Next) {
  const others = matchedRoutes(c).filter((r) => r.handler !== malformedId && r.method !== "ALL" && !r.path.endsWith("*"));
  if (others.length > 0) return next();
  throw new ApiError(400, ID_MESSAGE);
}

export const listingsBrowseRoutes = new Hono<AppEnv>()
  .get("/search", validate("query", searchQuerySchema), async (c) => {
    const q = c.req.valid("query");
    const rates = await getUsdPrices(c.env);
    const result = await searchListings(c.var.db, q, rates);
    const viewer = sessionUserId(c);
    return c.json({
      addresses: result.rows.map((row) => toListingView(row, rates, viewer)),
      pagination: paginate(q.offset, q.limit, result.total, result.totalIsExact),
    } satisfies SearchResponse);
  })
  .get("/featured", async (c) => {
    const [rates, rows] = await Promise.all([getUsdPrices(c.env), featuredListings(c.var.db, Date.now())]);
    const viewer = sessionUserId(c);
    return c.json(rows.map((row) => toListingView(row, rates, viewer)));
  })
  .get("/:id{[0-9]+}", validate("param", listingIdParam), async (c) => {
    const { id } = c.req.valid("param");
    const [rates, row] = await Promise.all([getUsdPrices(c.env), listingById(c.var.db, id)]);
    const viewer = sessionUserId(c);
    const isOwner = row !== null && viewer !== null && row.seller_id === viewer;
    // Deleted listings are gone for everyone but their owner.
    if (!row || (row.status === "deleted" && !isOwner)) throw new ApiError(404, "Address not found");
    return c.json(toListingView(row, rates, viewer));
  })
  .get("/:id", malformedId);
