// Market-wide reads: stats, recent transactions, live prices, the fee breakdown and the chain configuration.
// Keys start with their path, so the purchase flow's invalidation of /api/transactions reaches the recent list.
import { queryOptions } from "@tanstack/react-query";
import { type AnswerOf, api, idParam, read } from "./http";

export const marketStatsQuery = () => queryOptions({ queryKey: ["/api/market-stats"], queryFn: () => read(api["market-stats"].$get()) });

/**
 * GET /api/transactions/recent. Anonymous answers may be kept 30 s by the browser, under the URL alone; a
 * signed-in reader (a buyer who just bought, say) revalidates instead of reusing that anonymous copy.
 */
export const recentTransactionsQuery = (viewer: string | null = null) =>
  queryOptions({
    queryKey: ["/api/transactions", "recent", viewer],
    queryFn: () => read(api.transactions.recent.$get(undefined, viewer ? { init: { cache: "no-cache" } } : undefined)),
  });

export const livePricesQuery = () => queryOptions({ queryKey: ["/api/prices/live"], queryFn: () => read(api.prices.live.$get()) });

/**
 * GET /api/config: which Ethereum chain and Solana cluster the marketplace settles on (explorer links), and
 * what a payer needs (platform address, chain id or cluster, depth). `payments` is absent while the payment
 * settings are unsafe (worker/routes/config.ts), so it is read defensively.
 */
export type MarketConfig = AnswerOf<typeof api.config.$get>;

export const chainConfigQuery = () =>
  queryOptions({
    queryKey: ["/api/config"],
    queryFn: () => read(api.config.$get()),
  });

/** POST /api/transactions/calculate-fees: a pure calculation, so it is read like data. Membership is always basic. */
export const feesQuery = (price: string, currency: "ETH" | "SOL") =>
  queryOptions({
    queryKey: ["/api/transactions/calculate-fees", price, currency],
    queryFn: () => read(api.transactions["calculate-fees"].$post({ json: { price, currency, membershipTier: "basic" } })),
  });

/** GET /api/transactions/sales: the public activity page's completed sales, paged, optionally one network. */
export const salesQuery = (page: number, network: "ethereum" | "solana" | undefined) =>
  queryOptions({
    queryKey: ["/api/transactions", "sales", page, network ?? "all"],
    queryFn: () => read(api.transactions.sales.$get({ query: { page: String(page), ...(network ? { network } : {}) } })),
  });

/** GET /api/transactions/sales/{id}: one public sale (404 for anything that is not one). */
export const saleQuery = (id: string) =>
  queryOptions({
    queryKey: ["/api/transactions", "sale", id],
    queryFn: () => read(api.transactions.sales[":id"].$get(idParam(id))),
  });
