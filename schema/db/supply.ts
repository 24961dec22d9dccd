// Supply targets and the grinders' claims on them (docs/supply.md, migration 0048). Statuses and their
// transitions are declared in schema/supply.ts; the bounds on open claims are checked inside the claiming
// INSERT (worker/supply/claims.ts), and these partial indexes keep those counts and the cron's expiry cheap.
import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { SUPPLY_CATEGORIES, SUPPLY_CLAIM_STATUSES, SUPPLY_TARGET_STATUSES } from "../supply-lifecycle";
import { createdAt, NETWORKS } from "./columns";
import { users } from "./identity";

export const supplyTargets = sqliteTable(
  "supply_targets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    network: text("network", { enum: NETWORKS }).notNull(),
    category: text("category", { enum: SUPPLY_CATEGORIES }).notNull(),
    /** the shortest pattern that counts as stock, in characters */
    patternLength: integer("pattern_length").notNull(),
    /** the price each listing it makes is listed at: decimal text and 1e-8 units (schema/money.ts) */
    price: text("price").notNull(),
    priceUnits: integer("price_units").notNull(),
    currency: text("currency", { enum: ["ETH", "SOL"] }).notNull(),
    wanted: integer("wanted").notNull(),
    status: text("status", { enum: SUPPLY_TARGET_STATUSES }).notNull().default("active"),
    createdBy: integer("created_by")
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  // One target per shape: two would count the same listings as their stock.
  (t) => [uniqueIndex("supply_targets_shape").on(t.network, t.category, t.patternLength)],
);

export const supplyClaims = sqliteTable(
  "supply_claims",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    targetId: integer("target_id")
      .notNull()
      .references(() => supplyTargets.id, { onDelete: "cascade" }),
    /** the grinder process's own id (as order_grinders names it) and the admin it signed in as */
    grinderId: text("grinder_id").notNull(),
    adminId: integer("admin_id")
      .notNull()
      .references(() => users.id),
    label: text("label").notNull(),
    status: text("status", { enum: SUPPLY_CLAIM_STATUSES }).notNull().default("open"),
    /** keys searched under this claim and the rate, as its last report says */
    attempts: integer("attempts").notNull().default(0),
    rate: real("rate"),
    /** hits listed under this claim */
    listed: integer("listed").notNull().default(0),
    createdAt: createdAt(),
    reportedAt: integer("reported_at").notNull(),
    /** the lease: an open claim not reported by then is closed by the cron job */
    expiresAt: integer("expires_at").notNull(),
    closedAt: integer("closed_at"),
  },
  (t) => [
    index("supply_claims_open_target").on(t.targetId).where(sql`status = 'open'`),
    index("supply_claims_open_grinder").on(t.grinderId).where(sql`status = 'open'`),
    index("supply_claims_open_expiry").on(t.expiresAt).where(sql`status = 'open'`),
    index("supply_claims_closed").on(t.closedAt).where(sql`status <> 'open'`),
  ],
);
