// Market-wide reads: stats, recent transactions, live prices, the fee breakdown and the chain configuration.
// Keys start with their path, so the purchase flow's invalidation of /api/transactions reaches the recent list.
import { queryOptions } from "@tanstack/react-query";
import type { LivePrices, MarketStats, RecentTransaction } from "../../../schema/browse";
import type { FeeBreakdown } from "../../../schema/listings";
import type { ChainConfigResponse } from "../../../schema/purchases";
import { request } from "./http";

export const marketStatsQuery = () =>
  queryOptions({ queryKey: ["/api/market-stats"], queryFn: () => request<MarketStats>("GET", "/api/market-stats") });

/**
 * GET /api/transactions/recent. Anonymous answers may be kept 30 s by the browser, under the URL alone; a
 * signed-in reader (a buyer who just bought, say) revalidates instead of reusing that anonymous copy.
 */
export const recentTransactionsQuery = (viewer: string | null = null) =>
  queryOptions({
    queryKey: ["/api/transactions", "recent", viewer],
    queryFn: () => request<RecentTransaction[]>("GET", "/api/transactions/recent", undefined, {}, viewer ? "no-cache" : undefined),
  });

export const livePricesQuery = () => queryOptions({ queryKey: ["/api/prices/live"], queryFn: () => request<LivePrices>("GET", "/api/prices/live") });

/**
 * GET /api/config: which Ethereum chain and Solana cluster the marketplace settles on (explorer links), and
 * what a payer needs (platform address, chain id or cluster, depth). `payments` is read defensively: an older
 * Worker answers without it.
 */
export type MarketConfig = Omit<ChainConfigResponse, "payments"> & { payments?: ChainConfigResponse["payments"] };

export const chainConfigQuery = () =>
  queryOptions({
    queryKey: ["/api/config"],
    queryFn: () => request<MarketConfig>("GET", "/api/config"),
  });

/** POST /api/transactions/calculate-fees: a pure calculation, so it is read like data. Membership is always basic. */
export const feesQuery = (price: string, currency: "ETH" | "SOL") =>
  queryOptions({
    queryKey: ["/api/transactions/calculate-fees", price, currency],
    queryFn: () => request<FeeBreakdown>("POST", "/api/transactions/calculate-fees", { price, currency, membershipTier: "basic" }),
  });
