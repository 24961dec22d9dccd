// Making and withdrawing offers (docs/offers.md#making-an-offer). Every rule that racing requests could get past is
// a condition of the INSERT itself or an index: the listing still for sale at the ask the offer was checked against,
// the amount below it and in its currency, one open offer per buyer and listing (offers_one_open_per_buyer), and the
// bounds per wallet and per client network (OFFER_LIMITS).
import { and, eq, sql } from "drizzle-orm";
import { addresses, offers } from "../../schema/db";
import { decimalToUnits, unitsToDecimal, unitsToNumber } from "../../schema/money";
import { offerTo } from "../../schema/offer-lifecycle";
import { checkOfferAmount } from "../../schema/offer-amount";
import { type MakeOfferInput, OFFER_LIMITS, type OfferView } from "../../schema/offers";
import type { AuthSession } from "../auth/session";
import { notificationStatements } from "../collectors/notify";
import { columnList, type Db, writeBatch } from "../db/database";
import { ApiError } from "../http/errors";
import { holdingsBucket } from "../http/rate-limit";
import { visibleListing } from "../listings/listings";
import { liveWaiting, ownOffer } from "./read";
import { canMove, statusAfter, statusIs } from "./status-sql";
import { offerReceived } from "./tell";
import { networkName } from "../../schema/network";
import { isOnMarket } from "../../schema/listing-lifecycle";
import { onMarket } from "../listings/status-sql";

const o = offers;
const a = addresses;
const DAY_MS = 24 * 60 * 60 * 1000;

// Paused offers count as open ones: each reopens if the accepted offer ahead of it lapses (docs/offers.md#bounds).
const openCount = (where: ReturnType<typeof sql>, now: number) => sql`(SELECT count(*) FROM ${o} WHERE ${where} AND ${liveWaiting(now)})`;

/** POST /api/offers: a new open offer, or a clear refusal that changed nothing. */
export async function makeOffer(db: Db, session: AuthSession, input: MakeOfferInput, ip: string, now = Date.now()): Promise<OfferView> {
  const listing = await visibleListing(db, input.addressId, session);
  if (!listing) throw new ApiError(404, "Address not found");
  if (listing.sellerId === session.userId) throw new ApiError(403, "This is your own listing; you cannot make an offer on it");
  if (listing.network !== session.network) {
    throw new ApiError(403, `This listing is paid on ${listing.network}; sign in with a ${networkName(listing.network)} wallet to make an offer`);
  }
  if (!isOnMarket(listing)) throw new ApiError(409, "This listing is not for sale");
  if (input.currency !== listing.currency) throw new ApiError(400, `currency: this listing is priced in ${listing.currency}; offers are made in its currency`);
  // The offer form's own check (schema/offer-amount.ts): not an amount is a 400, an amount not below the ask a 409.
  const seen = checkOfferAmount(input.amount, listing.price, listing.currency);
  if (!seen.ok && seen.problem === "form") throw new ApiError(400, `amount: ${seen.message}`);
  if (!seen.ok) throw new ApiError(409, `${seen.message}; to pay the ask, buy it`, { currentPrice: listing.price });
  const amountUnits = seen.units;
  // The stored decimal text and units are the same amount (schema/db.ts conventions); the INSERT re-checks the units.
  const askUnits = decimalToUnits(listing.price);
  // A returning buyer's offers count in their own bucket, a new wallet's in its client network's
  // (docs/public-surface.md#returning-buyers); the offer keeps it, and so does the reservation its acceptance makes.
  const network = await holdingsBucket(db, session.userId, ip);
  const expiresAt = now + input.validForHours * 60 * 60 * 1000;
  const amount = unitsToDecimal(amountUnits);
  const mine = and(eq(o.addressId, listing.id), eq(o.buyerId, session.userId));
  const inserted = sql`EXISTS (SELECT 1 FROM ${o} WHERE ${mine} AND ${statusIs(o.status, offerTo("make"))} AND ${o.createdAt} = ${now} AND ${o.amountUnits} = ${unitsToNumber(amountUnits)})`;
  const results = await writeBatch(db, [
    // The buyer's own waiting offer whose time ran out frees its place now, not only at the cron job's next run.
    db
      .update(o)
      .set({ status: offerTo("expire"), endReason: "clock", updatedAt: now })
      .where(and(mine, canMove(o.status, "expire"), sql`${o.expiresAt} <= ${now}`)),
    sql`INSERT INTO ${o} ${columnList(o.addressId, o.buyerId, o.amount, o.amountUnits, o.currency, o.askUnits, o.status, o.expiresAt, o.clientNetwork, o.notifiedStatus, o.createdAt, o.updatedAt)}
        SELECT ${a.id}, ${session.userId}, ${amount}, ${unitsToNumber(amountUnits)}, ${a.currency}, ${a.priceUnits}, ${statusAfter("make")}, ${expiresAt}, ${network}, ${statusAfter("make")}, ${now}, ${now}
        FROM ${a}
        WHERE ${a.id} = ${listing.id} AND ${onMarket(a)} AND ${a.priceUnits} = ${unitsToNumber(askUnits)}
          AND ${a.currency} = ${input.currency} AND ${unitsToNumber(amountUnits)} < ${a.priceUnits}
          AND ${openCount(sql`${o.buyerId} = ${session.userId}`, now)} < ${OFFER_LIMITS.openPerWallet}
          AND ${openCount(sql`${o.clientNetwork} = ${network}`, now)} < ${OFFER_LIMITS.openPerClient}
          AND ${openCount(sql`${o.clientNetwork} = ${network} AND ${o.addressId} = ${listing.id}`, now)} < ${OFFER_LIMITS.openPerClientPerListing}
          AND (SELECT count(*) FROM ${o} WHERE ${o.clientNetwork} = ${network} AND ${o.createdAt} > ${now - DAY_MS}) < ${OFFER_LIMITS.perClientPerDay}
        ON CONFLICT DO NOTHING RETURNING ${o.id}`,
    ...(listing.sellerId === null
      ? []
      : notificationStatements(
          [offerReceived(listing.sellerId, { listingId: listing.id, address: listing.address, amount, currency: listing.currency, ask: listing.price })],
          now,
          inserted,
        )),
  ]);
  const row = results[1].results[0] as { id: number } | undefined;
  if (!row) await explainRefusal(db, session, listing.id, askUnits, network, now);
  const made = await ownOffer(db, session.userId, row!.id, now);
  // Read back from the primary just written: the row is there.
  return made!;
}

/** The INSERT wrote nothing: say which of its conditions refused it, as things are now. */
async function explainRefusal(db: Db, session: AuthSession, listingId: number, askUnits: bigint, network: string, now: number): Promise<never> {
  const listing = await db
    .select({ status: a.status, isListed: a.isListed, price: a.price, priceUnits: a.priceUnits, currency: a.currency })
    .from(a)
    .where(eq(a.id, listingId))
    .get();
  if (!listing || !isOnMarket(listing)) throw new ApiError(409, "This listing is not for sale");
  if (BigInt(listing.priceUnits) !== askUnits) {
    throw new ApiError(409, `The price has changed to ${listing.price} ${listing.currency}; review it and try again`, { currentPrice: listing.price });
  }
  const existing = await db
    .select({ id: o.id, amount: o.amount, status: o.status })
    .from(o)
    .where(and(eq(o.addressId, listingId), eq(o.buyerId, session.userId), liveWaiting(now)))
    .get();
  if (existing) {
    throw new ApiError(
      409,
      `You already have ${existing.status === offerTo("pause") ? "a paused" : "an open"} offer of ${existing.amount} ${listing.currency} on this listing; withdraw it to make another`,
      {
        offerId: existing.id,
      },
    );
  }
  const counts = await db.get<{ wallet: number; net: number; netListing: number; day: number }>(
    sql`SELECT ${openCount(sql`${o.buyerId} = ${session.userId}`, now)} AS wallet, ${openCount(sql`${o.clientNetwork} = ${network}`, now)} AS net,
               ${openCount(sql`${o.clientNetwork} = ${network} AND ${o.addressId} = ${listingId}`, now)} AS netListing,
               (SELECT count(*) FROM ${o} WHERE ${o.clientNetwork} = ${network} AND ${o.createdAt} > ${now - DAY_MS}) AS day`,
  );
  if (counts.wallet >= OFFER_LIMITS.openPerWallet) {
    throw new ApiError(409, `You already have ${OFFER_LIMITS.openPerWallet} open offers, the most one wallet may; withdraw one or wait until one ends`);
  }
  if (counts.netListing >= OFFER_LIMITS.openPerClientPerListing) {
    throw new ApiError(409, `Your network already has ${OFFER_LIMITS.openPerClientPerListing} open offers on this listing, the most one network may`);
  }
  if (counts.net >= OFFER_LIMITS.openPerClient) {
    throw new ApiError(409, `The wallets on your network hold ${OFFER_LIMITS.openPerClient} open offers, the most one network may; withdraw some first`);
  }
  if (counts.day >= OFFER_LIMITS.perClientPerDay) {
    throw new ApiError(429, `Your network has made ${OFFER_LIMITS.perClientPerDay} offers in the last 24 hours, the most one network may; try again later`);
  }
  // Only a race with the same buyer's other offer is left (the unique index).
  throw new ApiError(409, "You already have an open offer on this listing; withdraw it to make another");
}

/** DELETE /api/offers/{id}: the buyer withdraws their own open or paused offer. Someone else's is not found. */
export async function withdrawOffer(db: Db, session: AuthSession, offerId: number, now = Date.now()): Promise<OfferView> {
  const mine = and(eq(o.id, offerId), eq(o.buyerId, session.userId));
  const [updated] = await db
    .update(o)
    .set({ status: offerTo("withdraw"), endReason: "buyer", notifiedStatus: offerTo("withdraw"), updatedAt: now })
    .where(and(mine, liveWaiting(now)))
    .returning({ id: o.id });
  const view = await ownOffer(db, session.userId, offerId, now);
  if (!view) throw new ApiError(404, "Offer not found");
  if (!updated) throw new ApiError(409, `This offer is no longer open (${view.status})`, { status: view.status });
  return view;
}
