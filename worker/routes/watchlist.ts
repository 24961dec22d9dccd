// /api/watchlist (docs/collectors.md#watchlist): a signed-in wallet's starred listings.
//   GET    /                 Profile > Watchlist: each listing now, its price when starred, the change, its state
//   GET    /ids              the watched listing ids, for the stars on cards, rows and the listing page
//   PUT    /{id}             star (201; 200 when already starred); 409 past the wallet's or the network's bound
//   DELETE /{id}             unstar
//   GET    /{id}/watchers    how many wallets watch a listing (public: a count, never who)
// Listing reads stay the same for every viewer (the edge cache keeps them): which ones the caller watches is this
// separate, uncached call, as GET /api/transactions/open is for one's own reservations.
import { Hono } from "hono";
import {
  COLLECTOR_WRITE_LIMIT,
  WATCHLIST_LIMITS,
  type WatchAnswer,
  type WatchedIdsResponse,
  type WatchersResponse,
  type WatchlistResponse,
} from "../../schema/collectors";
import { requireSession } from "../auth/middleware";
import { clientKey } from "../collectors/client-key";
import { star, unstar, watchedIds, watcherCount, watchlistOf } from "../collectors/watchlist";
import { validId } from "../http/params";
import { limitSignedIn } from "../http/rate-limit";
import { getUsdPrices } from "../prices/price-feed";
import type { AppEnv } from "../types";

const writeLimit = limitSignedIn("collectors", COLLECTOR_WRITE_LIMIT);

export const watchlistRoutes = new Hono<AppEnv>()
  .get("/", requireSession, async (c) => {
    c.header("Cache-Control", "no-store");
    const rates = await getUsdPrices(c.env);
    return c.json({ items: await watchlistOf(c.var.db, c.var.session.userId, rates), limit: WATCHLIST_LIMITS.perWallet } satisfies WatchlistResponse);
  })
  .get("/ids", requireSession, async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ listingIds: await watchedIds(c.var.db, c.var.session.userId) } satisfies WatchedIdsResponse);
  })
  .get("/:id/watchers", validId("listing"), async (c) => {
    c.header("Cache-Control", "no-store");
    const { id } = c.req.valid("param");
    return c.json({ listingId: id, watchers: await watcherCount(c.var.db, id, c.var.session) } satisfies WatchersResponse);
  })
  .put("/:id", validId("listing"), requireSession, writeLimit, async (c) => {
    const key = await clientKey(c.env.SESSION_SECRET, c.var.requestInfo.ip);
    const { created, ...answer } = await star(c.var.db, c.var.session, c.req.valid("param").id, key, Date.now());
    return c.json(answer satisfies WatchAnswer, created ? 201 : 200);
  })
  .delete("/:id", validId("listing"), requireSession, writeLimit, async (c) => {
    return c.json((await unstar(c.var.db, c.var.session, c.req.valid("param").id)) satisfies WatchAnswer);
  });
