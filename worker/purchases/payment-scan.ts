// Finding payments the browser never reported (docs/payments.md#finding-payments), for every purchase at once. Each
// run reads the chain's new part once per network (Ethereum: the new blocks, up to the head; Solana: the platform
// address's new signatures) and looks up the purchases each transfer to the platform may be for, by its sender
// (Ethereum) or its reference key (Solana), in one query over all of the window's transfers. The cost of a run
// follows the transfers to the platform, never the number of open reservations (past ~750 of them the old
// per-reservation scan saw each one once, before it was paid). What a transfer means for its purchase is
// decided by verifyPayment, as for a reported hash. Idempotent: a transfer already in the ledger or on a purchase is
// skipped, and the cursor moves with compare-and-set only after the window is handled.
import { and, eq, sql } from "drizzle-orm";
import { escrowTransactions, type Network, paymentScanCursors, transactions } from "../../schema/db";
import { PAYABLE, PAYMENT_RECORDED, TERMINAL } from "../../schema/purchase-lifecycle";
import { type ReceivedTransfer, type ScanCursor, type ScanWindow, paymentVerifier } from "../chain/payment-verifier";
import type { Deployment } from "../deployment/deployment";
import { bare, type Db, decodeRow, selectList } from "../db/database";
import { firstPaymentBlock, matchTransferToPurchase } from "../domain/payment-decision";
import { recordDisagreements } from "../operations/node-disagreements";
import { LATE_PAYMENT_WINDOW_MS } from "./payment-jobs";
import { purchaseColumns, type PurchaseRow } from "./purchase-row";
import { statusIn, statusIs } from "./status-sql";
import { verifyPayment } from "./verify";

/** Ethereum blocks one scan reads at most (the next run continues from there). */
export const SCAN_BLOCKS_PER_RUN = 100;
/** Solana platform signatures one scan reads at most; an older remainder is the reconciliation's. */
export const SCAN_SIGNATURES_PER_RUN = 100;
/** A sender's purchases the scan considers at most: their open reservations and newest closed ones. */
const PURCHASES_PER_SENDER = 20;

const t = transactions;
const e = escrowTransactions;
const sc = paymentScanCursors;

async function loadCursor(db: Db, network: Network): Promise<{ cursor: ScanCursor; updatedAt: number | null }> {
  const row = await db.select().from(sc).where(eq(sc.network, network)).get();
  return row
    ? { cursor: { nextBlock: row.nextBlock, lastSignature: row.lastSignature }, updatedAt: row.updatedAt }
    : { cursor: { nextBlock: null, lastSignature: null }, updatedAt: null };
}

/** Moves the cursor on, unless another run moved it since this one read it (then that run's window stands). */
async function saveCursor(db: Db, network: Network, readAt: number | null, c: ScanCursor, now: number) {
  await db
    .insert(sc)
    .values({ network, nextBlock: c.nextBlock, lastSignature: c.lastSignature, updatedAt: now })
    .onConflictDoUpdate({
      target: sc.network,
      set: {
        nextBlock: sql`excluded.${bare(sc.nextBlock)}`,
        lastSignature: sql`excluded.${bare(sc.lastSignature)}`,
        updatedAt: sql`excluded.${bare(sc.updatedAt)}`,
      },
      setWhere: sql`${sc.updatedAt} IS ${readAt}`,
    });
}

/** Ethereum, first run: the block the oldest open reservation saw as the head (its payment cannot be older). */
async function oldestOpenReservationBlock(db: Db): Promise<number | null> {
  const row = await db
    .select({ block: sql<number | null>`min(${t.reservedBlock})` })
    .from(t)
    .where(and(eq(t.network, "ethereum"), statusIn(t.status, PAYABLE)))
    .get();
  return row?.block ?? null;
}

/** The window's transfers that nothing has recorded yet: no ledger row, no purchase waiting on or paid by the hash. */
async function unrecorded(db: Db, network: Network, transfers: ReceivedTransfer[]): Promise<ReceivedTransfer[]> {
  if (transfers.length === 0) return [];
  const known = await db.all<{ h: string }>(sql`
    SELECT j.value AS h FROM json_each(${JSON.stringify(transfers.map((x) => x.hash))}) j
    WHERE EXISTS (SELECT 1 FROM ${e} WHERE ${e.network} = ${network} AND ${e.txHash} = j.value)
       OR EXISTS (SELECT 1 FROM ${t} WHERE ${t.network} = ${network} AND ${t.txHash} = j.value AND ${statusIn(t.status, PAYMENT_RECORDED)})`);
  const seen = new Set(known.map((k) => k.h));
  return transfers.filter((x) => !seen.has(x.hash));
}

/**
 * The purchases these transfers may be for, in one query: by reference key (Solana), or by sender (Ethereum: each
 * sender's open reservations and closed purchases still in their late-payment window, newest first, at most
 * PURCHASES_PER_SENDER each).
 */
async function candidates(db: Db, network: Network, transfers: ReceivedTransfer[], now: number): Promise<PurchaseRow[]> {
  if (network === "solana") {
    const references = [...new Set(transfers.flatMap((x) => x.references))];
    if (references.length === 0) return [];
    return db
      .select(purchaseColumns)
      .from(t)
      .where(and(eq(t.network, network), sql`${t.paymentReference} IN (SELECT value FROM json_each(${JSON.stringify(references)}))`));
  }
  const senders = [...new Set(transfers.flatMap((x) => x.senders))];
  if (senders.length === 0) return [];
  const rows = await db.all<Record<string, unknown>>(sql`
    SELECT * FROM (
      SELECT ${selectList(purchaseColumns)},
             row_number() OVER (PARTITION BY ${t.buyerWallet} ORDER BY ${t.createdAt} DESC) AS nth
      FROM ${t}
      WHERE ${t.network} = ${network} AND ${t.buyerWallet} IN (SELECT value FROM json_each(${JSON.stringify(senders)}))
        AND (${statusIs(t.status, "initiated")} OR (${statusIn(t.status, TERMINAL)} AND ${t.updatedAt} > ${now - LATE_PAYMENT_WINDOW_MS})))
    WHERE nth <= ${PURCHASES_PER_SENDER}`);
  return rows.map((r) => decodeRow(purchaseColumns, r) as PurchaseRow);
}

/**
 * The purchase a transfer is for, if any. Solana: the one its reference key names. Ethereum (no reference key): one
 * of its sender's open reservations made before it was mined (the one asking exactly the amount, else the oldest it
 * covers, else the oldest), else the sender's newest closed purchase made before it, which lists it as late or
 * duplicate. Each open reservation takes one transfer per run.
 */
function purchaseFor(network: Network, x: ReceivedTransfer, rows: PurchaseRow[], claimed: Set<string>): PurchaseRow | null {
  if (network === "solana") return rows.find((r) => r.paymentReference !== null && x.references.includes(r.paymentReference)) ?? null;
  const mine = rows
    .filter((r) => {
      // Only a reservation that existed when the transfer was mined can be what it pays (docs/payments.md#the-decision-decidepayment).
      const first = firstPaymentBlock(network, r.reservedBlock);
      return r.buyerWallet === x.senders[0] && (x.blockNumber === null || first === null || first <= x.blockNumber);
    })
    .sort((a, b) => a.createdAt - b.createdAt);
  const open = mine.filter((r) => r.status === "initiated" && !claimed.has(r.id));
  const exact = matchTransferToPurchase(
    open.map((row) => ({ row, expected: BigInt(row.amountBaseUnits ?? "0") })),
    x.amount,
  );
  return exact?.row ?? mine.filter((r) => r.status !== "initiated").at(-1) ?? null;
}

/** One run of the scan on one network: the payments found (handed to verifyPayment), and whether the node answered. */
export async function scanForPayments(db: Db, deployment: Deployment, network: Network, now = Date.now()): Promise<{ found: number; nodeAnswered: boolean }> {
  const verifier = paymentVerifier(deployment, network, recordDisagreements(db));
  const { cursor, updatedAt } = await loadCursor(db, network);
  const startAt = network === "ethereum" && cursor.nextBlock === null ? await oldestOpenReservationBlock(db) : null;
  const window = await verifier.scanTransfers(cursor, { limit: network === "ethereum" ? SCAN_BLOCKS_PER_RUN : SCAN_SIGNATURES_PER_RUN, startAt });
  if (window === null) return { found: 0, nodeAnswered: false };
  // A zero-value transfer pays nothing: it is no payment attempt (the reconciliation records it as dust).
  const fresh = (
    await unrecorded(
      db,
      network,
      window.transfers.filter((x) => x.amount > 0n),
    )
  ).sort((a, b) => (a.blockNumber ?? Number.MAX_SAFE_INTEGER) - (b.blockNumber ?? Number.MAX_SAFE_INTEGER));
  const rows = await candidates(db, network, fresh, now);
  const claimed = new Set<string>();
  let found = 0;
  let unchecked: ReceivedTransfer | null = null;
  for (const x of fresh) {
    const purchase = purchaseFor(network, x, rows, claimed);
    if (!purchase) continue;
    if (purchase.status === "initiated") claimed.add(purchase.id);
    const outcome = await verifyPayment(db, deployment, purchase, x.hash, now);
    found++;
    if (outcome.observation.kind === "unavailable") {
      unchecked = x;
      break;
    }
  }
  await saveCursor(db, network, updatedAt, unchecked ? cursorBefore(network, cursor, window, unchecked) : window.cursor, now);
  return { found, nodeAnswered: true };
}

/**
 * The cursor that reads `x` again next run: a payment the node could not say anything about now is not skipped
 * past (it would be left to the reconciliation, which a flaky node holds back for as long as it flakes). What the
 * run did record before it is not recorded twice (`unrecorded`). Ethereum: from x's block on; Solana: every
 * signature newer than the newest transfer of an earlier slot than x's, all of which the run has read.
 */
function cursorBefore(network: Network, cursor: ScanCursor, window: ScanWindow, x: ReceivedTransfer): ScanCursor {
  if (network === "ethereum") {
    if (x.blockNumber === null) return cursor;
    return { ...window.cursor, nextBlock: Math.min(window.cursor.nextBlock ?? x.blockNumber, x.blockNumber) };
  }
  // The window's transfers are in the node's order, newest first; those of x's slot may not have been read yet.
  const after = window.transfers.slice(window.transfers.findIndex((t) => t.hash === x.hash) + 1);
  const older = x.blockNumber === null ? undefined : after.find((t) => t.blockNumber !== null && t.blockNumber < x.blockNumber!);
  return { ...window.cursor, lastSignature: older ? older.hash : cursor.lastSignature };
}
