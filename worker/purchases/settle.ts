// Settling a paid purchase (docs/payments.md#the-decision-decidepayment): ONE D1 batch — purchase completed with its hash, listing sold and
// unlisted, escrow released (any excess listed for refund), sales_analytics, price_history, audit rows, and a
// custom order paid through its hidden listing delivered.
// Every row after the first is written only if that first update completed the purchase in this very batch.
// That first update states the invariants of ledger.ts itself, so settling depends on no check made before the
// batch: the purchase is still open, its listing is not sold (and has no other sale: one sale per listing), and
// the hash's ledger row is absent or held for this purchase (not a refund, not another purchase's). Should a
// condition be bypassed, the unique indexes and the triggers of migration 0015 roll the whole batch back.
import { and, eq, sql } from "drizzle-orm";
import { addresses, blockchainTransactionAudit, escrowTransactions, gasEstimationAudit, priceHistory, salesAnalytics, transactions } from "../../schema/db";
import { SOLD, transitionTo } from "../../schema/purchase-lifecycle";
import { auditRow } from "../db/audit";
import { alias } from "drizzle-orm/sqlite-core";
import { columnList, writeBatch } from "../db/database";
import type { PaymentObservation } from "../domain/payment-decision";
import type { PaymentContext } from "./payment-context";
import { deliverOrder, orderListing } from "../orders/order-listing";
import { escrow, isIntegrityError } from "./ledger";
import { canMove, statusAfter, statusIn } from "./status-sql";
import { listingCanMove, listingStatusAfter } from "../listings/status-sql";
import { LEDGER_HELD, ledgerTo } from "../../schema/ledger-lifecycle";
import { ledgerIn } from "./ledger-sql";

/** Another purchase of the same listing. */
const s = alias(transactions, "s");
const e = escrowTransactions;
const sa = salesAnalytics;
const ph = priceHistory;
const bta = blockchainTransactionAudit;

export async function settlePurchase(ctx: PaymentContext, seen: Extract<PaymentObservation, { kind: "found" }>, excess: bigint): Promise<boolean> {
  const { db, verifier, purchase: p, hash, now } = ctx;
  const t = transactions;
  const a = addresses;
  const completedHere = sql`EXISTS (SELECT 1 FROM ${t} WHERE ${t.id} = ${p.id} AND ${t.status} = ${statusAfter("settle")} AND ${t.txHash} = ${hash} AND ${t.completedAt} = ${now})`;
  try {
    await writeBatch(db, [
      db
        .update(t)
        .set({
          status: transitionTo("settle"),
          txHash: hash,
          confirmations: seen.confirmations,
          paymentBlock: seen.block,
          completedAt: now,
          updatedAt: now,
          failureReason: null,
        })
        .where(
          and(
            eq(t.id, p.id),
            canMove(t.status, "settle"),
            sql`EXISTS (SELECT 1 FROM ${a} WHERE ${a.id} = ${p.addressId} AND ${listingCanMove(a.status, "sell")})`,
            sql`NOT EXISTS (SELECT 1 FROM ${t} ${s} WHERE ${s.addressId} = ${p.addressId} AND ${statusIn(s.status, SOLD)} AND ${s.id} != ${p.id})`,
            sql`NOT EXISTS (SELECT 1 FROM ${e} WHERE ${e.network} = ${p.network} AND ${e.txHash} = ${hash}
                              AND (${e.transactionId} IS NOT ${p.id} OR NOT ${ledgerIn(e.status, LEDGER_HELD)}))`,
          ),
        ),
      // A custom order's listing is never shown as sold (order-listing.ts): it leaves the market as inactive.
      db
        .update(a)
        .set({
          status: sql`CASE WHEN ${orderListing(p.addressId)} THEN ${listingStatusAfter("deliver-order")} ELSE ${listingStatusAfter("sell")} END`,
          isListed: false,
          updatedAt: now,
        })
        .where(and(eq(a.id, p.addressId), completedHere)),
      deliverOrder(db, p.addressId, now, completedHere),
      escrow(ctx, seen.amount, { status: ledgerTo("release"), reason: excess > 0n ? "over" : null, refund: excess > 0n ? excess : null }, completedHere),
      // Fails with a UNIQUE error when this purchase was already settled: the whole batch then rolls back.
      sql`INSERT INTO ${sa} ${columnList(sa.transactionId, sa.addressId, sa.network, sa.rarityScore, sa.category, sa.estimatedValue, sa.actualSalePrice, sa.saleDate, sa.leadingZeros, sa.patterns)}
                 SELECT ${p.id}, ${a.id}, ${a.network}, ${a.rarityScore}, ${a.category}, NULL, ${p.price}, ${now}, ${a.leadingZeroCount}, json_array(${a.pattern})
                 FROM ${a} WHERE ${a.id} = ${p.addressId} AND ${completedHere}`,
      sql`INSERT INTO ${ph} ${columnList(ph.addressId, ph.price, ph.currency, ph.changeType, ph.previousPrice, ph.transactionId, ph.createdAt)}
                 SELECT ${p.addressId}, ${p.price}, ${p.currency}, 'sale', ${p.price}, ${p.id}, ${now} WHERE ${completedHere}`,
      auditRow(
        {
          transactionId: p.id,
          addressId: p.addressId,
          action: "completed",
          performedBy: "payment-verifier",
          metadata: { txHash: hash, amount: seen.amount.toString(), excess: excess.toString(), confirmations: seen.confirmations },
          timestamp: now,
        },
        { where: completedHere },
      ),
      sql`INSERT INTO ${bta} ${columnList(bta.transactionId, bta.txHash, bta.blockNumber, bta.blockHash, bta.confirmations, bta.toAddress, bta.value, bta.status, bta.networkStatus, bta.network, bta.currency, bta.createdAt, bta.updatedAt, bta.confirmedAt, bta.explorerUrls)}
                 SELECT ${p.id}, ${hash}, ${seen.blockNumber}, ${seen.block}, ${seen.confirmations}, ${verifier.recipient}, ${seen.amount.toString()}, 'settled', 'found',
                        ${p.network}, ${p.currency}, ${now}, ${now}, ${now}, ${JSON.stringify([verifier.explorerUrl(hash)].filter(Boolean))}
                 WHERE ${completedHere}`,
      // The payment's actual network fee beside the reservation's estimate; a record only, after the settlement's
      // own statements and under the same condition, so it cannot change what settles.
      ...(seen.fee ? [gasActuals(ctx, seen.fee, completedHere)] : []),
    ]);
    // True when this purchase is completed with this hash, by this batch or an earlier one: nothing is left to do.
    const row = await db.select({ status: t.status, txHash: t.txHash }).from(t).where(eq(t.id, p.id)).get();
    return row?.status === transitionTo("settle") && row.txHash === hash;
  } catch (err) {
    if (isIntegrityError(err)) return false;
    throw err;
  }
}

/**
 * gas_estimation_audit's actual columns for the context's purchase: gas used and the effective price per gas
 * (Ethereum; null on Solana), the fee paid as coin text, and accuracy = estimated cost / actual cost (1 exact,
 * above 1 an over-estimate: the Ethereum estimate carries fee_config's gas multiplier), rounded to 4 places.
 */
function gasActuals(
  { db, verifier, purchase }: PaymentContext,
  fee: NonNullable<Extract<PaymentObservation, { kind: "found" }>["fee"]>,
  completedHere: ReturnType<typeof sql>,
) {
  const id = purchase.id;
  const g = gasEstimationAudit;
  const cost = verifier.formatAmount(fee.total);
  const costNumber = Number(cost);
  return db
    .update(g)
    .set({
      actualGas: fee.used?.toString() ?? null,
      actualGasPrice: fee.price?.toString() ?? null,
      actualCost: cost,
      accuracy: costNumber > 0 ? sql`round(CAST(${g.estimatedCost} AS REAL) / ${costNumber}, 4)` : null,
      success: true,
    })
    .where(and(eq(g.transactionId, id), completedHere));
}
