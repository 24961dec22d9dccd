// Verifying a reported (or scanned) payment and carrying out what it means: read the facts from the chain
// (through the payment verifier, whatever the network) and from D1, let domain/payment-decision.ts decide,
// then write the outcome. Every write is conditional on the state it was decided from, so a second run
// (the confirm call and the cron job at once, or two cron runs) changes nothing twice.
import { type SQL, sql } from "drizzle-orm";
import type { FailureReason } from "../../schema/purchases";
import { type PaymentVerifier, paymentVerifier, type VerifierEnv } from "../chain/payment-verifier";
import type { Db } from "../db";
import { decidePayment, type PaymentDecision, type PaymentObservation } from "../domain/payment-decision";
import type { PurchaseRow } from "./purchase-row";
import { settlePurchase } from "./settle";
import { writeBatch } from "./write-batch";

export type VerifyOutcome = { decision: PaymentDecision; observation: PaymentObservation; requiredConfirmations: number };

const OPEN = sql.raw(`('initiated', 'pending', 'verified')`);

export async function verifyPayment(db: Db, env: VerifierEnv, purchase: PurchaseRow, hash: string, now = Date.now()): Promise<VerifyOutcome> {
  const verifier = paymentVerifier(env, purchase.network);
  const observation = await verifier.inspect(hash, { buyer: purchase.buyer_wallet ?? "", reference: purchase.payment_reference });
  const other = await db.get<{ id: string }>(
    sql`SELECT id FROM transactions WHERE network = ${purchase.network} AND tx_hash = ${hash} AND status IN ('verified', 'completed') AND id != ${purchase.id} LIMIT 1`,
  );
  const decision = decidePayment(
    {
      status: purchase.status,
      expected: BigInt(purchase.amount_base_units ?? "0"),
      requiredConfirmations: verifier.requiredConfirmations,
      expiresAt: purchase.expires_at ?? purchase.created_at,
      reportedAt: purchase.reported_at,
      lastSeenBlock: purchase.payment_block,
      hashPaidAnotherPurchase: other !== undefined,
      hashPaidThisPurchase: purchase.status === "completed" && purchase.tx_hash === hash,
      now,
    },
    observation,
  );
  await apply(db, verifier, purchase, hash, observation, decision, now);
  return { decision, observation, requiredConfirmations: verifier.requiredConfirmations };
}

async function apply(db: Db, verifier: PaymentVerifier, p: PurchaseRow, hash: string, seen: PaymentObservation, decision: PaymentDecision, now: number) {
  const found = seen.kind === "found" ? seen : null;
  const audit = (status: string, error: string | null) =>
    sql`
      INSERT INTO blockchain_transaction_audit (transaction_id, tx_hash, block_hash, confirmations, to_address, value, status, network_status,
                                                error_message, network, currency, created_at, updated_at, explorer_urls)
      VALUES (${p.id}, ${hash}, ${found?.block || null}, ${found?.confirmations ?? null}, ${verifier.recipient}, ${found ? found.amount.toString() : null},
              ${status}, ${seen.kind}, ${error}, ${p.network}, ${p.currency}, ${now}, ${now}, ${JSON.stringify([verifier.explorerUrl(hash)].filter(Boolean))})`;

  switch (decision.outcome) {
    case "done":
      return;
    case "wait": {
      const statements = [
        sql`UPDATE transactions SET status = 'pending', tx_hash = ${hash}, confirmations = ${decision.confirmations},
                   payment_block = coalesce(${found?.block || null}, payment_block), updated_at = ${now}, failure_reason = NULL
                   WHERE id = ${p.id} AND status IN ('initiated', 'pending')`,
        audit(decision.note, decision.note === "reorged" ? "payment left the canonical chain before the required depth" : null),
      ];
      if (decision.holdEscrow && found) statements.push(escrow(db, verifier, p, hash, found.amount, { status: "held", reason: null, refund: null }, now));
      await writeBatch(db, statements);
      return;
    }
    case "settle": {
      const settled = await settlePurchase(db, verifier, p, hash, found!, decision.excess, now);
      if (!settled) {
        // The settle batch lost a race: either another run completed this purchase, or another purchase
        // settled with this hash first (the unique index said so). Decide again from the new facts.
        const winner = await db.get<{ id: string }>(
          sql`SELECT id FROM transactions WHERE network = ${p.network} AND tx_hash = ${hash} AND status IN ('verified', 'completed') LIMIT 1`,
        );
        if (winner && winner.id !== p.id) await reject(db, verifier, p, hash, found, "hash-used", now > (p.expires_at ?? 0), null, now, audit);
      }
      return;
    }
    case "reject":
      await reject(db, verifier, p, hash, found, decision.reason, decision.closePurchase, decision.refund, now, audit);
      return;
    case "refund":
      await writeBatch(db, [
        escrow(db, verifier, p, hash, found!.amount, { status: "refund", reason: decision.reason, refund: found!.amount }, now),
        audit(`refund-${decision.reason}`, `payment received for a purchase that is ${p.status}; listed for refund`),
      ]);
      return;
  }
}

async function reject(
  db: Db,
  verifier: PaymentVerifier,
  p: PurchaseRow,
  hash: string,
  found: Extract<PaymentObservation, { kind: "found" }> | null,
  reason: FailureReason,
  close: boolean,
  refund: "partial" | "late" | "duplicate" | "over" | "failed" | null,
  now: number,
  audit: (status: string, error: string | null) => SQL,
) {
  const next = close ? "failed" : "initiated";
  const statements = [
    sql`UPDATE transactions SET status = ${next}, failure_reason = ${reason}, confirmations = 0, payment_block = NULL, updated_at = ${now},
               tx_hash = CASE WHEN ${close ? 1 : 0} = 1 THEN tx_hash ELSE NULL END
               WHERE id = ${p.id} AND status IN ${OPEN} AND (tx_hash IS NULL OR tx_hash = ${hash})`,
    audit(`rejected-${reason}`, reason),
  ];
  if (refund && found) statements.push(escrow(db, verifier, p, hash, found.amount, { status: "refund", reason: refund, refund: found.amount }, now));
  await writeBatch(db, statements);
}

/** The escrow row of one received payment (one per hash): created when first seen, moved on as the purchase does. */
export function escrow(
  db: Db,
  verifier: PaymentVerifier,
  p: PurchaseRow,
  hash: string,
  amount: bigint,
  state: { status: "held" | "released" | "refund"; reason: string | null; refund: bigint | null },
  now: number,
  onlyIf: SQL = sql`1 = 1`,
) {
  const needed = state.refund !== null && state.refund > 0n ? "needed" : null;
  return sql`
    INSERT INTO escrow_transactions (id, network, amount, currency, sender_address, recipient_address, status, tx_hash, created_at,
                                     transaction_id, amount_base_units, expected_base_units, attention_reason, refund_status, refund_base_units, release_time)
    SELECT ${crypto.randomUUID()}, ${p.network}, ${verifier.formatAmount(amount)}, ${p.currency}, ${p.buyer_wallet}, ${verifier.recipient}, ${state.status},
           ${hash}, ${now}, ${p.id}, ${amount.toString()}, ${p.amount_base_units}, ${state.reason}, ${needed}, ${state.refund?.toString() ?? null},
           ${state.status === "released" ? now : null}
    WHERE ${onlyIf}
    ON CONFLICT (network, tx_hash) WHERE tx_hash IS NOT NULL DO UPDATE SET
      status = CASE WHEN escrow_transactions.refund_status = 'refunded' THEN escrow_transactions.status ELSE excluded.status END,
      attention_reason = coalesce(excluded.attention_reason, escrow_transactions.attention_reason),
      refund_status = CASE WHEN escrow_transactions.refund_status = 'refunded' THEN 'refunded' ELSE excluded.refund_status END,
      refund_base_units = coalesce(excluded.refund_base_units, escrow_transactions.refund_base_units),
      release_time = coalesce(excluded.release_time, escrow_transactions.release_time)
    WHERE escrow_transactions.status = 'held'`;
}

