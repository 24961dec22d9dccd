// Collectors' tools (docs/collectors.md, migration 0023): the watchlist (the spec's table), saved searches and the
// index that finds a listing's candidate searches, the notifications each wallet reads, and the journal of
// listing and purchase events that database triggers append and the cron job turns into notifications.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bool, createdAt } from "./columns";
import { users } from "./identity";
import { addresses } from "./listings";

/**
 * A wallet's starred listings (the specification names its columns: userId, addressId, createdAt), with the
 * price when it was starred (the change since is shown) and the keyed hash of the client network that starred it
 * (the per-network bound, docs/collectors.md#bounds).
 */
export const watchlist = sqliteTable(
  "watchlist",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    addressId: integer("address_id")
      .notNull()
      .references(() => addresses.id),
    priceAtStar: text("price_at_star").notNull(),
    priceUnitsAtStar: integer("price_units_at_star").notNull(),
    clientKey: text("client_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("watchlist_user_address_unique").on(t.userId, t.addressId),
    // Profile > Watchlist, newest first; the per-wallet count.
    index("watchlist_user_created").on(t.userId, t.createdAt),
    // A listing's watchers: the public count and the notifications' fan-out.
    index("watchlist_address").on(t.addressId),
    index("watchlist_client").on(t.clientKey),
  ],
);

/**
 * A search as saved, once however many wallets save it (docs/collectors.md#how-matching-stays-cheap): its canonical
 * query string (worker/collectors/saved-searches.ts) and the query as the search validated it. The cron job matches
 * new listings against these, then tells each of its subscribers (saved_searches).
 */
export const savedQueries = sqliteTable(
  "saved_queries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    query: text("query").notNull(),
    /**
     * The query as the search validated it (worker/listings/search-params.ts SearchQuery, as JSON): the cron job
     * plans and matches it without validating the query strings again every run.
     */
    criteria: text("criteria", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [uniqueIndex("saved_queries_query").on(t.query)],
);

/** A wallet's subscription to a saved query, with its own name; `query` is the query's canonical string, as the web reads it. */
export const savedSearches = sqliteTable(
  "saved_searches",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    query: text("query").notNull(),
    queryId: integer("query_id")
      .notNull()
      .references(() => savedQueries.id),
    clientKey: text("client_key").notNull(),
    createdAt: createdAt(),
    /** When a new or cheaper listing last matched it (the cron job). */
    lastMatchAt: integer("last_match_at"),
  },
  (t) => [
    uniqueIndex("saved_searches_user_query").on(t.userId, t.query),
    index("saved_searches_user_created").on(t.userId, t.createdAt),
    index("saved_searches_client").on(t.clientKey),
    // The cron job takes a query's subscribers in id order, a chunk at a time, with their wallets: the index alone.
    index("saved_searches_query").on(t.queryId, t.id, t.userId),
  ],
);

/**
 * The saved queries' keys (worker/collectors/search-keys.ts): every listing a query can match probes at least one
 * of its keys, so a new listing looks up its probe keys here instead of reading every query. WITHOUT ROWID: a
 * lookup reads the whole row from the primary key's b-tree.
 */
export const savedQueryKeys = sqliteTable(
  "saved_query_keys",
  {
    key: text("key").notNull(),
    queryId: integer("query_id")
      .notNull()
      .references(() => savedQueries.id),
    /** A listing for sale that probes this key matches the query: nothing else to check (search-keys.ts). */
    exact: bool("exact").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.queryId] }), index("saved_query_keys_query").on(t.queryId)],
);

/**
 * What a wallet is told (schema/notifications.ts has the kinds). `subject` names what it is about
 * ("listing:12", "search:3", "purchase:<id>", "order:4"): a wallet has at most one unread notification per group
 * and subject, brought up to date by newer news instead of a second one being added.
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind").notNull(),
    group: text("grp").notNull(),
    subject: text("subject").notNull(),
    addressId: integer("address_id"),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: integer("created_at").notNull(),
    readAt: integer("read_at"),
  },
  (t) => [
    // The page, newest first, and the per-wallet cap.
    index("notifications_user_created").on(t.userId, t.createdAt, t.id),
    // At most one unread notification per wallet, subject and group (newer news updates it: worker/collectors/notify.ts);
    // also the bell's unread count, a count of one wallet's entries here.
    uniqueIndex("notifications_unread").on(t.userId, t.subject, t.group).where(sql`read_at IS NULL`),
    // The 90-day purge.
    index("notifications_created").on(t.createdAt),
  ],
);

export const COLLECTOR_EVENT_KINDS = ["listed", "price_drop", "reserved", "freed", "sold", "order_found"] as const;
export type CollectorEventKind = (typeof COLLECTOR_EVENT_KINDS)[number];

/**
 * Appended by triggers on addresses, transactions and custom_orders (migration 0023), so every writer records
 * what collectors are told about without knowing about it; read in id order by the cron job
 * (worker/collectors/notification-job.ts) and deleted once turned into notifications.
 */
export const collectorEvents = sqliteTable("collector_events", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  kind: text("kind", { enum: COLLECTOR_EVENT_KINDS }).notNull(),
  addressId: integer("address_id"),
  /** The buyer (reserved, sold, order_found). */
  userId: integer("user_id"),
  /** The purchase's or the custom order's id. */
  ref: text("ref"),
  price: text("price"),
  previousPrice: text("previous_price"),
  /** A reservation's expiry. */
  until: integer("until"),
  createdAt: createdAt(),
});

/** How far the cron job has read collector_events (one row). */
export const collectorCursor = sqliteTable("collector_cursor", {
  id: integer("id").primaryKey(),
  lastEventId: integer("last_event_id").notNull(),
  /**
   * A batch whose watchers and buyers are told and whose saved-search subscribers are being told, a chunk at a time:
   * its last event, and the last subscriber told (query id, saved search id). Null between batches.
   */
  batchTo: integer("batch_to"),
  matchQuery: integer("match_query"),
  matchSearch: integer("match_search"),
});
