// The cron task that tells collectors what happened (docs/collectors.md#where-notifications-come-from). Triggers
// append every listing and purchase event to collector_events as it happens (migration 0023); this task reads
// them in id order from its cursor and turns them into notifications: the watchers of a listing and the buyers
// in one write that also marks the batch begun, then the subscribers of the saved queries a new or cheaper listing
// matches, SUBSCRIBERS_PER_CHUNK at a time, each chunk written with the cursor moved past it, then the batch closed.
// A chunk's notifications are made in the database from one row of news per query and the subscribers' rows: the
// subscribers are never read out, nor their notifications sent back one by one.
// Every statement requires the cursor to be where this run read it: two runs at once write once, and a run stopped
// mid-batch (its deadline, or the platform) is resumed by the next after its last finished chunk. Nothing in the
// purchase or order code calls it.
import { inListingSet, isOnMarket, LISTING_CHANGEABLE, type ListingStatus } from "../../schema/listing-lifecycle";
import { type SQL, sql } from "drizzle-orm";
import { NOTIFICATION_RETENTION_DAYS, NOTIFICATIONS_PER_WALLET } from "../../schema/collectors";
import { addresses, type CollectorEventKind, collectorCursor, collectorEvents, customOrders, notifications, savedSearches } from "../../schema/db";
import type { ChangedListing, QueryMatch } from "./saved-search-match";
import { decimalToUnits } from "../../schema/money";
import { batchAll, type Db, writeBatch } from "../db/database";
import { orderIdOfListing } from "../orders/order-listing";
import { NOTIFICATION_KINDS } from "../../schema/notifications";
import {
  keepNewestStatement,
  type NotificationInput,
  upsertFromStatement,
  upsertStatements,
  type WatcherNotification,
  watcherUpsertStatements,
} from "./notify";
import { matchSavedQueries, subscriberCounts } from "./saved-search-match";

/** Events read per batch, and batches per run: a bulk upload of thousands of listings is told over a few runs. */
export const EVENTS_PER_BATCH = 1_000;
const BATCHES_PER_RUN = 5;
/** Saved searches told per write: a query saved by ten thousand wallets is told over a few. */
export const SUBSCRIBERS_PER_CHUNK = 2_000;
/** The news of one chunk's queries, in JSON, at most (a statement's parameter is one text, under D1's 2 MB). */
const NEWS_JSON_BYTES = 1_000_000;
/**
 * The cursor's match_search once every subscriber of its match_query is told: above any saved search's id, so a query
 * whose last subscribers went before their chunk is passed over for good.
 */
const ALL_TOLD = Number.MAX_SAFE_INTEGER;
const SEARCH_MATCH = "saved_search_match";
const SEARCH_GROUP = NOTIFICATION_KINDS[SEARCH_MATCH].group;
/** Old notifications deleted per run (the index on created_at finds them). */
const PURGE_PER_RUN = 5_000;

export type CollectorReport = {
  events: number;
  watcherNotices: number;
  directNotices: number;
  savedSearchMatches: number;
  /** Keys the listings' probes found; saved searches read to be checked in code, and (search, listing) pairs checked. */
  keyHits: number;
  searchesRead: number;
  candidatesChecked: number;
  purged: number;
};

type EventRow = {
  id: number;
  kind: CollectorEventKind;
  addressId: number | null;
  userId: number | null;
  ref: string | null;
  price: string | null;
  previousPrice: string | null;
  until: number | null;
};

type ListingRow = {
  id: number;
  address: string;
  network: "ethereum" | "solana";
  category: string;
  patternLength: number;
  status: ListingStatus;
  isListed: number;
  price: string;
  priceUnits: number;
  currency: "ETH" | "SOL";
  sellerId: number | null;
  /** The custom order this address was found for (its buyer's key, never the store's), or null. */
  customOrderId: number | null;
};

const ids = (values: (number | string | null)[]) => JSON.stringify([...new Set(values.filter((v) => v !== null))]);
const safeUnits = (price: string | null) => {
  try {
    return price === null ? null : decimalToUnits(price);
  } catch {
    return null;
  }
};

/** One run: batches of events until none are left, BATCHES_PER_RUN are done, or `deadline` (ms since the epoch) passes. */
export async function runCollectorJob(db: Db, now = Date.now(), deadline = Number.POSITIVE_INFINITY): Promise<CollectorReport> {
  const report: CollectorReport = {
    events: 0,
    watcherNotices: 0,
    directNotices: 0,
    savedSearchMatches: 0,
    keyHits: 0,
    searchesRead: 0,
    candidatesChecked: 0,
    purged: 0,
  };
  for (let batch = 0; batch < BATCHES_PER_RUN && Date.now() < deadline; batch++) {
    const read = await processBatch(db, now, report, deadline);
    if (read < EVENTS_PER_BATCH) break;
  }
  const n = notifications;
  const purged = await db.run(
    sql`DELETE FROM ${n} WHERE ${n.id} IN (SELECT ${n.id} FROM ${n} WHERE ${n.createdAt} < ${now - NOTIFICATION_RETENTION_DAYS * 86_400_000} LIMIT ${PURGE_PER_RUN})`,
  );
  report.purged = purged.meta.changes ?? 0;
  return report;
}

type Cursor = { last: number; batchTo: number | null; matchQuery: number | null; matchSearch: number | null };

/**
 * One batch of events: read; watchers and buyers told (the batch begun); saved-search subscribers told a chunk at a
 * time; the batch closed. A batch begun by an earlier run goes on after its last finished chunk. Answers how many
 * events were read, or -1 when it stopped before the end (the deadline, or another run moved the cursor).
 */
async function processBatch(db: Db, now: number, report: CollectorReport, deadline: number): Promise<number> {
  const e = collectorEvents;
  const c = collectorCursor;
  const [[position]] = await batchAll<[Cursor[]]>(db, [
    sql`SELECT ${c.lastEventId} AS last, ${c.batchTo} AS batchTo, ${c.matchQuery} AS matchQuery, ${c.matchSearch} AS matchSearch FROM ${c} WHERE ${c.id} = 1`,
  ]);
  if (!position) return 0;
  const events = await db.all<EventRow>(
    sql`SELECT ${e.id} AS id, ${e.kind} AS kind, ${e.addressId} AS addressId, ${e.userId} AS userId, ${e.ref} AS ref, ${e.price} AS price,
               ${e.previousPrice} AS previousPrice, ${e.until} AS until
        FROM ${e} WHERE ${e.id} > ${position.last} ${position.batchTo === null ? sql`` : sql`AND ${e.id} <= ${position.batchTo}`}
        ORDER BY ${e.id} LIMIT ${EVENTS_PER_BATCH}`,
  );
  const from = position.last;
  if (events.length === 0 && position.batchTo === null) return 0;
  const to = position.batchTo ?? events[events.length - 1].id;
  // Every statement of this run requires the cursor where it read it (ids compared with IS: null between batches).
  const at = (p: Cursor) =>
    sql`(SELECT ${c.lastEventId} = ${p.last} AND ${c.batchTo} IS ${p.batchTo} AND ${c.matchQuery} IS ${p.matchQuery} AND ${c.matchSearch} IS ${p.matchSearch}
         FROM ${c} WHERE ${c.id} = 1)`;
  const move = (p: Cursor, next: Cursor) =>
    sql`UPDATE ${c} SET ${sql.identifier(c.lastEventId.name)} = ${next.last}, ${sql.identifier(c.batchTo.name)} = ${next.batchTo},
          ${sql.identifier(c.matchQuery.name)} = ${next.matchQuery}, ${sql.identifier(c.matchSearch.name)} = ${next.matchSearch}
        WHERE ${c.id} = 1 AND ${at(p)}`;
  const moved = (results: { meta: { changes?: number } }[]) => (results[results.length - 1].meta.changes ?? 0) > 0;

  const a = addresses;
  const co = customOrders;
  const [listingRows, orderRows] = await batchAll<[ListingRow[], { id: number; address: string | null; price: string }[]]>(db, [
    sql`SELECT ${a.id} AS id, ${a.address} AS address, ${a.network} AS network, ${a.category} AS category, ${a.patternLength} AS patternLength,
               ${a.status} AS status, ${a.isListed} AS isListed, ${a.price} AS price, ${a.priceUnits} AS priceUnits, ${a.currency} AS currency,
               ${a.sellerId} AS sellerId, ${orderIdOfListing} AS customOrderId
        FROM ${a} WHERE ${a.id} IN (SELECT value FROM json_each(${ids(events.map((ev) => ev.addressId))}))`,
    sql`SELECT ${co.id} AS id, ${co.foundAddress} AS address, ${co.price} AS price FROM ${co}
        WHERE ${co.id} IN (SELECT value FROM json_each(${ids(events.filter((ev) => ev.kind === "order_found").map((ev) => Number(ev.ref)))}))`,
  ]);
  const listings = new Map(listingRows.map((l) => [l.id, l]));

  let cursor: Cursor = position;
  if (position.batchTo === null) {
    const watchers = watcherNotices(events, listings);
    const direct = directNotices(events, listings, new Map(orderRows.map((o) => [o.id, o])));
    const begun: Cursor = { last: from, batchTo: to, matchQuery: 0, matchSearch: 0 };
    const written = await writeBatch(db, [
      ...watcherUpsertStatements(watchers, now, at(cursor)),
      ...upsertStatements(direct, now, at(cursor)),
      keepNewestStatement(now, at(cursor)),
      move(cursor, begun),
    ]);
    if (!moved(written)) return -1;
    cursor = begun;
    report.watcherNotices += watchers.length;
    report.directNotices += direct.length;
  }

  const matched = await matchSavedQueries(db, changedListings(events, listings));
  report.keyHits += matched.hits;
  report.searchesRead += matched.searchesRead;
  report.candidatesChecked += matched.candidatesChecked;
  // The queries whose subscribers are not all told yet (all of them, unless this run resumes the batch), and how
  // many subscribers each has: what sizes each chunk's list of queries below.
  const s = savedSearches;
  const untold = (m: QueryMatch) => m.queryId > (cursor.matchQuery ?? 0) || (m.queryId === cursor.matchQuery && cursor.matchSearch !== ALL_TOLD);
  const subscribers = await subscriberCounts(
    db,
    matched.matches.filter(untold).map((m) => m.queryId),
  );
  for (;;) {
    const pending = matched.matches.filter(untold);
    if (pending.length === 0) break;
    if (Date.now() >= deadline) return -1;
    // The news of the next queries in order, until their subscribers make a chunk: one row per query, whatever the
    // number of wallets; the database joins them with the subscribers, which never leave it.
    const rows: string[] = [];
    let reach = 0;
    let bytes = 0;
    for (const m of pending) {
      const row = JSON.stringify(newsRow(m));
      rows.push(row);
      reach += subscribers.get(m.queryId) ?? 0;
      bytes += row.length + 1;
      if (reach >= SUBSCRIBERS_PER_CHUNK || bytes >= NEWS_JSON_BYTES) break;
    }
    const chunk = chunkOf(`[${rows.join(",")}]`, cursor);
    const lastQuery = pending[rows.length - 1].queryId;
    const written = await writeBatch(db, [
      // The search's name and filters are read with the notification (notifications.ts): a rename or deletion shows.
      upsertFromStatement(
        sql`${chunk} SELECT told.u AS u, ${SEARCH_MATCH} AS kind, ${SEARCH_GROUP} AS grp, 'search:' || told.id AS subject,
                   json_extract(told.pick, '$[0]') AS address_id,
                   json_object('searchId', told.id, 'count', told.cnt, 'listingId', json_extract(told.pick, '$[0]'),
                     'address', json_extract(told.pick, '$[1]'), 'network', json_extract(told.pick, '$[2]'), 'reason', json_extract(told.pick, '$[3]')) AS data
            FROM told`,
        now,
        at(cursor),
      ),
      // Trimmed with each chunk (a run that resumes the batch writes at another time), for the chunk's wallets that
      // hold more than the cap: counted on their index, most hold far fewer.
      keepNewestStatement(
        now,
        at(cursor),
        sql`${chunk} SELECT u FROM (SELECT DISTINCT chunk.u AS u FROM chunk)
            WHERE (SELECT count(*) FROM ${notifications} WHERE ${notifications.userId} = u) > ${NOTIFICATIONS_PER_WALLET}`,
      ),
      sql`UPDATE ${s} SET ${sql.identifier(s.lastMatchAt.name)} = ${now} WHERE ${s.id} IN (${chunk} SELECT told.id FROM told) AND ${at(cursor)}`,
      // Past the chunk's last subscriber; or, when no subscriber of the listed queries is left after it, past all of
      // them (ALL_TOLD), so a query whose subscribers all went is not listed again.
      sql`${chunk} UPDATE ${c} SET (${sql.identifier(c.matchQuery.name)}, ${sql.identifier(c.matchSearch.name)}) = (
            SELECT CASE WHEN more THEN q ELSE ${lastQuery} END, CASE WHEN more THEN id ELSE ${ALL_TOLD} END
            FROM (SELECT last.q AS q, last.id AS id,
                    last.id IS NOT NULL AND (EXISTS (SELECT 1 FROM ${s} WHERE ${s.queryId} = last.q AND ${s.id} > last.id)
                      OR EXISTS (SELECT 1 FROM ${s} WHERE ${s.queryId} IN (SELECT news.q FROM news WHERE news.q > last.q))) AS more
                  FROM (SELECT 1) LEFT JOIN (SELECT chunk.q AS q, chunk.id AS id FROM chunk ORDER BY chunk.q DESC, chunk.id DESC LIMIT 1) AS last ON 1))
          WHERE ${c.id} = 1 AND ${at(cursor)}
          RETURNING ${sql.identifier(c.matchQuery.name)} AS matchQuery, ${sql.identifier(c.matchSearch.name)} AS matchSearch`,
    ]);
    const [next] = written[3].results as { matchQuery: number; matchSearch: number }[];
    if (!next) return -1;
    cursor = { ...cursor, matchQuery: next.matchQuery, matchSearch: next.matchSearch };
    const told = written[2].meta.changes ?? 0;
    report.directNotices += told;
    report.savedSearchMatches += told;
  }

  // The batch closed: the events read are deleted, the cursor moves on.
  const closed = await writeBatch(db, [
    sql`DELETE FROM ${e} WHERE ${e.id} <= ${to} AND ${at(cursor)}`,
    move(cursor, { last: to, batchTo: null, matchQuery: null, matchSearch: null }),
  ]);
  if (!moved(closed)) return -1;
  report.events += events.length;
  return events.length;
}

/** A listing as a saved search's notification names it: [id, address, network, reason]. */
const listingNews = (l: ChangedListing) => [l.id, l.address, l.network, l.reason];

/** What one query's subscribers are told (chunkOf's news rows): its match count, last listing and last of another seller, each subscribing seller's own matches. */
const newsRow = (m: QueryMatch) => ({
  q: m.queryId,
  n: m.count,
  s: m.latest.sellerId,
  l: listingNews(m.latest),
  o: m.other ? listingNews(m.other) : null,
  w: m.own.size === 0 ? null : Object.fromEntries(m.own),
});

/**
 * The tables every statement of a chunk's write reads, recomputed by each inside the one transaction: `news`, the
 * listed queries' rows (newsRow); `chunk`, the next SUBSCRIBERS_PER_CHUNK subscribers of those queries after the
 * cursor `p`, in (query_id, id) order on the saved_searches_query index; `told`, those of the chunk with something
 * to be told, and what: the query's matches less their own listings, and its last listing, or when that one is
 * their own the last of another seller (a seller is never told about their own listing).
 */
function chunkOf(news: string, p: Cursor): SQL {
  const s = savedSearches;
  const field = (name: string) => sql.raw(`json_extract(j.value, '$.${name}')`);
  return sql`WITH news AS MATERIALIZED (
        SELECT ${field("q")} AS q, ${field("n")} AS n, ${field("s")} AS seller, ${field("l")} AS latest, ${field("o")} AS other, ${field("w")} AS own
        FROM json_each(${news}) AS j),
      chunk AS (
        SELECT ${s.id} AS id, ${s.userId} AS u, ${s.queryId} AS q FROM ${s}
        WHERE ${s.queryId} IN (SELECT news.q FROM news) AND (${s.queryId}, ${s.id}) > (${p.matchQuery ?? 0}, ${p.matchSearch ?? 0})
        ORDER BY ${s.queryId}, ${s.id} LIMIT ${SUBSCRIBERS_PER_CHUNK}),
      told AS (
        SELECT id, u, cnt, pick FROM (
          SELECT chunk.id AS id, chunk.u AS u, news.n - coalesce(json_extract(news.own, '$."' || chunk.u || '"'), 0) AS cnt,
                 CASE WHEN news.seller IS chunk.u THEN news.other ELSE news.latest END AS pick
          FROM chunk JOIN news ON news.q = chunk.q)
        WHERE cnt > 0 AND pick IS NOT NULL)`;
}

const listingData = (l: ListingRow) => ({ listingId: l.id, address: l.address, network: l.network, currency: l.currency, price: l.price });

/**
 * What each listing's watchers are told, one notice per listing and kind of news: a price drop (from the price
 * before the first drop of the batch to the price now, if it is still lower and the listing still on sale), and
 * where the listing stands after the batch's reservations and sales: reserved, for sale again (not when it was
 * reserved and freed within the batch: nothing changed for the watcher), or sold. The buyer who reserved or bought
 * is not told about their own purchase as a watcher.
 */
function watcherNotices(events: EventRow[], listings: Map<number, ListingRow>): WatcherNotification[] {
  const perListing = new Map<number, { firstDropFrom: string | null; firstState: EventRow | null; lastState: EventRow | null }>();
  for (const ev of events) {
    if (ev.addressId === null || !["price_drop", "reserved", "freed", "sold"].includes(ev.kind)) continue;
    const entry = perListing.get(ev.addressId) ?? { firstDropFrom: null, firstState: null, lastState: null };
    if (ev.kind === "price_drop") entry.firstDropFrom ??= ev.previousPrice;
    else {
      entry.firstState ??= ev;
      entry.lastState = ev;
    }
    perListing.set(ev.addressId, entry);
  }
  const notices: WatcherNotification[] = [];
  for (const [id, entry] of perListing) {
    const l = listings.get(id);
    if (!l) continue;
    const from = safeUnits(entry.firstDropFrom);
    if (from !== null && BigInt(l.priceUnits) < from && inListingSet(LISTING_CHANGEABLE, l.status)) {
      notices.push({ listingId: id, kind: "watch_price_drop", data: { ...listingData(l), previousPrice: entry.firstDropFrom } });
    }
    const last = entry.lastState;
    if (!last) continue;
    if (last.kind === "reserved") {
      notices.push({
        listingId: id,
        kind: "watch_reserved",
        except: last.userId,
        data: { ...listingData(l), until: last.until === null ? null : new Date(last.until).toISOString() },
      });
    } else if (last.kind === "freed" && entry.firstState?.kind !== "reserved") {
      notices.push({ listingId: id, kind: "watch_freed", except: last.userId, data: listingData(l) });
    } else if (last.kind === "sold") {
      notices.push({ listingId: id, kind: "watch_sold", except: last.userId, data: { ...listingData(l), price: last.price ?? l.price } });
    }
  }
  return notices;
}

/** What buyers are told: a purchase completed, a custom order found. */
function directNotices(
  events: EventRow[],
  listings: Map<number, ListingRow>,
  orders: Map<number, { id: number; address: string | null; price: string }>,
): NotificationInput[] {
  const notices: NotificationInput[] = [];
  for (const ev of events) {
    if (ev.userId === null || ev.ref === null) continue;
    if (ev.kind === "sold") {
      const l = ev.addressId === null ? undefined : listings.get(ev.addressId);
      notices.push({
        userId: ev.userId,
        kind: "purchase_completed",
        subject: `purchase:${ev.ref}`,
        addressId: ev.addressId,
        data: {
          transactionId: ev.ref,
          listingId: ev.addressId,
          address: l?.address ?? "",
          network: l?.network ?? null,
          currency: l?.currency ?? "",
          price: ev.price,
          customOrderId: l?.customOrderId ?? null,
        },
      });
    } else if (ev.kind === "order_found") {
      const order = orders.get(Number(ev.ref));
      notices.push({
        userId: ev.userId,
        kind: "custom_order_found",
        subject: `order:${ev.ref}`,
        data: { orderId: Number(ev.ref), address: order?.address ?? "", price: order?.price ?? ev.price, currency: "ETH" },
      });
    }
  }
  return notices;
}

/**
 * The listings saved searches are checked against: those listed (new, or listed again) or cheaper in this batch
 * and for sale now, each once, "new" winning over "cheaper".
 */
function changedListings(events: EventRow[], listings: Map<number, ListingRow>): ChangedListing[] {
  const changed = new Map<number, ChangedListing>();
  for (const ev of events) {
    if ((ev.kind !== "listed" && ev.kind !== "price_drop") || ev.addressId === null) continue;
    const l = listings.get(ev.addressId);
    if (!l || !isOnMarket({ status: l.status, isListed: l.isListed === 1 })) continue;
    const previous = changed.get(l.id);
    const reason = ev.kind === "listed" || previous?.reason === "new" ? "new" : "cheaper";
    changed.delete(l.id);
    changed.set(l.id, {
      id: l.id,
      address: l.address,
      network: l.network,
      category: l.category,
      patternLength: l.patternLength,
      status: l.status,
      isListed: Boolean(l.isListed),
      sellerId: l.sellerId,
      reason,
    });
  }
  return [...changed.values()];
}
