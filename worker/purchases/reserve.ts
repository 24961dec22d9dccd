// Reserving a listing (docs/payments.md#the-lifecycle): the server's price, currency and fees; one open purchase
// per listing, at most MAX_OPEN_RESERVATIONS per buyer and MAX_OPEN_RESERVATIONS_PER_NETWORK per client network
// (a wallet is free: docs/public-surface.md#client-networks), all enforced inside the database so racing
// requests cannot get past them; the reservation expires after RESERVATION_MINUTES unpaid. An accepted offer reserves
// through the same plan and write, at the offered price, with the offer's own condition inside the INSERT
// (docs/offers.md#accepting).
import type { Deployment } from "../deployment/deployment";
import { base58 } from "@scure/base";
import { and, desc, eq, gte, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { addresses, gasEstimationAudit, transactions } from "../../schema/db";
import { OPEN, SOLD, type TransitionName, transitionTo, without } from "../../schema/purchase-lifecycle";
import { MAX_OPEN_RESERVATIONS, MAX_OPEN_RESERVATIONS_PER_NETWORK, type FeeCalculation, type OpenPurchase } from "../../schema/purchases";
import { RESERVATION_MINUTES } from "../../schema/reservation";
import type { AuthSession } from "../auth/middleware";
import { paymentVerifier } from "../chain/payment-verifier";
import { recordDisagreements } from "../operations/node-disagreements";
import { auditRow } from "../db/audit";
import { columnList, type Db, writeBatch } from "../db/database";
import { checkPrice, decimalToUnits, unitsToBaseUnits, unitsToDecimal, unitsToNumber } from "../../schema/money";
import { ApiError } from "../http/errors";
import { holdingsBucket } from "../http/rate-limit";
import type { RequestInfo } from "../http/request-info";
import { orderReservationCondition } from "../orders/order-listing";
import { assertSessionWallet } from "./buyer";
import { gasEstimateColumn } from "./purchase-row";
import { type FeeQuote, quoteFees } from "./fee-quote";
import { canMove, statusAfter, statusIn, statusIs } from "./status-sql";
import { networkName } from "../../schema/network";
import { inListingSet, LISTING_ON_MARKET, listingTo } from "../../schema/listing-lifecycle";
import { listingStatusIn } from "../listings/status-sql";

export const RESERVATION_MS = RESERVATION_MINUTES * 60_000;

export type ReserveInput = { addressId: number; buyerId?: string; price?: number | string; currency?: "ETH" | "SOL"; membershipTier?: "basic" };
export type Reservation = { id: string; expiresAt: number; feeCalculation: FeeCalculation };
/** A reservation, and whether it is one the buyer already held (answered 200) rather than a new one (201). */
export type BuyerReservation = Reservation & { reused: boolean };

const listingColumns = {
  id: addresses.id,
  network: addresses.network,
  sellerId: addresses.sellerId,
  price: addresses.price,
  priceUnits: addresses.priceUnits,
  currency: addresses.currency,
  status: addresses.status,
  isListed: addresses.isListed,
};
type ListingRow = Pick<typeof addresses.$inferSelect, keyof typeof listingColumns>;
/**
 * In SQL: the purchase holds its listing for its buyer now: open, and if no payment is reported yet (initiated), not
 * lapsed (the cron job may not have expired it yet).
 */
const openNow = (now: number) =>
  or(statusIn(transactions.status, without(OPEN, "initiated")), and(statusIs(transactions.status, "initiated"), gte(transactions.expiresAt, now)));

export async function reserveListing(
  db: Db,
  deployment: Deployment,
  session: AuthSession,
  input: ReserveInput,
  info: RequestInfo,
  now = Date.now(),
): Promise<Reservation> {
  return writeReservation(db, await planReservation(db, deployment, session, input, now), info);
}

/**
 * The buyer's own open purchase of this listing, or null: initiated and not yet lapsed, or with a payment reported
 * (pending) or verified. Only ever the session's own: the buyer id is part of the query.
 */
export async function openReservationOf(db: Db, listingId: number, buyerId: number, now = Date.now()): Promise<Reservation | null> {
  const t = transactions;
  const open = await db
    .select({ id: t.id, expiresAt: t.expiresAt, price: t.price, totalAmount: t.totalAmount, gas: gasEstimateColumn() })
    .from(t)
    .where(and(eq(t.addressId, listingId), eq(t.buyerId, buyerId), openNow(now)))
    .orderBy(desc(t.createdAt))
    .limit(1)
    .get();
  if (!open) return null;
  const gas = open.gas === null ? 0n : decimalToUnits(open.gas);
  return {
    id: open.id,
    // Set at every reservation (writeReservation): never null on an open purchase.
    expiresAt: open.expiresAt!,
    feeCalculation: { listingPrice: open.price, gasFee: unitsToDecimal(gas), totalAmount: unitsToDecimal(decimalToUnits(open.totalAmount) + gas) },
  };
}

/** The buyer's open purchases (GET /api/transactions/open): the same rule as openReservationOf, for every listing. */
export async function openPurchasesOf(db: Db, buyerId: number, now = Date.now()): Promise<OpenPurchase[]> {
  const t = transactions;
  const rows = await db
    .select({ id: t.id, addressId: t.addressId, status: t.status, expiresAt: t.expiresAt })
    .from(t)
    .where(and(eq(t.buyerId, buyerId), openNow(now)))
    .orderBy(desc(t.createdAt));
  return rows.map((r) => ({
    transactionId: r.id,
    addressId: r.addressId,
    status: r.status as OpenPurchase["status"],
    expiresAt: new Date(r.expiresAt ?? now).toISOString(),
  }));
}

/**
 * Buy, as the buy buttons call it: a buyer who already holds an open purchase of this listing gets
 * that purchase back (reused: the route answers 200) instead of "reserved by another buyer"; anyone else reserves
 * as usual (201). The wallet check comes first, so a mismatched buyerId is refused either way.
 */
export async function reserveOrReuse(
  db: Db,
  deployment: Deployment,
  session: AuthSession,
  input: ReserveInput,
  info: RequestInfo,
  now = Date.now(),
): Promise<BuyerReservation> {
  assertSessionWallet(session, input.buyerId, "buyerId");
  const open = await openReservationOf(db, input.addressId, session.userId, now);
  if (open) return { ...open, reused: true };
  return { ...(await reserveListing(db, deployment, session, input, info, now)), reused: false };
}

/** In SQL: the listing is still for sale as the plan read it (active, listed or its order's, at the same price). */
function forSale(listing: ListingRow, orderCondition: SQL | null): SQL {
  return sql`EXISTS (SELECT 1 FROM ${addresses} WHERE ${addresses.id} = ${listing.id} AND ${listingStatusIn(addresses.status, LISTING_ON_MARKET)} AND ${addresses.priceUnits} = ${listing.priceUnits}
                       AND ${orderCondition ? sql`1` : sql`${addresses.isListed} = 1`})`;
}

/** In SQL: how many open purchases match `who` (the buyer's, or the client network's). */
const openCount = (who: SQL) => sql`(SELECT count(*) FROM ${transactions} WHERE ${who} AND ${statusIn(transactions.status, OPEN)})`;

/** The insert wrote nothing: say which of its conditions refused it, as things are now. */
async function explainRefusal(db: Db, plan: ReservationPlan, network: string): Promise<never> {
  const { listing, session, now } = plan;
  if (plan.offer) {
    const still = await db.get<{ ok: number }>(sql`SELECT ${plan.offer.stillOpen} AS ok`);
    if (!still.ok) throw new ApiError(409, "This offer is no longer open");
  }
  const current = await db
    .select({ status: addresses.status, isListed: addresses.isListed, price: addresses.price, priceUnits: addresses.priceUnits })
    .from(addresses)
    .where(eq(addresses.id, listing.id))
    .get();
  const sold = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.addressId, listing.id), statusIn(transactions.status, SOLD)))
    .limit(1)
    .get();
  if (!current || sold || !inListingSet(LISTING_ON_MARKET, current.status) || (!current.isListed && !plan.orderCondition)) {
    throw new ApiError(409, "This listing is not available for purchase");
  }
  if (current.priceUnits !== listing.priceUnits) {
    throw new ApiError(409, `The price has changed to ${current.price} ${listing.currency}; review it and try again`, { currentPrice: current.price });
  }
  // One of the bounds or the order's state refused the insert: the order's state answers for itself.
  if (plan.orderCondition) await orderReservationCondition(db, listing.id, session, now);
  const counts = await db.get<{ buyer: number; network: number }>(
    sql`SELECT ${openCount(eq(transactions.buyerId, session.userId))} AS buyer, ${openCount(eq(transactions.clientNetwork, network))} AS network`,
  );
  if (plan.offer) {
    throw new ApiError(
      409,
      counts.buyer >= MAX_OPEN_RESERVATIONS
        ? `The buyer already holds ${MAX_OPEN_RESERVATIONS} open reservations; the offer stays open until they pay for or cancel one, or it expires`
        : `The buyer's network already holds ${MAX_OPEN_RESERVATIONS_PER_NETWORK} open reservations; the offer stays open until one of them ends, or it expires`,
    );
  }
  if (counts.network >= MAX_OPEN_RESERVATIONS_PER_NETWORK && counts.buyer < MAX_OPEN_RESERVATIONS) {
    throw new ApiError(
      409,
      `Your network already holds ${MAX_OPEN_RESERVATIONS_PER_NETWORK} open reservations (the most one network may hold, whichever wallets made them); pay for or cancel one, or wait until one expires`,
    );
  }
  throw new ApiError(409, `You already hold ${MAX_OPEN_RESERVATIONS} open reservations; pay for or cancel one first`);
}

/**
 * An accepted offer's terms (worker/offers/answer.ts): the reservation is its buyer's, at the offered price, and is
 * written only while the offer is still open.
 */
export type OfferTerms = {
  offerId: number;
  /** The seller's (or admin's) wallet that accepted it, for the audit row (the purchase itself is the buyer's). */
  acceptedBy: string;
  /** The offered amount, below the ask: the purchase's price, from which the fees are computed as for any price. */
  price: string;
  priceUnits: bigint;
  /** The client network the offer was made from: its bounds count the reservation, not the seller's network's. */
  clientNetwork: string;
  /** In SQL: the offer is still open, unexpired, and the ask is what it was when the offer was made. */
  stillOpen: SQL;
  /** Statements for the same batch, after the insert; each must hold `reserved` (the insert wrote) as a condition. */
  alsoWrite: (reserved: SQL, purchaseId: string, expiresAt: number) => SQLWrapper[];
};

/** Everything a reservation needs, read before it is written: the listing, the price, the fees, the chain head. */
export type ReservationPlan = {
  /** An accepted offer's terms, or null for a purchase at the ask. */
  offer: OfferTerms | null;
  session: AuthSession;
  listing: ListingRow;
  orderCondition: SQL | null;
  fees: FeeQuote;
  payUnits: bigint;
  scanFrom: number | null;
  /** The node's newest block or slot at reservation: a transfer mined before it never pays this purchase. */
  reservedBlock: number | null;
  now: number;
};

/**
 * The reads and chain calls before the write. Nothing here holds: between this and writeReservation another
 * purchase may settle or reserve the listing, which is why the INSERT re-states every condition itself.
 */
export async function planReservation(
  db: Db,
  deployment: Deployment,
  session: AuthSession,
  input: ReserveInput,
  now = Date.now(),
  offer: OfferTerms | null = null,
): Promise<ReservationPlan> {
  assertSessionWallet(session, input.buyerId, "buyerId");
  const listing: ListingRow | undefined = await db.select(listingColumns).from(addresses).where(eq(addresses.id, input.addressId)).get();
  if (!listing || listing.status === listingTo("delete")) throw new ApiError(404, "Listing not found");
  if (listing.sellerId === session.userId) throw new ApiError(403, "This is your own listing; you cannot buy it");
  if (listing.network !== session.network) {
    throw new ApiError(403, `This listing is paid on ${listing.network}; sign in with a ${networkName(listing.network)} wallet to buy it`);
  }
  // A custom order's hidden listing is reservable by that order's buyer alone, while the order may be paid.
  const orderCondition = await orderReservationCondition(db, listing.id, session, now);
  if (!inListingSet(LISTING_ON_MARKET, listing.status) || (!listing.isListed && !orderCondition))
    throw new ApiError(409, "This listing is not available for purchase");
  if (input.currency !== undefined && input.currency !== listing.currency) {
    throw new ApiError(409, `This listing is priced in ${listing.currency}`, { currentPrice: listing.price, currency: listing.currency });
  }
  if (input.price !== undefined) {
    const seen = checkPrice(input.price);
    if (!seen.ok || seen.units !== BigInt(listing.priceUnits)) {
      throw new ApiError(409, `The price has changed to ${listing.price} ${listing.currency}; review it and try again`, { currentPrice: listing.price });
    }
  }

  // An accepted offer is charged its amount; the fees follow from it as from any price.
  const priceUnits = offer ? offer.priceUnits : BigInt(listing.priceUnits);
  const fees = await quoteFees(db, deployment.ethereum, listing.network, priceUnits, input.membershipTier ?? "basic", now);
  // What is paid to the platform: price and platform fees. Gas goes to the network from the buyer's wallet.
  const payUnits = fees.listingPrice + fees.exchangeFee + fees.commissionFee;
  // The quorum's position (the k-th highest head): no node alone moves where payments may start.
  const reservedBlock = await paymentVerifier(deployment, listing.network, recordDisagreements(db)).chainPosition();
  // Ethereum's scan reads blocks from here on; Solana's finds payments by their reference key.
  const scanFrom = listing.network === "ethereum" ? reservedBlock : null;
  return { offer, session, listing, orderCondition, fees, payUnits, scanFrom, reservedBlock, now };
}

const g = gasEstimationAudit;
/** In SQL: the batch's insert wrote purchase `id`. */
const reserved = (id: string) => sql`EXISTS (SELECT 1 FROM ${transactions} WHERE ${transactions.id} = ${id})`;

/** The reservation's one D1 batch. */
export async function writeReservation(db: Db, plan: ReservationPlan, info: RequestInfo): Promise<Reservation> {
  const { offer, session, listing, orderCondition, fees, payUnits, scanFrom, reservedBlock, now } = plan;
  // The bucket the network bound counts: the offer's, or the buyer's own once they are a returning buyer
  // (docs/public-surface.md#returning-buyers), else their client network's.
  const network = offer ? offer.clientNetwork : await holdingsBucket(db, session.userId, info.ip);
  const price = offer ? { text: offer.price, units: unitsToNumber(offer.priceUnits) } : { text: listing.price, units: listing.priceUnits };
  const id = crypto.randomUUID();
  const reference = listing.network === "solana" ? base58.encode(crypto.getRandomValues(new Uint8Array(32))) : null;
  const expiresAt = now + RESERVATION_MS;
  const t = transactions;
  const open = statusIn(t.status, OPEN);
  // The same write reserves for a buyer at the ask, for a custom order's buyer, and for an accepted offer's buyer.
  const transition: TransitionName = offer ? "offer-accept" : orderCondition ? "order-pay" : "reserve";

  let inserted;
  try {
    const results = await writeBatch(db, [
      // A lapsed reservation frees the listing now, not only at the next cron run.
      db
        .update(t)
        .set({ status: transitionTo("expire"), failureReason: "expired", updatedAt: now })
        .where(and(eq(t.addressId, listing.id), canMove(t.status, "expire"), sql`${t.expiresAt} < ${now}`)),
      // Every condition is part of the insert, so the database judges them at the moment of writing: the caps per
      // buyer and per client network (concurrent initiates are counted by the database itself, so a burst from many
      // wallets of one network cannot slip past) and the listing still for sale at the price quoted (a purchase
      // that settled, or an admin or seller who changed it, since the plan was read wins).
      sql`
        INSERT INTO ${t} ${columnList(
          t.id,
          t.addressId,
          t.buyerId,
          t.sellerId,
          t.buyerWallet,
          t.network,
          t.price,
          t.priceUnits,
          t.currency,
          t.exchangeFee,
          t.commissionFee,
          t.totalAmount,
          t.totalUnits,
          t.status,
          t.paymentReference,
          t.expiresAt,
          t.amountBaseUnits,
          t.scanFromBlock,
          t.reservedBlock,
          t.clientNetwork,
          t.createdAt,
          t.updatedAt,
        )}
        SELECT ${id}, ${listing.id}, ${session.userId}, ${listing.sellerId}, ${session.walletAddress}, ${listing.network}, ${price.text},
               ${price.units}, ${listing.currency}, ${unitsToDecimal(fees.exchangeFee)}, ${unitsToDecimal(fees.commissionFee)},
               ${unitsToDecimal(payUnits)}, ${unitsToNumber(payUnits)}, ${statusAfter(transition)}, ${reference}, ${expiresAt},
               ${unitsToBaseUnits(payUnits, listing.currency).toString()}, ${scanFrom}, ${reservedBlock}, ${network}, ${now}, ${now}
        WHERE ${openCount(eq(t.buyerId, session.userId))} < ${MAX_OPEN_RESERVATIONS}
          AND ${openCount(eq(t.clientNetwork, network))} < ${MAX_OPEN_RESERVATIONS_PER_NETWORK}
          AND ${forSale(listing, orderCondition)}
          AND NOT EXISTS (SELECT 1 FROM ${t} WHERE ${t.addressId} = ${listing.id} AND ${statusIn(t.status, SOLD)})
          AND ${orderCondition ?? sql`1`}
          AND ${offer ? offer.stillOpen : sql`1`}`,
      auditRow(
        {
          transactionId: id,
          addressId: listing.id,
          action: "reserved",
          performedBy: session.walletAddress,
          metadata: { price: price.text, total: unitsToDecimal(payUnits), ...(offer ? { offerId: offer.offerId, acceptedBy: offer.acceptedBy } : {}) },
          request: info,
          timestamp: now,
        },
        { where: reserved(id) },
      ),
      sql`INSERT INTO ${g} ${columnList(g.transactionId, g.network, g.estimatedGas, g.estimatedGasPrice, g.estimatedCost, g.createdAt)}
                 SELECT ${id}, ${listing.network}, ${listing.network === "ethereum" ? "21000" : null}, ${fees.gas.gasPriceWei?.toString() ?? null},
                        ${unitsToDecimal(fees.gasFee)}, ${now}
                 WHERE ${reserved(id)}`,
      ...(offer ? offer.alsoWrite(reserved(id), id, expiresAt) : []),
    ]);
    inserted = (results[1] as D1Result).meta.changes ?? 0;
  } catch (err) {
    if (!/UNIQUE constraint failed/i.test(err instanceof Error ? err.message : String(err))) throw err;
    const holder = await db
      .select({ expiresAt: t.expiresAt })
      .from(t)
      .where(and(eq(t.addressId, listing.id), open))
      .limit(1)
      .get();
    throw new ApiError(409, "This listing is reserved by another buyer", { reservedUntil: new Date(holder?.expiresAt ?? now + RESERVATION_MS).toISOString() });
  }
  if (inserted === 0) await explainRefusal(db, plan, network);
  return {
    id,
    expiresAt,
    feeCalculation: {
      listingPrice: unitsToDecimal(fees.listingPrice),
      gasFee: unitsToDecimal(fees.gasFee),
      totalAmount: unitsToDecimal(payUnits + fees.gasFee),
    },
  };
}
