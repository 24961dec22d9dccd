// Reading offers (docs/offers.md#who-sees-what): a buyer reads their own; the seller (or an admin) reads those on
// their listings, best first; anyone reads a listing's count and best amount, never who offered or the others'
// amounts. An open offer past its time reads as expired at once; the cron job writes it so within the minute.
import { and, desc, eq, gt, type SQL, sql } from "drizzle-orm";
import { addresses, offers, users } from "../../schema/db";
import { unitsToDecimal } from "../../schema/money";
import { CURRENT, offerIn, offerTo, WAITING } from "../../schema/offer-lifecycle";
import { OFFER_LIST_MAX, type OfferEndReason, type OfferStatus, type OfferSummary, type OfferView, type ReceivedOfferView } from "../../schema/offers";
import type { AuthSession } from "../auth/session";
import type { Db, RowOf } from "../db/database";
import { ApiError } from "../http/errors";
import { visibleListing } from "../listings/listings";
import { canMove, statusIn, statusIs, statusRank } from "./status-sql";

const o = offers;
const a = addresses;

/** In SQL: an offer is open (the seller may answer it) and its time has not run out at `now`. */
export const liveOpen = (now: number): SQL => sql`${canMove(o.status, "accept")} AND ${o.expiresAt} > ${now}`;

/**
 * In SQL: an offer is waiting (open, or paused behind an accepted one) and its time has not run out: what the bounds
 * count and what its buyer may withdraw. The literal IN matches the partial indexes' own condition.
 */
export const liveWaiting = (now: number): SQL => sql`${statusIn(o.status, WAITING)} AND ${o.expiresAt} > ${now}`;

/** Who may answer a listing's offers: its seller, and any admin (the admins sell every listing today). */
export const managesListing = (session: Pick<AuthSession, "userId" | "isAdmin">, sellerId: number | null) =>
  session.isAdmin || (sellerId !== null && sellerId === session.userId);

const viewColumns = {
  id: o.id,
  listingId: o.addressId,
  address: a.address,
  network: a.network,
  amount: o.amount,
  currency: o.currency,
  askUnits: o.askUnits,
  status: o.status,
  endReason: o.endReason,
  expiresAt: o.expiresAt,
  createdAt: o.createdAt,
  transactionId: o.transactionId,
};
type ViewRow = RowOf<typeof viewColumns>;

export function toView(r: ViewRow, now: number): OfferView {
  const overdue = offerIn(WAITING, r.status) && r.expiresAt <= now;
  return {
    id: r.id,
    listingId: r.listingId,
    address: r.address,
    network: r.network,
    amount: r.amount,
    currency: r.currency,
    ask: unitsToDecimal(BigInt(r.askUnits)),
    status: overdue ? offerTo("expire") : (r.status as OfferStatus),
    endReason: (overdue ? "clock" : r.endReason) as OfferEndReason | null,
    expiresAt: new Date(r.expiresAt).toISOString(),
    createdAt: new Date(r.createdAt).toISOString(),
    transactionId: r.transactionId ?? null,
  };
}

/** Profile > Offers: the caller's offers, newest first. */
export async function offersOf(db: Db, buyerId: number, now = Date.now()): Promise<OfferView[]> {
  const rows = await db
    .select(viewColumns)
    .from(o)
    .innerJoin(a, eq(a.id, o.addressId))
    .where(eq(o.buyerId, buyerId))
    .orderBy(desc(o.createdAt), desc(o.id))
    .limit(OFFER_LIST_MAX);
  return rows.map((r) => toView(r, now));
}

/** The buyer's own offer `offerId`, or null (someone else's is null too). */
export async function ownOffer(db: Db, buyerId: number, offerId: number, now = Date.now()): Promise<OfferView | null> {
  const row = await db
    .select(viewColumns)
    .from(o)
    .innerJoin(a, eq(a.id, o.addressId))
    .where(and(eq(o.id, offerId), eq(o.buyerId, buyerId)))
    .get();
  return row ? toView(row, now) : null;
}

/** One offer, with its listing's seller and current ask (for the seller's routes), or null. */
export async function offerWithListing(db: Db, offerId: number) {
  return (
    (await db
      .select({ ...viewColumns, buyerId: o.buyerId, sellerId: a.sellerId, amountUnits: o.amountUnits, clientNetwork: o.clientNetwork })
      .from(o)
      .innerJoin(a, eq(a.id, o.addressId))
      .where(eq(o.id, offerId))
      .get()) ?? null
  );
}
export type OfferRow = NonNullable<Awaited<ReturnType<typeof offerWithListing>>>;

/** GET /api/offers/listing/{id}: the count and best amount of the listing's open offers, and the caller's own. */
export async function listingSummary(db: Db, listingId: number, viewer: AuthSession | null, now = Date.now()): Promise<OfferSummary> {
  const listing = await visibleListing(db, listingId, viewer);
  if (!listing) throw new ApiError(404, "Address not found");
  const [stats] = await db
    .select({ count: sql<number>`count(*)`, best: sql<number | null>`max(${o.amountUnits})` })
    .from(o)
    .where(and(eq(o.addressId, listingId), liveOpen(now)));
  let mine: OfferView | null = null;
  if (viewer) {
    const row = await db
      .select(viewColumns)
      .from(o)
      .innerJoin(a, eq(a.id, o.addressId))
      .where(and(eq(o.addressId, listingId), eq(o.buyerId, viewer.userId), statusIn(o.status, CURRENT)))
      .orderBy(desc(o.createdAt))
      .limit(1)
      .get();
    mine = row ? toView(row, now) : null;
  }
  return {
    listingId,
    count: Number(stats.count),
    best: stats.best === null ? null : unitsToDecimal(BigInt(stats.best)),
    currency: listing.currency,
    mine,
  };
}

const receivedColumns = { ...viewColumns, buyerWallet: users.walletAddress, askNowUnits: a.priceUnits };

function toReceived(r: ViewRow & { buyerWallet: string; askNowUnits: number }, now: number): ReceivedOfferView {
  return { ...toView(r, now), buyerWallet: r.buyerWallet, askNow: unitsToDecimal(BigInt(r.askNowUnits)) };
}

/**
 * The offers on one listing where the seller acts or should look, for its seller: the accepted one first, then the
 * waiting ones (open, paused) best first (the highest amount; of equal ones, the oldest), then the lapsed ones (an
 * accepted offer that was never paid stays in view, so a seller sees who baited them).
 */
export async function offersOnListing(db: Db, session: AuthSession, listingId: number, now = Date.now()): Promise<ReceivedOfferView[]> {
  const listing = await visibleListing(db, listingId, session);
  if (!listing) throw new ApiError(404, "Address not found");
  if (!managesListing(session, listing.sellerId)) throw new ApiError(403, "Only the seller sees the offers on a listing");
  const rows = await db
    .select(receivedColumns)
    .from(o)
    .innerJoin(a, eq(a.id, o.addressId))
    .innerJoin(users, eq(users.id, o.buyerId))
    .where(and(eq(o.addressId, listingId), sql`(${liveWaiting(now)} OR ${statusIn(o.status, [offerTo("accept"), offerTo("lapse")])})`))
    .orderBy(statusRank(o.status, [[offerTo("accept")], WAITING]), desc(o.amountUnits), o.createdAt, o.id)
    .limit(OFFER_LIST_MAX);
  return rows.map((r) => toReceived(r, now));
}

/**
 * Admin > Offers: the open, paused and accepted offers on the listings the caller sells (an admin: every listing), open
 * ones first, then paused, then accepted, each closest to the ask first: a fraction of the ask compares offers across
 * listings and currencies.
 */
export async function receivedOffers(db: Db, session: AuthSession, now = Date.now()): Promise<ReceivedOfferView[]> {
  const rows = await db
    .select(receivedColumns)
    .from(o)
    .innerJoin(a, eq(a.id, o.addressId))
    .innerJoin(users, eq(users.id, o.buyerId))
    .where(
      and(
        sql`(${liveWaiting(now)} OR ${statusIs(o.status, offerTo("accept"))})`,
        gt(o.askUnits, 0),
        session.isAdmin ? undefined : eq(a.sellerId, session.userId),
      ),
    )
    .orderBy(statusRank(o.status, [[offerTo("make")], [offerTo("pause")]]), sql`${o.amountUnits} * 1.0 / ${o.askUnits} DESC`, o.createdAt, o.id)
    .limit(OFFER_LIST_MAX);
  return rows.map((r) => toReceived(r, now));
}
