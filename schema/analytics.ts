// Admin > Analytics: the period choices and the answer's shape, shared by the Worker and the panel.
import type { Network } from "./db";

export const ANALYTICS_PERIODS = ["7", "30", "90"] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];

export type AnalyticsResponse = {
  period: { days: number; from: string; to: string };
  /** Completed sales per UTC day and network (sales_analytics, priced exactly from the purchase). */
  salesByDay: { day: string; network: Network; sales: number; volume: string; currency: "ETH" | "SOL" }[];
  /** Average sale price per network, category and pattern length. */
  averagePrice: { network: Network; category: string; patternLength: number; sales: number; averagePrice: string; currency: "ETH" | "SOL" }[];
  /** Reservations made in the period by how they ended; failed ones by reason. */
  reservationOutcomes: { outcome: "sold" | "cancelled" | "expired" | "failed" | "open"; reason: string | null; count: number }[];
  /**
   * Seconds from the moment the payment was seen at the required depth (the purchase's completed_at: the same
   * batch settles it and makes the key releasable) to the key's first release to the buyer (the first
   * key_revealed audit row). Over the newest RELEASE_SAMPLE releases of the period.
   */
  depthToRelease: { releases: number; p50Seconds: number | null; p95Seconds: number | null };
  /** Custom orders placed in the period, by state. */
  customOrders: { status: string; count: number }[];
  /** Listings on the market now (active and listed), by rarity tier and network. */
  supplyByTier: { tier: string; network: Network; listings: number }[];
  /** Network fee estimates against what settled payments paid (gas_estimation_audit): accuracy = estimated / actual. */
  gasAccuracy: { network: Network; payments: number; averageAccuracy: number | null }[];
  /** Promotions bought in the period (listing_promotions), by type. */
  promotions: { promotionType: string; count: number }[];
};
