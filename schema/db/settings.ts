// Admin > Settings (migration 0018): the custom-order quote, moved from [vars] into D1.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One row per change of the custom-order quote; the newest is in force. */
export const customOrderQuoteSettings = sqliteTable("custom_order_quote_settings", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  basePrice: text("base_price").notNull(),
  pricePerBillion: text("price_per_billion").notNull(),
  maxPrice: text("max_price").notNull(),
  maxDifficultyBits: integer("max_difficulty_bits").notNull(),
  grindRate: integer("grind_rate").notNull(),
  createdBy: text("created_by"),
  createdAt: integer("created_at").notNull(),
});
