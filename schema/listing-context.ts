// GET /api/addresses/{id}/context: what the listing page shows beside the listing itself so a buyer can judge
// the price: what the score means, the estimated value, the listing's price history, comparable
// listings and recent sales of the same kind, and where the key came from. Built by the Worker
// (worker/routes/listing-context.ts), read by web/src/routes/address.$id.tsx.
import type { ListingView, PublicSale } from "./browse";

/** Rows of price history returned, newest kept when there are more. */
export const PRICE_HISTORY_LIMIT = 30;
/** Comparable listings returned. */
export const COMPARABLES_LIMIT = 4;
/** Recent sales returned. */
export const RECENT_SALES_LIMIT = 5;

export type ListingDifficulty = {
  /** log2 of the expected number of random keys needed to hit this pattern. */
  log2: number;
  /** 2^log2, the expected attempts. */
  attempts: number;
  /** log2 / 4: "as hard as N fixed hex characters" (one hex character is 4 bits, for either network). */
  hexCharacters: number;
  /** Expected time on one CPU core and on one high-end GPU at the reference rates (docs/rarity.md). */
  cpuCoreSeconds: number;
  gpuSeconds: number;
  referenceRates: { cpuCore: number; gpu: number };
};

export type PricePoint = {
  price: string;
  currency: "ETH" | "SOL";
  /** At today's rate, rounded to cents (a chart in one unit; the coin price is the record). */
  usd: number;
  /** "created", "price_update", ... as stored. */
  changeType: string;
  /** ISO 8601. */
  at: string;
};

export type RecentSale = {
  listingId: number;
  address: string;
  network: ListingView["network"];
  price: string;
  currency: "ETH" | "SOL";
  formattedUsd: string;
  /** The UTC day the sale completed (YYYY-MM-DD; or was created, for older rows without a completion time); never the time. */
  soldAt: string;
};

export type ListingContext = {
  listingId: number;
  difficulty: ListingDifficulty;
  /** The rarity engine's estimate in the listing's currency, with its USD figure at today's rate. */
  /**
   * basedOnSales: how many recorded sales the calibration of this estimate rests on (the fitted multiplier for the
   * listing's category and pattern length, else the network's; 0: the uncalibrated model).
   */
  estimatedValue: { amount: string; currency: "ETH" | "SOL"; usd: number; formattedUsd: string; basedOnSales: number };
  /** Oldest first. */
  priceHistory: PricePoint[];
  /** Other buyable listings on the same network with the same category and pattern length, closest rarity first. */
  comparables: ListingView[];
  /** Completed sales of listings on the same network with the same category and pattern length, newest first. */
  recentSales: RecentSale[];
  /** The server checked the seller's key derives this address when the listing was created (ISO 8601). */
  ownershipProvedAt: string;
  /** A sold listing's own sale (when, for how much, its page /sale/{id}); null unless the listing is sold. */
  sale: PublicSale | null;
};
