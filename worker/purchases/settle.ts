// Settling a paid purchase (DESIGN §6): ONE D1 batch — purchase completed with its hash, listing sold and
// unlisted, escrow released (any excess listed for refund), sales_analytics, price_history, audit rows, and a
// custom order paid through its hidden listing delivered.
// Every row after the first is written only if that first update completed the purchase in this very batch.
// That first update states the invariants of ledger.ts itself, so settling depends on no check made before the
// batch: the purchase is still open, its listing is not sold (and has no other sale: one sale per listing), and
// the hash's ledger row is absent or held for this purchase (not a refund, not another purchase's). Should a
// condition be bypassed, the unique indexes and the triggers of migration 0015 roll the whole batch back.
import { sql } from "drizzle-orm";
import type { PaymentVerifier } from "../chain/payment-verifier";
import { type Db, writeBatch } from "../db";
import type { PaymentObservation } from "../domain/payment-decision";
import type { PurchaseRow } from "./purchase-row";
import { deliverOrder, orderListing } from "../orders/order-listing";
import { escrow, isIntegrityError } from "./ledger";

export async function settlePurchase(
  db: Db,
  verifier: PaymentVerifier,
  p: PurchaseRow,
  hash: string,
  seen: Extract<PaymentObservation, { kind: "found" }>,
  excess: bigint,
  now: number,
): Promise<boolean> {
  const completedHere = sql`EXISTS (SELECT 1 FROM transactions WHERE id = ${p.id} AND status = 'completed' AND tx_hash = ${hash} AND completed_at = ${now})`;
  try {
    await writeBatch(db, [
      sql`UPDATE transactions SET status = 'completed', tx_hash = ${hash}, confirmations = ${seen.confirmations}, payment_block = ${seen.block},
                 completed_at = ${now}, updated_at = ${now}, failure_reason = NULL
                 WHERE id = ${p.id} AND status IN ('initiated', 'pending')
                   AND EXISTS (SELECT 1 FROM addresses WHERE id = ${p.address_id} AND status NOT IN ('sold', 'deleted'))
                   AND NOT EXISTS (SELECT 1 FROM transactions s WHERE s.address_id = ${p.address_id} AND s.status IN ('verified', 'completed') AND s.id != ${p.id})
                   AND NOT EXISTS (SELECT 1 FROM escrow_transactions e WHERE e.network = ${p.network} AND e.tx_hash = ${hash}
                                     AND (e.transaction_id IS NOT ${p.id} OR e.status != 'held'))`,
      // A custom order's listing is never shown as sold (order-listing.ts): it leaves the market as inactive.
      sql`UPDATE addresses SET status = CASE WHEN ${orderListing(p.address_id)} THEN 'inactive' ELSE 'sold' END, is_listed = 0, updated_at = ${now}
                 WHERE id = ${p.address_id} AND ${completedHere}`,
      deliverOrder(p.address_id, now, completedHere),
      escrow(verifier, p, hash, seen.amount, { status: "released", reason: excess > 0n ? "over" : null, refund: excess > 0n ? excess : null }, now, completedHere),
      // Fails with a UNIQUE error when this purchase was already settled: the whole batch then rolls back.
      sql`INSERT INTO sales_analytics (transaction_id, address_id, network, rarity_score, category, estimated_value, actual_sale_price, sale_date,
                                              leading_zeros, patterns)
                 SELECT ${p.id}, a.id, a.network, a.rarity_score, a.category, NULL, ${p.price}, ${now}, a.leading_zero_count, json_array(a.pattern)
                 FROM addresses a WHERE a.id = ${p.address_id} AND ${completedHere}`,
      sql`INSERT INTO price_history (address_id, price, currency, change_type, previous_price, transaction_id, created_at)
                 SELECT ${p.address_id}, ${p.price}, ${p.currency}, 'sale', ${p.price}, ${p.id}, ${now} WHERE ${completedHere}`,
      sql`INSERT INTO transaction_audit (transaction_id, address_id, action, performed_by, metadata, timestamp)
                 SELECT ${p.id}, ${p.address_id}, 'completed', 'payment-verifier',
                        ${JSON.stringify({ txHash: hash, amount: seen.amount.toString(), excess: excess.toString(), confirmations: seen.confirmations })}, ${now}
                 WHERE ${completedHere}`,
      sql`INSERT INTO blockchain_transaction_audit (transaction_id, tx_hash, block_number, block_hash, confirmations, to_address, value, status, network_status,
                                                           network, currency, created_at, updated_at, confirmed_at, explorer_urls)
                 SELECT ${p.id}, ${hash}, ${seen.blockNumber}, ${seen.block}, ${seen.confirmations}, ${verifier.recipient}, ${seen.amount.toString()}, 'settled', 'found',
                        ${p.network}, ${p.currency}, ${now}, ${now}, ${now}, ${JSON.stringify([verifier.explorerUrl(hash)].filter(Boolean))}
                 WHERE ${completedHere}`,
    ]);
    // True when this purchase is completed with this hash, by this batch or an earlier one: nothing is left to do.
    const row = await db.get<{ status: string; tx_hash: string | null }>(sql`SELECT status, tx_hash FROM transactions WHERE id = ${p.id}`);
    return row?.status === "completed" && row.tx_hash === hash;
  } catch (err) {
    if (isIntegrityError(err)) return false;
    throw err;
  }
}
