// The seller answers an offer (docs/offers.md#accepting): accepting reserves the listing for the offer's buyer at the
// offered price through the purchase path itself (purchases/reserve.ts planReservation + writeReservation: fees
// recomputed from the amount, the usual payment window, the bounds per buyer and per client network, one open
// purchase per listing), with "this offer is still open and the ask unchanged since it was made" inside the same
// INSERT; the same batch marks it accepted and pauses the listing's other open offers (they reopen if the reservation
// ends unpaid and are declined when the sale completes: the triggers of migration 0038), so an offer accepted and
// never paid cannot clear a listing's offers. Declining ends one offer. Only the listing's seller or an admin may
// answer; to anyone else an offer is not found; no one accepts an offer they made themselves.
import type { Deployment } from "../deployment/deployment";
import { and, eq, type SQL, sql } from "drizzle-orm";
import { addresses, offers, users } from "../../schema/db";
import { offerCan, offerTo } from "../../schema/offer-lifecycle";
import type { AcceptOfferResponse, ReceivedOfferView } from "../../schema/offers";
import type { AuthSession } from "../auth/session";
import { notificationStatements } from "../collectors/notify";
import { type Db, writeBatch } from "../db/database";
import { ApiError } from "../http/errors";
import type { RequestInfo } from "../http/request-info";
import { planReservation, type ReservationPlan, writeReservation } from "../purchases/reserve";
import { liveOpen, managesListing, type OfferRow, offerWithListing, toView } from "./read";
import { canMove, statusIs } from "./status-sql";
import { offerOutcome } from "./tell";

const o = offers;

/** The offer, if the caller may answer it; 404 otherwise (its existence is the buyer's and the seller's business). */
async function answerable(db: Db, session: AuthSession, offerId: number, now: number, accepting: boolean): Promise<OfferRow> {
  const row = await offerWithListing(db, offerId);
  if (!row || !managesListing(session, row.sellerId)) throw new ApiError(404, "Offer not found");
  // An admin may manage another admin's listing and offer on it: accepting their own offer would be selling to
  // themselves at a price of their choosing.
  if (accepting && row.buyerId === session.userId) throw new ApiError(403, "This is your own offer; you cannot accept it");
  const view = toView(row, now);
  if (!offerCan(accepting ? "accept" : "decline", view.status))
    throw new ApiError(409, `This offer is no longer open (${view.status})`, { status: view.status });
  return row;
}

async function received(db: Db, offerId: number, now: number): Promise<ReceivedOfferView> {
  const row = await offerWithListing(db, offerId);
  const buyer = await db.select({ wallet: users.walletAddress }).from(users).where(eq(users.id, row!.buyerId)).get();
  return { ...toView(row!, now), buyerWallet: buyer?.wallet ?? "", askNow: (await askOf(db, row!.listingId)) ?? "" };
}

const askOf = async (db: Db, listingId: number) =>
  (await db.select({ price: addresses.price }).from(addresses).where(eq(addresses.id, listingId)).get())?.price ?? null;

/** POST /api/offers/{id}/accept. */
export async function acceptOffer(
  db: Db,
  deployment: Deployment,
  session: AuthSession,
  offerId: number,
  info: RequestInfo,
  now = Date.now(),
): Promise<AcceptOfferResponse> {
  const reservation = await writeReservation(db, await planAcceptance(db, deployment, session, offerId, now), info);
  return { offer: await received(db, offerId, now), transactionId: reservation.id, reservedUntil: new Date(reservation.expiresAt).toISOString() };
}

/**
 * The reads before the acceptance's write: the offer, its buyer, the other open offers, the fees of the amount. Nothing
 * here holds until the write, which is why the INSERT re-states "still open, ask unchanged" (stillOpen) itself.
 */
export async function planAcceptance(db: Db, deployment: Deployment, session: AuthSession, offerId: number, now = Date.now()): Promise<ReservationPlan> {
  const offer = await answerable(db, session, offerId, now, true);
  const buyer = await db
    .select({ id: users.id, walletAddress: users.walletAddress, network: users.network })
    .from(users)
    .where(eq(users.id, offer.buyerId))
    .get();
  if (!buyer) throw new ApiError(409, "This offer's buyer no longer exists");
  // The reservation is the buyer's: the purchase path sees their wallet, as when they reserve themselves.
  const buyerSession: AuthSession = { userId: buyer.id, walletAddress: buyer.walletAddress, network: buyer.network, isAdmin: false, expiresAt: now };
  const facts = { listingId: offer.listingId, address: offer.address, currency: offer.currency };
  const stillOpen: SQL = sql`EXISTS (SELECT 1 FROM ${o} WHERE ${o.id} = ${offerId} AND ${liveOpen(now)}
      AND ${o.askUnits} = (SELECT ${addresses.priceUnits} FROM ${addresses} WHERE ${addresses.id} = ${offer.listingId}))`;
  return planReservation(db, deployment, buyerSession, { addressId: offer.listingId, currency: offer.currency }, now, {
    offerId,
    acceptedBy: session.walletAddress,
    price: offer.amount,
    priceUnits: BigInt(offer.amountUnits),
    clientNetwork: offer.clientNetwork,
    stillOpen,
    alsoWrite: (reserved, purchaseId, expiresAt) => [
      db
        .update(o)
        .set({ status: offerTo("accept"), transactionId: purchaseId, notifiedStatus: offerTo("accept"), updatedAt: now })
        .where(and(eq(o.id, offerId), canMove(o.status, "accept"), reserved)),
      // The others wait, untold: a pause is not an end, and most reservations are paid or lapse within minutes.
      db
        .update(o)
        .set({ status: offerTo("pause"), updatedAt: now })
        .where(and(eq(o.addressId, offer.listingId), canMove(o.status, "pause"), reserved)),
      ...notificationStatements(
        [offerOutcome(offer.buyerId, offerTo("accept"), { ...facts, offerId, amount: offer.amount, transactionId: purchaseId, until: expiresAt })!],
        now,
        reserved,
      ),
    ],
  });
}

/** POST /api/offers/{id}/decline. */
export async function declineOffer(db: Db, session: AuthSession, offerId: number, now = Date.now()): Promise<ReceivedOfferView> {
  const offer = await answerable(db, session, offerId, now, false);
  const declinedHere = sql`EXISTS (SELECT 1 FROM ${o} WHERE ${o.id} = ${offerId} AND ${statusIs(o.status, offerTo("decline"))} AND ${o.updatedAt} = ${now})`;
  const [updated] = await writeBatch(db, [
    db
      .update(o)
      .set({ status: offerTo("decline"), endReason: "seller", notifiedStatus: offerTo("decline"), updatedAt: now })
      .where(and(eq(o.id, offerId), liveOpen(now)))
      .returning({ id: o.id }),
    ...notificationStatements(
      [
        offerOutcome(offer.buyerId, offerTo("decline"), {
          listingId: offer.listingId,
          address: offer.address,
          currency: offer.currency,
          offerId,
          amount: offer.amount,
          reason: "seller",
        })!,
      ],
      now,
      declinedHere,
    ),
  ]);
  if (updated.results.length === 0) {
    const current = toView((await offerWithListing(db, offerId))!, now);
    throw new ApiError(409, `This offer is no longer open (${current.status})`, { status: current.status });
  }
  return received(db, offerId, now);
}
