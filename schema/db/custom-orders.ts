// Custom orders: a buyer's split-key order. The table holds only public values: the buyer's
// public key A, the pattern, the quote, the grinder's progress and, once found, the address and the offset
// k (revealed to the buyer only after settlement). The buyer's secret a and the final key are never here.
import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bool, createdAt, nowMs } from "./columns";
import { users } from "./identity";

/**
 * open: waiting for the grinder; grinding: a grinder took it; found: the address exists, waiting for
 * payment until payment_deadline; delivered: paid and settled, the offset is the buyer's; expired: not paid
 * in time (the offset is never revealed); cancelled: withdrawn by the buyer before payment.
 */
export const CUSTOM_ORDER_STATUSES = ["open", "grinding", "found", "delivered", "expired", "cancelled"] as const;
export type CustomOrderStatus = (typeof CUSTOM_ORDER_STATUSES)[number];

export const customOrders = sqliteTable(
  "custom_orders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    buyerId: integer("buyer_id")
      .notNull()
      .references(() => users.id),
    /** lower-case, the signed-in wallet that placed the order (docs/sign-in.md) */
    buyerWallet: text("buyer_wallet").notNull(),
    /** the buyer's A = a·G, 0x + 66 hex, SEC1 compressed, lower-case */
    publicKey: text("public_key").notNull(),
    prefix: text("prefix").notNull(),
    suffix: text("suffix").notNull(),
    caseSensitive: bool("case_sensitive").notNull(),
    difficultyBits: integer("difficulty_bits").notNull(),
    price: text("price").notNull(),
    priceUnits: integer("price_units").notNull(),
    currency: text("currency", { enum: ["ETH"] })
      .notNull()
      .default("ETH"),
    status: text("status", { enum: CUSTOM_ORDER_STATUSES }).notNull().default("open"),
    takenBy: integer("taken_by").references(() => users.id),
    takenAt: integer("taken_at"),
    /**
     * The claim on a grinding order (docs/custom-orders.md#several-grinders): the grinder holding it (an
     * order_grinders id, or "admin-<user id>" for a take without one) and when it lapses unless a progress report
     * renews it. A lapsed claim may be taken by any grinder.
     */
    claimId: text("claim_id"),
    claimExpiresAt: integer("claim_expires_at"),
    /** attempts spent by earlier claims that lapsed; progressAttempts counts the current claim's */
    attemptsBefore: integer("attempts_before").notNull().default(0),
    progressAttempts: integer("progress_attempts"),
    progressRate: real("progress_rate"),
    progressAt: integer("progress_at"),
    /**
     * EIP-55 address of f·(A + k·G), public once found. It is also the order's link to its hidden listing
     * (addresses.address, unique there too; worker/orders/order-listing.ts).
     */
    foundAddress: text("found_address"),
    /** k, 0x + 64 hex: secret until the order is delivered */
    foundOffset: text("found_offset"),
    foundVariant: integer("found_variant"),
    foundAt: integer("found_at"),
    paymentDeadline: integer("payment_deadline"),
    /** An order not found by then expires unfilled (nothing was paid); set when it is placed. */
    grindDeadline: integer("grind_deadline"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull().default(nowMs),
  },
  (t) => [
    // A found address belongs to one order, ever: it is never offered to anyone else.
    uniqueIndex("custom_orders_found_address").on(t.foundAddress).where(sql`found_address is not null`),
    index("custom_orders_buyer").on(t.buyerId, t.createdAt),
    index("custom_orders_status").on(t.status, t.createdAt),
    index("custom_orders_deadline").on(t.paymentDeadline).where(sql`status = 'found'`),
    index("custom_orders_grind_deadline").on(t.grindDeadline).where(sql`status IN ('open', 'grinding')`),
  ],
);

/**
 * The grinders that fill orders (`npm run grind -- --orders`), one row per running process: it names itself with
 * a random id on every call, so several grinders signed in with one admin wallet stay apart. Its last report
 * (rate, order, time) is what the order page and the admin queue show; rows unseen for a month are deleted.
 */
export const orderGrinders = sqliteTable(
  "order_grinders",
  {
    id: text("id").primaryKey(),
    adminId: integer("admin_id")
      .notNull()
      .references(() => users.id),
    /** what it grinds on, as the grinder says: "GPU NVIDIA H200", "CPU, 1 thread" */
    label: text("label").notNull(),
    /** candidates per second in its last progress report; null before its first */
    rate: real("rate"),
    /** the order it is grinding now, null when idle */
    orderId: integer("order_id"),
    startedAt: integer("started_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [index("order_grinders_seen").on(t.lastSeenAt)],
);
