// The ledger of received payments (escrow_transactions) and the list of differences a person must look at
// (payment_attention). The invariants of payments, in the words of docs/payments.md#invariants, and where
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
//      (purchases/refunds.ts markRefunded).
//  I4  Every transfer to the platform address that we see is either credited or listed for attention: the
//      reconciliation (reconcile.ts) reads the platform's received transfers from the chain and records a
//      ledger row or a payment_attention row for whatever no row accounts for.
//  I5  No purchase waits past its last deadline: the decision, and the cron job's sweep (deadlines.ts).
//  I6  Only the buyer's own changes a purchase, and money mined before the reservation never pays it: the decision
//      (rule 5), and the conditions of verify.ts's wait and refusal UPDATEs.
import { type Column, type SQL, sql } from "drizzle-orm";
import { escrowTransactions, paymentAttention, transactions } from "../../schema/db";
import type { Network } from "../../schema/db";
import { SOLD } from "../../schema/purchase-lifecycle";
import type { DifferenceKind } from "../../schema/admin-payments";
import type { PaymentVerifier } from "../chain/payment-verifier";
import { bare, columnList, type Db } from "../db/database";
import { refundStatusFor } from "../domain/dust";
import { type LedgerState, ledgerStateOf } from "../domain/payment-decision";
import type { PaymentContext } from "./payment-context";
import { statusIn } from "./status-sql";
import { LEDGER_HELD, type LedgerStatus, ledgerTo } from "../../schema/ledger-lifecycle";
import { ledgerAfter, ledgerIn } from "./ledger-sql";
import { currencyOf } from "../../schema/network";

/** True for the errors the database raises when a write would break an invariant (unique index or trigger). */
export function isIntegrityError(err: unknown): boolean {
  return /UNIQUE constraint failed|payment integrity/i.test(err instanceof Error ? err.message : String(err));
}

export async function ledgerState(db: Db, network: Network, hash: string, purchaseId: string): Promise<LedgerState> {
  const t = transactions;
  type Escrow = typeof e.$inferSelect;
  const r = await db.get<{ settledBy: (typeof t.$inferSelect)["id"] | null; owner: Escrow["transactionId"]; status: Escrow["status"] | null }>(sql`
    SELECT (SELECT ${t.id} FROM ${t} WHERE ${t.network} = ${network} AND ${t.txHash} = ${hash} AND ${statusIn(t.status, SOLD)} LIMIT 1) AS settledBy,
           ${e.transactionId} AS owner, ${e.status} AS status
    FROM (SELECT 1) LEFT JOIN ${e} ON ${e.network} = ${network} AND ${e.txHash} = ${hash}`);
  return ledgerStateOf(purchaseId, r?.settledBy ?? null, r?.status ? { owner: r.owner, status: r.status } : null);
}

const e = escrowTransactions;
/** The conflict target of one ledger row per (network, hash): the partial unique index escrow_payment_unique. */
const ledgerKey = sql`${columnList(e.network, e.txHash)} WHERE ${bare(e.txHash)} IS NOT NULL`;
/** In an upsert's DO UPDATE: the value the INSERT proposed for `column`. */
const excluded = (column: Column) => sql`excluded.${bare(column)}`;

export type LedgerEntry = { status: LedgerStatus; reason: string | null; refund: bigint | null };

/**
 * The ledger row of one received payment (one per hash): created when first seen, moved on as its purchase does.
 * An existing row is only ever moved on by its own purchase while it is held: a row that is released, listed for
 * refund, or another purchase's is left as it is (and the triggers refuse what this statement would not do).
 */
export function escrow(ctx: PaymentContext, amount: bigint, state: LedgerEntry, onlyIf: SQL = sql`1 = 1`) {
  const { verifier, purchase: p, hash, now } = ctx;
  // Dust is recorded like any payment, but as ignored: never owed back (docs/payments.md#dust).
  const needed = refundStatusFor(state.refund, verifier.dustBelow);
  return sql`
    INSERT INTO ${e} ${columnList(
      e.id,
      e.network,
      e.amount,
      e.currency,
      e.senderAddress,
      e.recipientAddress,
      e.status,
      e.txHash,
      e.createdAt,
      e.transactionId,
      e.amountBaseUnits,
      e.expectedBaseUnits,
      e.attentionReason,
      e.refundStatus,
      e.refundBaseUnits,
      e.releaseTime,
    )}
    SELECT ${crypto.randomUUID()}, ${p.network}, ${verifier.formatAmount(amount)}, ${p.currency}, ${p.buyerWallet}, ${verifier.recipient}, ${state.status},
           ${hash}, ${now}, ${p.id}, ${amount.toString()}, ${p.amountBaseUnits}, ${state.reason}, ${needed}, ${state.refund?.toString() ?? null},
           ${state.status === ledgerTo("release") ? now : null}
    WHERE ${onlyIf}
    ON CONFLICT ${ledgerKey} DO UPDATE SET
      ${bare(e.status)} = ${excluded(e.status)},
      ${bare(e.attentionReason)} = coalesce(${excluded(e.attentionReason)}, ${e.attentionReason}),
      ${bare(e.refundStatus)} = ${excluded(e.refundStatus)},
      ${bare(e.refundBaseUnits)} = ${excluded(e.refundBaseUnits)},
      ${bare(e.amount)} = ${excluded(e.amount)},
      ${bare(e.amountBaseUnits)} = ${excluded(e.amountBaseUnits)},
      ${bare(e.releaseTime)} = coalesce(${excluded(e.releaseTime)}, ${e.releaseTime})
    WHERE ${ledgerIn(e.status, LEDGER_HELD)} AND ${e.transactionId} IS ${excluded(e.transactionId)}`;
}

/** A received payment no purchase accounts for: a ledger row owned by no purchase, owed back to its sender (or ignored, as dust). */
export function unclaimedEscrow(
  network: Network,
  verifier: PaymentVerifier,
  t: { hash: string; sender: string | null; amount: bigint; reason: "unmatched" | "indirect" },
  id: string,
  now: number,
) {
  return sql`
    INSERT INTO ${e} ${columnList(
      e.id,
      e.network,
      e.amount,
      e.currency,
      e.senderAddress,
      e.recipientAddress,
      e.status,
      e.txHash,
      e.createdAt,
      e.transactionId,
      e.amountBaseUnits,
      e.attentionReason,
      e.refundStatus,
      e.refundBaseUnits,
    )}
    VALUES (${id}, ${network}, ${verifier.formatAmount(t.amount)}, ${currencyOf(network)}, ${t.sender}, ${verifier.recipient}, ${ledgerAfter("unclaimed")},
            ${t.hash}, ${now}, NULL, ${t.amount.toString()}, ${t.reason}, ${refundStatusFor(t.amount, verifier.dustBelow)}, ${t.amount.toString()})
    ON CONFLICT ${ledgerKey} DO NOTHING`;
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
  const pa = paymentAttention;
  return sql`
    INSERT INTO ${pa} ${columnList(
      pa.id,
      pa.network,
      pa.kind,
      pa.ref,
      pa.txHash,
      pa.fromBlock,
      pa.toBlock,
      pa.amountBaseUnits,
      pa.senderAddress,
      pa.transactionId,
      pa.escrowId,
      pa.detail,
      pa.status,
      pa.createdAt,
    )}
    VALUES (${crypto.randomUUID()}, ${a.network}, ${a.kind}, ${a.ref}, ${a.txHash ?? null}, ${a.fromBlock ?? null}, ${a.toBlock ?? null},
            ${a.amount === undefined || a.amount === null ? null : a.amount.toString()}, ${a.sender ?? null}, ${a.transactionId ?? null}, ${a.escrowId ?? null},
            ${a.detail}, 'open', ${now})
    ON CONFLICT ${columnList(pa.network, pa.kind, pa.ref)} DO NOTHING`;
}

/**
 * The one place a payment difference is recorded for a person (Admin > Payments > Reconciliation). Idempotent.
 * The operators' console's alert webhook reads payment_attention rows whose alerted_at is null and stamps them.
 */
export async function recordPaymentAttention(db: Db, a: PaymentAttention, now = Date.now()): Promise<void> {
  console.warn(`payment attention (${a.network}, ${a.kind}): ${a.detail}`);
  await db.run(paymentAttentionStatement(a, now));
}
