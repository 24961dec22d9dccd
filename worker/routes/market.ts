// Public market figures: GET /api/market-stats, /api/prices/live, /api/transactions/recent (mounted on /api).
// None of them is personal, so browsers and the edge may cache them briefly.
import { Hono } from "hono";
import type { LivePrices, MarketStats, RecentTransaction } from "../../schema/browse";
import { getUsdPrices } from "../chain/price-feed";
import { marketStats, recentTransactions } from "../listings/market";
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
  })
  .get("/transactions/recent", async (c) => {
    const rows = await recentTransactions(c.var.db);
    c.header("Cache-Control", PUBLIC_30S);
    return c.json(rows satisfies RecentTransaction[]);
  });
