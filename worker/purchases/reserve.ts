// Reserving a listing (issue 10 §1, DESIGN §6): the server's price, currency and fees; one open purchase
// per listing and at most MAX_OPEN_RESERVATIONS per buyer, both enforced inside the database so racing
// requests cannot get past them; the reservation expires after RESERVATION_MINUTES unpaid.
import { base58 } from "@scure/base";
import { type SQL, sql } from "drizzle-orm";
import { MAX_OPEN_RESERVATIONS, RESERVATION_MINUTES, type FeeCalculation } from "../../schema/purchases";
import type { AuthSession } from "../auth/middleware";
import { paymentVerifier } from "../chain/payment-verifier";
import type { Db } from "../db";
import { checkPrice, unitsToBaseUnits, unitsToDecimal, unitsToNumber } from "../../schema/money";
import { ApiError } from "../http/errors";
import { orderReservationCondition } from "../orders/order-listing";
import { assertSessionWallet } from "./buyer";
import { type FeeQuote, quoteFees } from "./fee-quote";
import { writeBatch } from "./write-batch";

export const RESERVATION_MS = RESERVATION_MINUTES * 60_000;

export type ReserveInput = { addressId: number; buyerId?: string; price?: number | string; currency?: "ETH" | "SOL"; membershipTier?: "basic" };
export type Reservation = { id: string; expiresAt: number; feeCalculation: FeeCalculation };
export type RequestInfo = { ip: string; userAgent: string | null };

type ListingRow = { id: number; network: "ethereum" | "solana"; seller_id: number | null; price: string; price_units: number; currency: "ETH" | "SOL"; status: string; is_listed: number };

export async function reserveListing(db: Db, env: Env, session: AuthSession, input: ReserveInput, info: RequestInfo, now = Date.now()): Promise<Reservation> {
  return writeReservation(db, await planReservation(db, env, session, input, now), info);
}

/** In SQL: the listing is still for sale as the plan read it (active, listed or its order's, at the same price). */
function forSale(listing: ListingRow, orderCondition: SQL | null): SQL {
  return sql`EXISTS (SELECT 1 FROM addresses WHERE id = ${listing.id} AND status = 'active' AND price_units = ${listing.price_units}
                       AND ${orderCondition ? sql`1` : sql`is_listed = 1`})`;
}

/** The insert wrote nothing: say which of its conditions refused it, as things are now. */
async function explainRefusal(db: Db, plan: ReservationPlan): Promise<never> {
  const { listing, session, now } = plan;
  const current = await db.get<{ status: string; is_listed: number; price: string; price_units: number }>(
    sql`SELECT status, is_listed, price, price_units FROM addresses WHERE id = ${listing.id}`,
  );
  const sold = await db.get<{ id: string }>(sql`SELECT id FROM transactions WHERE address_id = ${listing.id} AND status IN ('verified', 'completed') LIMIT 1`);
  if (!current || sold || current.status !== "active" || (!current.is_listed && !plan.orderCondition)) {
    throw new ApiError(409, "This listing is not available for purchase");
  }
  if (current.price_units !== listing.price_units) {
    throw new ApiError(409, `The price has changed to ${current.price} ${listing.currency}; review it and try again`, { currentPrice: current.price });
  }
  // Either the cap or the order's state refused the insert: the order's state answers for itself.
  if (plan.orderCondition) await orderReservationCondition(db, listing.id, session, now);
  throw new ApiError(409, `You already hold ${MAX_OPEN_RESERVATIONS} open reservations; pay for or cancel one first`);
}

/** Everything a reservation needs, read before it is written: the listing, the price, the fees, the chain head. */
export type ReservationPlan = {
  session: AuthSession;
  listing: ListingRow;
  orderCondition: SQL | null;
  fees: FeeQuote;
  payUnits: bigint;
  scanFrom: number | null;
  now: number;
};

/**
 * The reads and chain calls before the write. Nothing here holds: between this and writeReservation another
 * purchase may settle or reserve the listing, which is why the INSERT re-states every condition itself.
 */
export async function planReservation(db: Db, env: Env, session: AuthSession, input: ReserveInput, now = Date.now()): Promise<ReservationPlan> {
  assertSessionWallet(session, input.buyerId, "buyerId");
  const listing = await db.get<ListingRow>(sql`SELECT id, network, seller_id, price, price_units, currency, status, is_listed FROM addresses WHERE id = ${input.addressId}`);
  if (!listing || listing.status === "deleted") throw new ApiError(404, "Listing not found");
  if (listing.seller_id === session.userId) throw new ApiError(403, "This is your own listing; you cannot buy it");
  if (listing.network !== session.network) {
    throw new ApiError(403, `This listing is paid on ${listing.network}; sign in with a ${listing.network === "ethereum" ? "Ethereum" : "Solana"} wallet to buy it`);
  }
  // A custom order's hidden listing is reservable by that order's buyer alone, while the order may be paid.
  const orderCondition = await orderReservationCondition(db, listing.id, session, now);
  if (listing.status !== "active" || (!listing.is_listed && !orderCondition)) throw new ApiError(409, "This listing is not available for purchase");
  if (input.currency !== undefined && input.currency !== listing.currency) {
    throw new ApiError(409, `This listing is priced in ${listing.currency}`, { currentPrice: listing.price, currency: listing.currency });
  }
  if (input.price !== undefined) {
    const seen = checkPrice(input.price);
    if (!seen.ok || seen.units !== BigInt(listing.price_units)) {
      throw new ApiError(409, `The price has changed to ${listing.price} ${listing.currency}; review it and try again`, { currentPrice: listing.price });
    }
  }

  const priceUnits = BigInt(listing.price_units);
  const fees = await quoteFees(db, env, listing.network, priceUnits, input.membershipTier ?? "basic");
  // What is paid to the platform: price and platform fees. Gas goes to the network from the buyer's wallet.
  const payUnits = fees.listingPrice + fees.exchangeFee + fees.commissionFee;
  const scanFrom = await paymentVerifier(env, listing.network).scanStart();
  return { session, listing, orderCondition, fees, payUnits, scanFrom, now };
}

/** The reservation's one D1 batch. */
export async function writeReservation(db: Db, plan: ReservationPlan, info: RequestInfo): Promise<Reservation> {
  const { session, listing, orderCondition, fees, payUnits, scanFrom, now } = plan;
  const id = crypto.randomUUID();
  const reference = listing.network === "solana" ? base58.encode(crypto.getRandomValues(new Uint8Array(32))) : null;
  const expiresAt = now + RESERVATION_MS;
  const open = sql`status IN ('initiated', 'pending', 'verified')`;

  let inserted;
  try {
    const results = await writeBatch(db, [
      // A lapsed reservation frees the listing now, not only at the next cron run.
      sql`UPDATE transactions SET status = 'expired', failure_reason = 'expired', updated_at = ${now}
                 WHERE address_id = ${listing.id} AND status = 'initiated' AND expires_at < ${now}`,
      // Every condition is part of the insert, so the database judges them at the moment of writing: the per-buyer
      // cap (concurrent initiates are counted by the database itself) and the listing still for sale at the price
      // quoted (a purchase that settled, or an admin or seller who changed it, since the plan was read wins).
      sql`
        INSERT INTO transactions (id, address_id, buyer_id, seller_id, buyer_wallet, network, price, price_units, currency,
                                  exchange_fee, commission_fee, total_amount, total_units, status, payment_reference, expires_at,
                                  amount_base_units, scan_from_block, reserved_block, created_at, updated_at)
        SELECT ${id}, ${listing.id}, ${session.userId}, ${listing.seller_id}, ${session.walletAddress}, ${listing.network}, ${listing.price},
               ${listing.price_units}, ${listing.currency}, ${unitsToDecimal(fees.exchangeFee)}, ${unitsToDecimal(fees.commissionFee)},
               ${unitsToDecimal(payUnits)}, ${unitsToNumber(payUnits)}, 'initiated', ${reference}, ${expiresAt},
               ${unitsToBaseUnits(payUnits, listing.currency).toString()}, ${scanFrom}, ${scanFrom}, ${now}, ${now}
        WHERE (SELECT count(*) FROM transactions WHERE buyer_id = ${session.userId} AND ${open}) < ${MAX_OPEN_RESERVATIONS}
          AND ${forSale(listing, orderCondition)}
          AND NOT EXISTS (SELECT 1 FROM transactions WHERE address_id = ${listing.id} AND status IN ('verified', 'completed'))
          AND ${orderCondition ?? sql`1`}`,
      sql`INSERT INTO transaction_audit (transaction_id, address_id, action, performed_by, metadata, ip_address, user_agent, timestamp)
                 SELECT ${id}, ${listing.id}, 'reserved', ${session.walletAddress}, ${JSON.stringify({ price: listing.price, total: unitsToDecimal(payUnits) })},
                        ${info.ip}, ${info.userAgent}, ${now}
                 WHERE EXISTS (SELECT 1 FROM transactions WHERE id = ${id})`,
      sql`INSERT INTO gas_estimation_audit (transaction_id, network, estimated_gas, estimated_gas_price, estimated_cost, created_at)
                 SELECT ${id}, ${listing.network}, ${listing.network === "ethereum" ? "21000" : null}, ${fees.gas.gasPriceWei?.toString() ?? null},
                        ${unitsToDecimal(fees.gasFee)}, ${now}
                 WHERE EXISTS (SELECT 1 FROM transactions WHERE id = ${id})`,
    ]);
    inserted = (results[1] as D1Result).meta.changes ?? 0;
  } catch (err) {
    if (!/UNIQUE constraint failed/i.test(err instanceof Error ? err.message : String(err))) throw err;
    const holder = await db.get<{ expires_at: number | null }>(sql`SELECT expires_at FROM transactions WHERE address_id = ${listing.id} AND ${open} LIMIT 1`);
    throw new ApiError(409, "This listing is reserved by another buyer", { reservedUntil: new Date(holder?.expires_at ?? now + RESERVATION_MS).toISOString() });
  }
  if (inserted === 0) await explainRefusal(db, plan);
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
