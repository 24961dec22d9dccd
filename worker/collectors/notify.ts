// Writing notifications (docs/collectors.md#notifications), for any part of the Worker: the cron job's events
// (notification-job.ts) and, later, offers. The statements go into the caller's own D1 batch, so a notification
// exists exactly when what it tells about does. For each notification, an unread one of the same wallet, group and
// subject is brought up to date (its kind, its data merged by the group's rule, its time) instead of a second one
// being added (a unique index keeps it so); then each wallet keeps its newest NOTIFICATIONS_PER_WALLET.
import { type SQL, sql } from "drizzle-orm";
import { NOTIFICATIONS_PER_WALLET } from "../../schema/collectors";
import { notifications, watchlist } from "../../schema/db";
import { NOTIFICATION_KINDS, type NotificationKind } from "../../schema/notifications";
import { alias } from "drizzle-orm/sqlite-core";
import { bare, columnList } from "../db/database";

const n = notifications;
/** notifications read again inside a statement that writes it. */
const m = alias(notifications, "m");

/** One notification for one wallet. `subject`: what it is about ("listing:12", "search:3", "offer:7"). */
export type NotificationInput = { userId: number; kind: NotificationKind; subject: string; addressId?: number | null; data: Record<string, unknown> };

/** One notification for every wallet watching a listing, but `except` (the buyer who caused it). */
export type WatcherNotification = { listingId: number; kind: NotificationKind; except?: number | null; data: Record<string, unknown> };

/** A source of rows (u, kind, grp, subject, address_id, data) as SQL. */
type Source = SQL;

const groupOf = (kind: NotificationKind) => NOTIFICATION_KINDS[kind].group;
const field = (name: string) => sql.raw(`json_extract(j.value, '$.${name}')`);

/**
 * The rows as JSON arrays of at most JSON_BYTES each: a statement's parameter is one text, and D1 refuses one over
 * its string limit (SQLITE_TOOBIG past 2 MB, D1's documented limit).
 */
const JSON_BYTES = 1_000_000;
function jsonChunks(rows: unknown[]): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const row of rows) {
    const text = JSON.stringify(row);
    if (current.length > 0 && size + text.length > JSON_BYTES) {
      chunks.push(`[${current.join(",")}]`);
      current = [];
      size = 0;
    }
    current.push(text);
    size += text.length + 1;
  }
  if (current.length > 0) chunks.push(`[${current.join(",")}]`);
  return chunks;
}

function directSource(json: string): Source {
  return sql`SELECT ${field("u")} AS u, ${field("k")} AS kind, ${field("g")} AS grp, ${field("s")} AS subject, ${field("a")} AS address_id,
                    ${field("d")} AS data FROM json_each(${json}) AS j`;
}

function watcherSource(json: string): Source {
  const w = watchlist;
  return sql`SELECT ${w.userId} AS u, ${field("k")} AS kind, ${field("g")} AS grp, 'listing:' || ${field("a")} AS subject, ${field("a")} AS address_id,
                    ${field("d")} AS data
             FROM json_each(${json}) AS j JOIN ${w} ON ${w.addressId} = ${field("a")}
             WHERE ${w.userId} IS NOT ${field("x")}`;
}

/**
 * The upsert that writes a source's notifications, on the unique index of unread notifications
 * (notifications_unread): an unread one of the same wallet, group and subject is brought up to date, so the
 * database holds at most one. `guard`: an SQL condition it also requires (the cron job's cursor), so a batch whose
 * guard fails writes nothing.
 */
function upsert(source: Source, now: number, guard: SQL): SQL {
  // Merge rules by group: a price drop keeps the price it dropped from first; a saved search adds up its matches;
  // everything else says where things stand now.
  const merged = sql`CASE ${n.group}
      WHEN 'price' THEN json_set(excluded.data, '$.previousPrice', json_extract(${n.data}, '$.previousPrice'))
      WHEN 'search' THEN json_set(excluded.data, '$.count', coalesce(json_extract(${n.data}, '$.count'), 0) + coalesce(json_extract(excluded.data, '$.count'), 0))
      ELSE excluded.data END`;
  return sql`INSERT INTO ${n} ${columnList(n.userId, n.kind, n.group, n.subject, n.addressId, n.data, n.createdAt)}
        SELECT src.u, src.kind, src.grp, src.subject, src.address_id, src.data, ${now} FROM (${source}) AS src WHERE ${guard}
        ON CONFLICT (${bare(n.userId)}, ${bare(n.subject)}, ${bare(n.group)}) WHERE ${bare(n.readAt)} IS NULL
        DO UPDATE SET ${bare(n.kind)} = excluded.${bare(n.kind)}, ${bare(n.data)} = ${merged}, ${bare(n.addressId)} = excluded.${bare(n.addressId)},
          ${bare(n.createdAt)} = excluded.${bare(n.createdAt)}`;
}

const always = sql`1`;

/**
 * The upsert of rows that a query of the caller's makes in SQL (columns u, kind, grp, subject, address_id, data): for
 * a job that builds many wallets' notifications from rows already in the database, without reading them out.
 */
export const upsertFromStatement = (source: SQL, now: number, guard: SQL = always): SQL => upsert(source, now, guard);

/** Upserts telling each wallet of `rows` its notification (upsert() above), in chunks of at most JSON_BYTES. */
export function upsertStatements(rows: NotificationInput[], now: number, guard: SQL = always): SQL[] {
  const json = jsonChunks(rows.map((r) => ({ u: r.userId, k: r.kind, g: groupOf(r.kind), s: r.subject, a: r.addressId ?? null, d: r.data })));
  return json.map((chunk) => upsert(directSource(chunk), now, guard));
}

/** Upserts telling every watcher of each listing of `rows` (but its `except` wallet). */
export function watcherUpsertStatements(rows: WatcherNotification[], now: number, guard: SQL = always): SQL[] {
  const json = jsonChunks(rows.map((r) => ({ a: r.listingId, k: r.kind, g: groupOf(r.kind), x: r.except ?? null, d: r.data })));
  return json.map((chunk) => upsert(watcherSource(chunk), now, guard));
}

/**
 * Drops, for every wallet written to at `now` (every upsert sets the time), or for the wallets `users` selects when
 * given, what it holds past NOTIFICATIONS_PER_WALLET, oldest first. Once per batch, after its upserts.
 */
export function keepNewestStatement(now: number, guard: SQL = always, users?: SQL): SQL {
  const written = users ?? sql`SELECT ${n.userId} FROM ${n} WHERE ${n.createdAt} = ${now}`;
  return sql`DELETE FROM ${n} WHERE ${n.id} IN (
      SELECT id FROM (
        SELECT ${m.id} AS id, row_number() OVER (PARTITION BY ${m.userId} ORDER BY ${m.createdAt} DESC, ${m.id} DESC) AS rn
        FROM ${n} ${m} WHERE ${m.userId} IN (${written}))
      WHERE rn > ${NOTIFICATIONS_PER_WALLET}) AND ${guard}`;
}

/** Statements for a batch (yours: a notification exists exactly when what it tells about does) that tell each wallet of `rows`. */
export function notificationStatements(rows: NotificationInput[], now: number, guard: SQL = always): SQL[] {
  return rows.length === 0 ? [] : [...upsertStatements(rows, now, guard), keepNewestStatement(now, guard)];
}
