// The cron job's part for offers (docs/offers.md#states): the clock's exit for an open or paused offer (expired when
// its time runs out), telling buyers what a trigger or the clock ended (a price change, a sale, an unlisting, an accepted
// offer's reservation that lapsed), and deleting ended offers after OFFER_RETENTION_DAYS. Each step is bounded per
// run; what is left goes in the next.
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { addresses, offers, transactions } from "../../schema/db";
import { ENDED, offerTo, TOLD } from "../../schema/offer-lifecycle";
import { OFFER_RETENTION_DAYS, type OfferStatus } from "../../schema/offers";
import { notificationStatements } from "../collectors/notify";
import { type Db, writeBatch } from "../db/database";
import { canMove, statusIn } from "./status-sql";
import { offerOutcome } from "./tell";

export const OFFERS_EXPIRED_PER_RUN = 500;
export const OFFERS_TOLD_PER_RUN = 200;
export const OFFERS_PURGED_PER_RUN = 1000;

export type OfferJobReport = { expired: number; told: number; purged: number };

const o = offers;

export async function runOfferJob(db: Db, now = Date.now()): Promise<OfferJobReport> {
  const due = db
    .select({ id: o.id })
    .from(o)
    .where(sql`${canMove(o.status, "expire")} AND ${o.expiresAt} <= ${now}`)
    .orderBy(o.expiresAt)
    .limit(OFFERS_EXPIRED_PER_RUN);
  const [expired] = await writeBatch(db, [
    db
      .update(o)
      .set({ status: offerTo("expire"), endReason: "clock", updatedAt: now })
      .where(and(inArray(o.id, due), canMove(o.status, "expire"))),
  ]);
  const told = await tellEnded(db, now);
  const stale = db
    .select({ id: o.id })
    .from(o)
    .where(and(statusIn(o.status, ENDED), lt(o.updatedAt, now - OFFER_RETENTION_DAYS * 24 * 60 * 60 * 1000)))
    .limit(OFFERS_PURGED_PER_RUN);
  const [purged] = await writeBatch(db, [db.delete(o).where(inArray(o.id, stale))]);
  return { expired: expired.meta.changes ?? 0, told, purged: purged.meta.changes ?? 0 };
}

/** Tells each buyer whose offer reached a state they were not told of (the offers_untold index finds them). */
async function tellEnded(db: Db, now: number): Promise<number> {
  const rows = await db
    .select({
      id: o.id,
      buyerId: o.buyerId,
      status: o.status,
      endReason: o.endReason,
      amount: o.amount,
      currency: o.currency,
      listingId: o.addressId,
      address: addresses.address,
      transactionId: o.transactionId,
      until: transactions.expiresAt,
    })
    .from(o)
    .innerJoin(addresses, eq(addresses.id, o.addressId))
    .leftJoin(transactions, eq(transactions.id, o.transactionId))
    .where(and(sql`${o.notifiedStatus} IS NOT ${o.status}`, statusIn(o.status, TOLD)))
    .orderBy(o.id)
    .limit(OFFERS_TOLD_PER_RUN);
  if (rows.length === 0) return 0;
  const notes = rows.flatMap((r) => {
    const note = offerOutcome(r.buyerId, r.status as OfferStatus, {
      offerId: r.id,
      listingId: r.listingId,
      address: r.address,
      amount: r.amount,
      currency: r.currency,
      transactionId: r.transactionId,
      until: r.until,
      reason: r.endReason,
    });
    return note ? [note] : [];
  });
  // Marked told only in the state it was read in: one that moved on since (accepted, then lapsed) is told again.
  const pairs = JSON.stringify(rows.map((r) => [r.id, r.status]));
  await writeBatch(db, [
    ...notificationStatements(notes, now),
    sql`UPDATE ${o} SET ${sql.identifier(o.notifiedStatus.name)} = ${sql.identifier(o.status.name)}
        WHERE EXISTS (SELECT 1 FROM json_each(${pairs}) AS j WHERE json_extract(j.value, '$[0]') = ${o.id} AND json_extract(j.value, '$[1]') = ${o.status})`,
  ]);
  return notes.length;
}
