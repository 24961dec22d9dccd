// The watchlist (docs/collectors.md#watchlist): a wallet stars listings it can see, keeps at most
// WATCHLIST_LIMITS.perWallet of them, and all the wallets of one client network together at most perClient. Both
// bounds, and one star per wallet and listing, are conditions of the INSERT itself (and the unique index), so
// requests racing each other cannot pass them. Who watches a listing is never said; how many is public.
import { and, count, desc, eq, type SQL, sql } from "drizzle-orm";
import { WATCHLIST_LIMITS, type WatchAnswer, type WatchedListing, type WatchState } from "../../schema/collectors";
import { addresses, watchlist } from "../../schema/db";
import { changePercentage } from "../../schema/money";
import type { AuthSession } from "../auth/session";
import { columnList, type Db, writeBatch } from "../db/database";
import { formatUsd, type UsdRates } from "../domain/prices";
import { ApiError } from "../http/errors";
import { listingReservations, rarityString } from "../listings/listing-view";
import { visibleListing } from "../listings/listings";
import { isOnMarket, LISTING_KEPT, listingTo } from "../../schema/listing-lifecycle";
import { listingStatusIn } from "../listings/status-sql";

const w = watchlist;
const a = addresses;

const watchersOf = (listingId: number) => sql`(SELECT count(*) FROM ${w} WHERE ${w.addressId} = ${listingId})`;

/** The listing as the caller may see it (visibleListing: a deleted or custom-order listing is 404 to others). */
async function seeListing(db: Db, session: AuthSession, listingId: number) {
  const row = await visibleListing(db, listingId, session);
  if (!row) throw new ApiError(404, "Address not found");
  return row;
}

/** How many wallets watch `listingId` (any visitor may ask; 404 as the listing itself would be). */
export async function watcherCount(db: Db, listingId: number, viewer: AuthSession | null): Promise<number> {
  const row = await visibleListing(db, listingId, viewer);
  if (!row) throw new ApiError(404, "Address not found");
  const [{ n }] = await db.select({ n: count() }).from(w).where(eq(w.addressId, listingId));
  return n;
}

/**
 * Stars a listing. Answers `created` false when it was already starred (a second star changes nothing); 409 when
 * the wallet's or the client network's watchlist is full.
 */
export async function star(db: Db, session: AuthSession, listingId: number, clientKey: string, now: number): Promise<WatchAnswer & { created: boolean }> {
  await seeListing(db, session, listingId);
  const bounded: SQL = sql`(SELECT count(*) FROM ${w} WHERE ${w.userId} = ${session.userId}) < ${WATCHLIST_LIMITS.perWallet}
    AND (SELECT count(*) FROM ${w} WHERE ${w.clientKey} = ${clientKey}) < ${WATCHLIST_LIMITS.perClient}`;
  const [inserted, watchers] = await writeBatch(db, [
    sql`INSERT INTO ${w} ${columnList(w.userId, w.addressId, w.priceAtStar, w.priceUnitsAtStar, w.clientKey, w.createdAt)}
        SELECT ${session.userId}, ${a.id}, ${a.price}, ${a.priceUnits}, ${clientKey}, ${now} FROM ${a}
        WHERE ${a.id} = ${listingId} AND ${listingStatusIn(a.status, LISTING_KEPT)} AND ${bounded}
        ON CONFLICT DO NOTHING RETURNING ${w.id}`,
    sql`SELECT ${watchersOf(listingId)} AS n`,
  ]);
  const n = Number((watchers.results[0] as { n: number }).n);
  if (inserted.results.length > 0) return { listingId, watching: true, watchers: n, created: true };
  const [mine] = await db
    .select({ id: w.id })
    .from(w)
    .where(and(eq(w.userId, session.userId), eq(w.addressId, listingId)));
  if (mine) return { listingId, watching: true, watchers: n, created: false };
  const [{ own }] = await db.select({ own: count() }).from(w).where(eq(w.userId, session.userId));
  if (own >= WATCHLIST_LIMITS.perWallet)
    throw new ApiError(409, `Your watchlist is full (${WATCHLIST_LIMITS.perWallet} addresses); remove one to watch another`);
  const [{ net }] = await db.select({ net: count() }).from(w).where(eq(w.clientKey, clientKey));
  if (net >= WATCHLIST_LIMITS.perClient)
    throw new ApiError(
      409,
      `The wallets on your network watch ${WATCHLIST_LIMITS.perClient} addresses, the most one network may; remove some to watch another`,
    );
  // Deleted between the visibility check and the insert.
  throw new ApiError(404, "Address not found");
}

/** Removes a star; unstarring what is not starred changes nothing. 404 for a listing the caller cannot see and does not watch. */
export async function unstar(db: Db, session: AuthSession, listingId: number): Promise<WatchAnswer> {
  const [removed, watchers] = await writeBatch(db, [
    db
      .delete(w)
      .where(and(eq(w.userId, session.userId), eq(w.addressId, listingId)))
      .returning({ id: w.id }),
    sql`SELECT ${watchersOf(listingId)} AS n`,
  ]);
  // A listing deleted after it was starred can still be removed from the list; anything else unseen is a 404.
  if (removed.results.length === 0) await seeListing(db, session, listingId);
  return { listingId, watching: false, watchers: Number((watchers.results[0] as { n: number }).n) };
}

/** The caller's watched listing ids, newest star first. */
export async function watchedIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db.select({ id: w.addressId }).from(w).where(eq(w.userId, userId)).orderBy(desc(w.createdAt), desc(w.id));
  return rows.map((r) => r.id);
}

/** Profile > Watchlist: each starred listing as it is now, newest star first. */
export async function watchlistOf(db: Db, userId: number, rates: UsdRates, now = Date.now()): Promise<WatchedListing[]> {
  const rows = await db
    .select({
      listingId: a.id,
      address: a.address,
      network: a.network,
      pattern: a.pattern,
      rarityScore: a.rarityScore,
      price: a.price,
      priceUnits: a.priceUnits,
      currency: a.currency,
      status: a.status,
      isListed: a.isListed,
      priceAtStar: w.priceAtStar,
      priceUnitsAtStar: w.priceUnitsAtStar,
      starredAt: w.createdAt,
    })
    .from(w)
    .innerJoin(a, eq(a.id, w.addressId))
    .where(eq(w.userId, userId))
    .orderBy(desc(w.createdAt), desc(w.id));
  const held = await listingReservations(
    db,
    rows.map((r) => r.listingId),
    now,
  );
  return rows.map((r) => {
    const reservation = held.get(r.listingId) ?? null;
    const state: WatchState = r.status === listingTo("sell") ? "sold" : !isOnMarket(r) ? "unlisted" : reservation ? "reserved" : "for-sale";
    return {
      listingId: r.listingId,
      address: r.address,
      network: r.network,
      pattern: r.pattern,
      rarityScore: rarityString(r.rarityScore),
      price: r.price,
      currency: r.currency,
      formattedUsd: formatUsd(r.price, r.currency, rates),
      priceAtStar: r.priceAtStar,
      changePercent: changePercentage(BigInt(r.priceUnitsAtStar), BigInt(r.priceUnits)),
      starredAt: new Date(r.starredAt).toISOString(),
      state,
      reservedUntil: state === "reserved" ? reservation!.until : null,
    };
  });
}
