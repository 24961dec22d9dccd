// Public market figures: GET /api/market-stats, /api/prices/live (mounted on /api); the recent transactions
// are in routes/transactions.ts.
// None of them is personal, so browsers and the edge may cache them briefly.
import { Hono } from "hono";
import type { LivePrices, MarketStats } from "../../schema/browse";
import { getUsdPrices } from "../prices/price-feed";
import { marketStats } from "../listings/market";
import type { AppEnv } from "../types";

const PUBLIC_30S = "public, max-age=30";

export const marketRoutes = new Hono<AppEnv>()
  .get("/market-stats", async (c) => {
    const rates = await getUsdPrices(c.env);
    const stats = await marketStats(c.var.db, rates, Date.now());
    c.header("Cache-Control", PUBLIC_30S);
    return c.json(stats satisfies MarketStats);
  })
  .get("/prices/live", async (c) => {
    const prices = await getUsdPrices(c.env);
    c.header("Cache-Control", PUBLIC_30S);
    return c.json(prices satisfies LivePrices);
  });
