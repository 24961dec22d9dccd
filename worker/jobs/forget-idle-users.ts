// Wallets that never did anything are forgotten (docs/sign-in.md#idle-wallets-are-forgotten): signing in writes a
// users row, and wallets cost nothing, so without this the table grows by every wallet anyone ever signed in with.
// A row goes once nothing refers to it and its wallet has not signed in for USER_IDLE_DAYS. Each run reads one
// slice of the table, USERS_FORGET_SLICE rows in id order after where the last run stopped (job_cursors), so a run's
// work is bounded however many old wallets are kept for what they did; after the last slice it starts again.
import { and, eq, gt, sql } from "drizzle-orm";
import {
  addresses,
  collectorEvents,
  customOrders,
  jobCursors,
  listingPromotions,
  notifications,
  offers,
  orderGrinders,
  savedSearches,
  sessions,
  supplyClaims,
  supplyTargets,
  transactions,
  users,
  watchlist,
} from "../../schema/db";
import type { Db } from "../db/database";

/** Days a wallet with nothing on this store is kept after its latest sign-in (or its row's creation). */
export const USER_IDLE_DAYS = 30;
/** Users rows one run reads, and so at most deletes. */
export const USERS_FORGET_SLICE = 500;
const CURSOR = "forget-idle-users";

const u = users;

/**
 * Every column that names a user: a listing's seller, a purchase's buyer and seller, an offer's buyer, a watchlist
 * entry, a saved search, a session, a notification, a custom order (placed or taken), a grinder, a supply target or
 * claim, a promotion, a pending collector event. A row is forgotten only when none of them names it, so no row is
 * left pointing at a deleted user; forget-idle-users.test.ts holds this list to every column of the schema that
 * references users.
 */
export const USER_REFERENCES = [
  addresses.sellerId,
  transactions.buyerId,
  transactions.sellerId,
  offers.buyerId,
  watchlist.userId,
  savedSearches.userId,
  sessions.userId,
  notifications.userId,
  customOrders.buyerId,
  customOrders.takenBy,
  orderGrinders.adminId,
  supplyTargets.createdBy,
  supplyClaims.adminId,
  listingPromotions.purchasedBy,
  collectorEvents.userId,
] as const;

/** In SQL: no column of USER_REFERENCES names the user. */
const unreferenced = sql.join(
  USER_REFERENCES.map((column) => sql`NOT EXISTS (SELECT 1 FROM ${column.table} WHERE ${column} = ${u.id})`),
  sql` AND `,
);

/** Deletes the idle, unreferenced users of this run's slice; how many. */
export async function forgetIdleUsers(db: Db, now: number): Promise<number> {
  const cursor = await db.select({ position: jobCursors.position }).from(jobCursors).where(eq(jobCursors.name, CURSOR)).get();
  const after = cursor?.position ?? 0;
  const slice = await db.all<{ last: number | null; n: number }>(
    sql`SELECT max(id) AS last, count(*) AS n FROM (SELECT ${u.id} AS id FROM ${u} WHERE ${u.id} > ${after} ORDER BY ${u.id} LIMIT ${USERS_FORGET_SLICE})`,
  );
  const { last, n } = slice[0];
  // The last slice: the next run starts from the beginning again.
  const next = n < USERS_FORGET_SLICE ? 0 : (last ?? 0);
  const idleSince = now - USER_IDLE_DAYS * 24 * 60 * 60 * 1000;
  const [deleted] = await db.batch([
    // Every condition is judged again in this one statement: a wallet that signs in or acts meanwhile is kept.
    db
      .delete(u)
      .where(
        and(
          gt(u.id, after),
          sql`${u.id} <= ${last ?? after}`,
          eq(u.isAdmin, false),
          sql`coalesce(${u.lastSignInAt}, ${u.createdAt}) < ${idleSince}`,
          unreferenced,
        ),
      ),
    db
      .insert(jobCursors)
      .values({ name: CURSOR, position: next })
      .onConflictDoUpdate({ target: jobCursors.name, set: { position: next } }),
  ]);
  return deleted.meta.changes ?? 0;
}
