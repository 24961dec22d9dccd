// The reconciliation (invariant I4 of ledger.ts, docs/payments.md#reconciliation-workerpurchasesreconcilets): every transfer to the platform address that we
// see is either credited or listed for attention. Each cron run reads the platform address's next window from
// the chain (Ethereum: blocks at the required depth, their transactions to and from the platform, and the
// platform's balance, so value that arrived by an internal call shows as a difference; Solana: the platform's
// signatures, each transaction's change of the platform's balance) and matches every received transfer
// against the ledger and the purchases. A transfer nothing accounts for is first offered to the purchase it
// may be for (its reference key, or its sender's purchases), through the same decision as any payment; what is
// still unaccounted for becomes a ledger row owed back to its sender and a payment_attention row. Bounded per
// run, idempotent (unique rows, a cursor moved only forward from where this run found it), safe twice at once.
import { and, asc, desc, eq, gt, like, or, sql } from "drizzle-orm";
import { blockchainTransactionAudit, escrowTransactions, type Network, reconcileCursors, transactions } from "../../schema/db";
import { PAYABLE, PAYMENT_RECORDED } from "../../schema/purchase-lifecycle";
import { paymentVerifier, type ReceivedTransfer, type ReconcileWindow } from "../chain/payment-verifier";
import type { Deployment } from "../deployment/deployment";
import { bare, type Db, writeBatch } from "../db/database";
import { refundStatusFor } from "../domain/dust";
import { firstPaymentBlock, matchTransferToPurchase } from "../domain/payment-decision";
import { classifyReceived, EMPTY_CURSOR, type ReconcileCursor } from "../domain/reconciliation";
import { recordDisagreements } from "../operations/node-disagreements";
import { isIntegrityError, paymentAttentionStatement, recordPaymentAttention, unclaimedEscrow } from "./ledger";
import { LATE_PAYMENT_WINDOW_MS } from "./payment-jobs";
import { purchaseColumns, type PurchaseRow } from "./purchase-row";
import { statusIn, statusIs } from "./status-sql";
import { verifyPayment } from "./verify";
import { inLedgerSet, LEDGER_HELD, refundTo } from "../../schema/ledger-lifecycle";
import { ledgerIn } from "./ledger-sql";
import { currencyOf } from "../../schema/network";

/** Ethereum blocks one run reconciles at most. */
export const RECONCILE_BLOCKS_PER_RUN = 50;
/** Solana signatures of the platform address one run reconciles at most. */
export const RECONCILE_SIGNATURES_PER_RUN = 50;
/** A payment held for its purchase this long, while that purchase no longer waits on it, is checked again. */
export const STALE_HELD_MS = 30 * 60_000;
const STALE_HELD_PER_RUN = 10;

export type ReconcileReport = {
  nodeAnswered: boolean;
  /** Transfers to the platform read this run. */
  received: number;
  /** ... of which the ledger or a purchase already accounted for. */
  accounted: number;
  /** ... of which a purchase took (settled, or listed for refund) when offered. */
  claimed: number;
  /** Differences recorded (payment_attention rows, with a ledger row for each unclaimed transfer). */
  differences: number;
  /** Unclaimed transfers below the dust threshold (or zero): ledger rows ignored, no difference. */
  dust: number;
  through: string | null;
};

const tx = transactions;
const e = escrowTransactions;
const rc = reconcileCursors;

async function loadCursor(db: Db, network: Network): Promise<{ cursor: ReconcileCursor; updatedAt: number | null }> {
  const row = await db
    .select({
      nextBlock: rc.nextBlock,
      lastSignature: rc.lastSignature,
      backlogBefore: rc.backlogBefore,
      backlogNewest: rc.backlogNewest,
      updatedAt: rc.updatedAt,
    })
    .from(rc)
    .where(eq(rc.network, network))
    .get();
  if (!row) return { cursor: EMPTY_CURSOR, updatedAt: null };
  const { updatedAt, ...cursor } = row;
  return { cursor, updatedAt };
}

/**
 * Moves the cursor on, unless another run moved it since this run read it (then that run's window stands). The lag
 * (docs/operations.md#health): how far it has read (kept when this run does not know), and when it last caught up.
 */
async function saveCursor(db: Db, network: Network, readAt: number | null, w: ReconcileWindow, now: number) {
  const c = w.cursor;
  const caughtUpAt = w.caughtUp ? now : null;
  await db
    .insert(rc)
    .values({
      network,
      nextBlock: c.nextBlock,
      lastSignature: c.lastSignature,
      backlogBefore: c.backlogBefore,
      backlogNewest: c.backlogNewest,
      updatedAt: now,
      throughBlock: w.throughBlock,
      caughtUpAt,
    })
    .onConflictDoUpdate({
      target: rc.network,
      set: {
        nextBlock: sql`excluded.${bare(rc.nextBlock)}`,
        lastSignature: sql`excluded.${bare(rc.lastSignature)}`,
        backlogBefore: sql`excluded.${bare(rc.backlogBefore)}`,
        backlogNewest: sql`excluded.${bare(rc.backlogNewest)}`,
        updatedAt: sql`excluded.${bare(rc.updatedAt)}`,
        throughBlock: sql`coalesce(excluded.${bare(rc.throughBlock)}, ${rc.throughBlock})`,
        caughtUpAt: sql`coalesce(excluded.${bare(rc.caughtUpAt)}, ${rc.caughtUpAt})`,
      },
      setWhere: sql`${rc.updatedAt} IS ${readAt}`,
    });
}

async function accountedFor(db: Db, network: Network, t: ReceivedTransfer) {
  type Escrow = typeof e.$inferSelect;
  const row = await db.get<{ amount: Escrow["amountBaseUnits"]; status: Escrow["status"] | null; waiting: number }>(sql`
    SELECT ${e.amountBaseUnits} AS amount, ${e.status} AS status,
           EXISTS (SELECT 1 FROM ${tx} WHERE ${tx.network} = ${network} AND ${tx.txHash} = ${t.hash} AND ${statusIn(tx.status, PAYMENT_RECORDED)}) AS waiting
    FROM (SELECT 1) LEFT JOIN ${e} ON ${e.network} = ${network} AND ${e.txHash} = ${t.hash}`);
  return classifyReceived(t.amount, {
    ledgerAmount: row?.status ? BigInt(row.amount ?? "0") : null,
    ledgerHeld: inLedgerSet(LEDGER_HELD, row?.status ?? null),
    purchaseWaiting: Boolean(row?.waiting),
  });
}

/** The purchase a transfer nothing accounts for may be for: by its reference key (Solana), else its sender's. */
async function claimant(db: Db, network: Network, t: ReceivedTransfer, now: number): Promise<PurchaseRow | null> {
  if (t.references.length > 0) {
    const byReference = await db
      .select(purchaseColumns)
      .from(tx)
      .where(and(eq(tx.network, network), sql`${tx.paymentReference} IN (SELECT value FROM json_each(${JSON.stringify(t.references)}))`))
      .orderBy(tx.createdAt)
      .limit(1)
      .get();
    if (byReference) return byReference;
  }
  const sender = t.senders[0];
  if (!sender) return null;
  const mine: PurchaseRow[] = await db
    .select(purchaseColumns)
    .from(tx)
    .where(
      and(
        eq(tx.network, network),
        eq(tx.buyerWallet, network === "ethereum" ? sender.toLowerCase() : sender),
        or(statusIn(tx.status, PAYABLE), gt(tx.updatedAt, now - LATE_PAYMENT_WINDOW_MS)),
      ),
    )
    .orderBy(desc(tx.createdAt))
    .limit(20)
    .then((rows) => rows.reverse());
  // Only a reservation that existed when the transfer was mined can be what it pays (docs/payments.md#the-decision-decidepayment).
  const open = mine.filter((r) => {
    const first = firstPaymentBlock(network, r.reservedBlock);
    return r.status === "initiated" && (t.blockNumber === null || first === null || first <= t.blockNumber);
  });
  const exact = matchTransferToPurchase(
    open.map((r) => ({ row: r, expected: BigInt(r.amountBaseUnits ?? "0") })),
    t.amount,
  );
  return exact?.row ?? mine[mine.length - 1] ?? null;
}

function uncreditedDetail(verifierFormat: (n: bigint) => string, currency: string, t: ReceivedTransfer): string {
  const amount = `${verifierFormat(t.amount)} ${currency}`;
  return t.direct
    ? `${amount} from ${t.senders[0] ?? "an unknown sender"} reached the platform and matches no purchase; listed for refund to the sender.`
    : `${amount} reached the platform in this transaction by a program call or another route the payment verifier cannot credit; listed for refund to ${t.senders.join(", ") || "its sender"}.`;
}

export async function reconcilePayments(db: Db, deployment: Deployment, network: Network, now = Date.now()): Promise<ReconcileReport> {
  const verifier = paymentVerifier(deployment, network, recordDisagreements(db));
  const currency = currencyOf(network);
  const { cursor, updatedAt } = await loadCursor(db, network);
  const window = await verifier.reconcile(cursor, { limit: network === "ethereum" ? RECONCILE_BLOCKS_PER_RUN : RECONCILE_SIGNATURES_PER_RUN });
  const report: ReconcileReport = {
    nodeAnswered: window !== null,
    received: 0,
    accounted: 0,
    claimed: 0,
    differences: 0,
    dust: 0,
    through: window?.through ?? null,
  };
  if (!window) return report;

  for (const t of window.transfers) {
    report.received++;
    let state = await accountedFor(db, network, t);
    // A zero-value transfer pays nothing and is offered to no purchase: it is recorded as dust below.
    if (state === "unknown" && t.amount > 0n) {
      const purchase = await claimant(db, network, t, now);
      if (purchase) {
        await verifyPayment(db, deployment, purchase, t.hash, now);
        state = await accountedFor(db, network, t);
        if (state !== "unknown") report.claimed++;
      }
    }
    if (state === "credited" || state === "in-progress") {
      report.accounted++;
      continue;
    }
    report.differences++;
    if (state === "short") {
      await recordPaymentAttention(
        db,
        {
          network,
          kind: "ledger",
          ref: t.hash,
          txHash: t.hash,
          amount: t.amount,
          sender: t.senders[0] ?? null,
          detail: `The ledger records less than the ${verifier.formatAmount(t.amount)} ${currency} that reached the platform in this transaction.`,
        },
        now,
      );
      continue;
    }
    const escrowId = crypto.randomUUID();
    const detail = uncreditedDetail(verifier.formatAmount, currency, t);
    // Dust (docs/payments.md#dust) is in the ledger, ignored: not a difference for a person, never alerted.
    const dust = refundStatusFor(t.amount, verifier.dustBelow) === refundTo("ignore");
    if (dust) {
      report.differences--;
      report.dust++;
    } else console.warn(`payment attention (${network}, uncredited): ${detail}`);
    const ledgerRow = unclaimedEscrow(
      network,
      verifier,
      { hash: t.hash, sender: t.senders[0] ?? null, amount: t.amount, reason: t.direct ? "unmatched" : "indirect" },
      escrowId,
      now,
    );
    try {
      await writeBatch(
        db,
        dust
          ? [ledgerRow]
          : [
              ledgerRow,
              paymentAttentionStatement(
                { network, kind: "uncredited", ref: t.hash, txHash: t.hash, amount: t.amount, sender: t.senders[0] ?? null, escrowId, detail },
                now,
              ),
            ],
      );
    } catch (err) {
      // Settled by a purchase between the check and this batch: then it is accounted for after all.
      if (!isIntegrityError(err)) throw err;
      if (dust) report.dust--;
      else report.differences--;
      report.accounted++;
    }
  }

  for (const u of window.unexplained) {
    report.differences++;
    const bta = blockchainTransactionAudit;
    const reported = await db
      .select({ transactionId: bta.transactionId, txHash: bta.txHash, status: bta.status })
      .from(bta)
      .where(and(eq(bta.network, network), eq(bta.blockNumber, u.block), like(bta.status, "rejected-%")))
      .orderBy(asc(bta.id))
      .limit(5);
    const amount = `${verifier.formatAmount(u.amount)} ${currency}`;
    const candidates = reported
      .map((r) => `${r.txHash} (reported on purchase ${r.transactionId}, ${(r.status ?? "").replace("rejected-", "refused: ")})`)
      .join("; ");
    await recordPaymentAttention(
      db,
      {
        network,
        kind: "balance",
        ref: `block:${u.block}`,
        fromBlock: u.block,
        toBlock: u.block,
        amount: u.amount,
        txHash: reported[0]?.txHash ?? null,
        transactionId: reported[0]?.transactionId ?? null,
        detail:
          `In block ${u.block} the platform's balance ${u.amount > 0n ? "rose" : "fell"} by ${amount} more than its transactions explain ` +
          `(value by an internal call: a contract wallet, an ERC-4337 account, a forwarding contract).` +
          (candidates ? ` Reported in that block: ${candidates}.` : ""),
      },
      now,
    );
  }
  await saveCursor(db, network, updatedAt, window, now);
  await recheckStaleHeld(db, deployment, network, now);
  return report;
}

/**
 * Payments held for a purchase that no longer waits on them (it failed, or was paid with another hash): asked
 * again, so that once final they are listed for refund instead of staying held. One held for a day and still not
 * final is a difference (and after two days it is no longer asked about: the difference stands for it).
 */
async function recheckStaleHeld(db: Db, deployment: Deployment, network: Network, now: number) {
  const rows = await db
    .select({ ...purchaseColumns, heldHash: e.txHash, heldSince: e.createdAt, escrowId: e.id })
    .from(e)
    .innerJoin(tx, eq(tx.id, e.transactionId))
    .where(
      and(
        eq(e.network, network),
        ledgerIn(e.status, LEDGER_HELD),
        sql`${e.createdAt} < ${now - STALE_HELD_MS}`,
        sql`${e.createdAt} > ${now - 2 * LATE_PAYMENT_WINDOW_MS}`,
        sql`NOT (${statusIs(tx.status, "pending")} AND ${tx.txHash} = ${e.txHash})`,
      ),
    )
    .orderBy(e.createdAt)
    .limit(STALE_HELD_PER_RUN);
  for (const { heldHash, heldSince, escrowId, ...row } of rows) {
    const hash = heldHash!;
    await verifyPayment(db, deployment, row, hash, now);
    if (heldSince < now - LATE_PAYMENT_WINDOW_MS) {
      const still = await db.select({ status: e.status }).from(e).where(eq(e.id, escrowId)).get();
      if (inLedgerSet(LEDGER_HELD, still?.status ?? null)) {
        await recordPaymentAttention(
          db,
          {
            network,
            kind: "ledger",
            ref: `held:${hash}`,
            txHash: hash,
            transactionId: row.id,
            escrowId,
            detail: "A payment seen for this purchase a day ago has not become final on the chain since (dropped or reorganised away?).",
          },
          now,
        );
      }
    }
  }
}
