// Offers below the ask (docs/offers.md, migration 0027): a buyer's amount for a listing, open until the seller
// accepts or declines it, the buyer withdraws it, or the clock, a price change, a sale or an unlisting ends it.
// Triggers on addresses and transactions (migrations 0027 and 0038) end, pause and reopen offers in the same
// transaction as those writes.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { OFFER_END_REASONS, OFFER_STATUSES } from "../offers";
import { createdAt } from "./columns";
import { users } from "./identity";
import { addresses } from "./listings";
import { transactions } from "./purchases";

export const offers = sqliteTable(
  "offers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    addressId: integer("address_id")
      .notNull()
      .references(() => addresses.id),
    buyerId: integer("buyer_id")
      .notNull()
      .references(() => users.id),
    /** The offered amount: decimal text and 1e-8 units, as every price (schema/money.ts). */
    amount: text("amount").notNull(),
    amountUnits: integer("amount_units").notNull(),
    currency: text("currency", { enum: ["ETH", "SOL"] }).notNull(),
    /** The listing's price_units when the offer was made: accepting requires the ask unchanged since. */
    askUnits: integer("ask_units").notNull(),
    status: text("status", { enum: OFFER_STATUSES }).notNull().default("open"),
    endReason: text("end_reason", { enum: OFFER_END_REASONS }),
    expiresAt: integer("expires_at").notNull(),
    /** The purchase an accepted offer reserved. */
    transactionId: text("transaction_id").references(() => transactions.id),
    /**
     * The client network the offer was made from (worker/http/rate-limit.ts clientNetwork), as transactions keep it:
     * the bounds per network count it, and an accepted offer's reservation counts against it, not the seller's.
     */
    clientNetwork: text("client_network").notNull(),
    /** The status its buyer was last told of (null: not told); the cron job tells the rest (worker/offers/offer-job.ts). */
    notifiedStatus: text("notified_status"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    // One waiting (open or paused) offer per buyer and listing: a paused one reopens in place of no other.
    uniqueIndex("offers_one_open_per_buyer").on(t.addressId, t.buyerId).where(sql`status IN ('open', 'paused')`),
    // One accepted offer per listing (a second accept loses inside the database).
    uniqueIndex("offers_one_accepted_per_listing").on(t.addressId).where(sql`status = 'accepted'`),
    // A listing's open offers, best first: the seller's list, the public count and best amount.
    index("offers_listing_open").on(t.addressId, t.amountUnits).where(sql`status = 'open'`),
    // Profile > Offers, newest first; the per-wallet bound.
    index("offers_buyer").on(t.buyerId, t.createdAt),
    index("offers_buyer_open").on(t.buyerId).where(sql`status IN ('open', 'paused')`),
    // The per-network bounds: waiting offers (on one listing too), and offers made in the last day.
    index("offers_client_open").on(t.clientNetwork, t.addressId).where(sql`status IN ('open', 'paused')`),
    index("offers_client_created").on(t.clientNetwork, t.createdAt),
    // The clock's expiry, of open and paused offers alike.
    index("offers_open_expiry").on(t.expiresAt).where(sql`status IN ('open', 'paused')`),
    // The purchase triggers find an accepted offer by its purchase.
    index("offers_transaction").on(t.transactionId).where(sql`transaction_id IS NOT NULL`),
    // Ended offers whose buyer is not told yet (the cron job).
    index("offers_untold").on(t.id).where(sql`notified_status IS NOT status`),
    // The retention purge.
    index("offers_updated").on(t.updatedAt),
  ],
);

export type Offer = typeof offers.$inferSelect;
