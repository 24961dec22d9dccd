import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bool, createdAt, NETWORKS, nowMs } from "./columns";
import { addresses } from "./listings";

export const marketTrends = sqliteTable(
  "market_trends",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    category: text("category").notNull(),
    network: text("network", { enum: NETWORKS }).notNull(),
    avgPrice: text("avg_price"),
    medianPrice: text("median_price"),
    minPrice: text("min_price"),
    maxPrice: text("max_price"),
    totalVolume: text("total_volume"),
    activeListings: integer("active_listings").notNull().default(0),
    soldCount: integer("sold_count").notNull().default(0),
    priceChange24h: text("price_change_24h"),
    priceChange7d: text("price_change_7d"),
    volumeChange24h: text("volume_change_24h"),
    period: text("period").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("market_trends_category").on(t.category, t.network, t.period)],
);

export const algorithmAdjustments = sqliteTable(
  "algorithm_adjustments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    network: text("network", { enum: NETWORKS }).notNull(),
    baseValueMultiplier: real("base_value_multiplier").notNull().default(1.0),
    salesDataPeriod: integer("sales_data_period").notNull().default(30),
    salesCount: integer("sales_count").notNull().default(0),
    averageActualPrice: text("average_actual_price"),
    averageEstimatedPrice: text("average_estimated_price"),
    adjustmentReason: text("adjustment_reason"),
    confidenceScore: real("confidence_score").notNull().default(0.5),
    isActive: bool("is_active").notNull().default(true),
    createdAt: createdAt(),
    /** null: the network-wide multiplier; otherwise the one for this category and pattern length (migration 0018). */
    category: text("category"),
    patternLength: integer("pattern_length"),
  },
  (t) => [
    index("algorithm_adjustments_active").on(t.network, t.isActive),
    index("algorithm_adjustments_kind").on(t.network, t.category, t.patternLength, t.isActive),
  ],
);

export const salesAnalytics = sqliteTable(
  "sales_analytics",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    transactionId: text("transaction_id").notNull(),
    addressId: integer("address_id")
      .notNull()
      .references(() => addresses.id),
    network: text("network", { enum: NETWORKS }).notNull(),
    rarityScore: real("rarity_score"),
    category: text("category"),
    estimatedValue: text("estimated_value"),
    actualSalePrice: text("actual_sale_price").notNull(),
    priceVariance: text("price_variance"),
    saleDate: integer("sale_date").notNull().default(nowMs),
    leadingZeros: integer("leading_zeros").notNull().default(0),
    patterns: text("patterns", { mode: "json" }),
  },
  (t) => [uniqueIndex("sales_analytics_transaction_unique").on(t.transactionId), index("sales_analytics_date").on(t.network, t.saleDate)],
);
