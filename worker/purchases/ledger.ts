// The ledger of received payments (escrow_transactions) and the list of differences a person must look at
// (payment_attention). The invariants of payments, in the words of DESIGN §6 and docs/payments.md, and where
// each is held:
//
//  I1  A (network, hash) pays at most one purchase or one refund, never both.
//      - one ledger row per (network, hash): unique index escrow_payment_unique;
//      - one settled purchase per (network, hash): unique index transactions_payment_settles_once;
//      - a purchase settles only with a hash whose ledger row is absent or held for that same purchase, and a
//        ledger row is never a refund (nor another purchase's) for a hash that settled a purchase: triggers
//        payment_settles_with_its_own_hash_* and payment_ledger_respects_settlement_* (migration 0015), and the
//        same condition inside the settle batch's first UPDATE (settle.ts). The one exception is explicit: the
//        excess of an overpayment is listed on the settling purchase's own row, which stays `released`.
//      - a recorded payment never changes owner: trigger payment_ledger_owner_is_fixed.
//  I2  A listing has at most one verified/completed purchase: unique index transactions_one_sale_per_listing,
//      a condition in the settle batch, and the reservation's INSERT re-checks that the listing is still for
//      sale (reserve.ts), so a sold listing is never reserved again.
//  I3  A refund is listed only for a transfer at the required depth, in a canonical block, from the buyer to the
//      platform (domain/payment-decision.ts), and re-checked on the chain before an admin marks it refunded
//      (routes/admin-payments.ts).
//  I4  Every transfer to the platform address that we see is either credited or listed for attention: the
//      reconciliation (reconcile.ts) reads the platform's received transfers from the chain and records a
//      ledger row or a payment_attention row for whatever no row accounts for.
import { type SQL, sql } from "drizzle-orm";
import type { Network } from "../../schema/db";
import type { DifferenceKind } from "../../schema/purchases";
import type { PaymentVerifier } from "../chain/payment-verifier";
import type { Db } from "../db";
import { type LedgerState, ledgerStateOf } from "../domain/payment-decision";
import type { PurchaseRow } from "./purchase-row";

/** True for the errors the database raises when a write would break an invariant (unique index or trigger). */
export function isIntegrityError(err: unknown): boolean {
  return /UNIQUE constraint failed|payment integrity/i.test(err instanceof Error ? err.message : String(err));
}

export async function ledgerState(db: Db, network: Network, hash: string, purchaseId: string): Promise<LedgerState> {
  const r = await db.get<{ settled_by: string | null; owner: string | null; status: string | null }>(sql`
    SELECT (SELECT id FROM transactions WHERE network = ${network} AND tx_hash = ${hash} AND status IN ('verified', 'completed') LIMIT 1) AS settled_by,
           e.transaction_id AS owner, e.status AS status
    FROM (SELECT 1) LEFT JOIN escrow_transactions e ON e.network = ${network} AND e.tx_hash = ${hash}`);
  return ledgerStateOf(purchaseId, r?.settled_by ?? null, r?.status ? { owner: r.owner, status: r.status } : null);
}

export type LedgerEntry = { status: "held" | "released" | "refund"; reason: string | null; refund: bigint | null };

/**
 * The ledger row of one received payment (one per hash): created when first seen, moved on as its purchase does.
 * An existing row is only ever moved on by its own purchase while it is held: a row that is released, listed for
 * refund, or another purchase's is left as it is (and the triggers refuse what this statement would not do).
 */
export function escrow(verifier: PaymentVerifier, p: PurchaseRow, hash: string, amount: bigint, state: LedgerEntry, now: number, onlyIf: SQL = sql`1 = 1`) {
  const needed = state.refund !== null && state.refund > 0n ? "needed" : null;
  return sql`
    INSERT INTO escrow_transactions (id, network, amount, currency, sender_address, recipient_address, status, tx_hash, created_at,
                                     transaction_id, amount_base_units, expected_base_units, attention_reason, refund_status, refund_base_units, release_time)
    SELECT ${crypto.randomUUID()}, ${p.network}, ${verifier.formatAmount(amount)}, ${p.currency}, ${p.buyer_wallet}, ${verifier.recipient}, ${state.status},
           ${hash}, ${now}, ${p.id}, ${amount.toString()}, ${p.amount_base_units}, ${state.reason}, ${needed}, ${state.refund?.toString() ?? null},
           ${state.status === "released" ? now : null}
    WHERE ${onlyIf}
    ON CONFLICT (network, tx_hash) WHERE tx_hash IS NOT NULL DO UPDATE SET
      status = excluded.status,
      attention_reason = coalesce(excluded.attention_reason, escrow_transactions.attention_reason),
      refund_status = excluded.refund_status,
      refund_base_units = excluded.refund_base_units,
      amount = excluded.amount,
      amount_base_units = excluded.amount_base_units,
      release_time = coalesce(excluded.release_time, escrow_transactions.release_time)
    WHERE escrow_transactions.status = 'held' AND escrow_transactions.transaction_id IS excluded.transaction_id`;
}

/** A received payment no purchase accounts for: a ledger row owned by no purchase, owed back to its sender. */
export function unclaimedEscrow(
  network: Network,
  verifier: PaymentVerifier,
  t: { hash: string; sender: string | null; amount: bigint; reason: "unmatched" | "indirect" },
  id: string,
  now: number,
) {
  return sql`
    INSERT INTO escrow_transactions (id, network, amount, currency, sender_address, recipient_address, status, tx_hash, created_at,
                                     transaction_id, amount_base_units, attention_reason, refund_status, refund_base_units)
    VALUES (${id}, ${network}, ${verifier.formatAmount(t.amount)}, ${network === "ethereum" ? "ETH" : "SOL"}, ${t.sender}, ${verifier.recipient}, 'refund',
            ${t.hash}, ${now}, NULL, ${t.amount.toString()}, ${t.reason}, 'needed', ${t.amount.toString()})
    ON CONFLICT (network, tx_hash) WHERE tx_hash IS NOT NULL DO NOTHING`;
}

export type PaymentAttention = {
  network: Network;
  kind: DifferenceKind;
  /** What makes the difference one row (the hash, or the block range): recording it twice records it once. */
  ref: string;
  detail: string;
  txHash?: string | null;
  fromBlock?: number | null;
  toBlock?: number | null;
  amount?: bigint | null;
  sender?: string | null;
  transactionId?: string | null;
  escrowId?: string | null;
};

/** The statement behind recordPaymentAttention, for a batch that records a difference with other rows. */
export function paymentAttentionStatement(a: PaymentAttention, now: number): SQL {
  return sql`
    INSERT INTO payment_attention (id, network, kind, ref, tx_hash, from_block, to_block, amount_base_units, sender_address, transaction_id, escrow_id,
                                   detail, status, created_at)
    VALUES (${crypto.randomUUID()}, ${a.network}, ${a.kind}, ${a.ref}, ${a.txHash ?? null}, ${a.fromBlock ?? null}, ${a.toBlock ?? null},
            ${a.amount === undefined || a.amount === null ? null : a.amount.toString()}, ${a.sender ?? null}, ${a.transactionId ?? null}, ${a.escrowId ?? null},
            ${a.detail}, 'open', ${now})
    ON CONFLICT (network, kind, ref) DO NOTHING`;
}

/**
 * The one place a payment difference is recorded for a person (Admin > Payments > Reconciliation). Idempotent.
 * The operators' console's alert webhook reads payment_attention rows whose alerted_at is null and stamps them.
 */
export async function recordPaymentAttention(db: Db, a: PaymentAttention, now = Date.now()): Promise<void> {
  console.warn(`payment attention (${a.network}, ${a.kind}): ${a.detail}`);
  await db.run(paymentAttentionStatement(a, now));
}
