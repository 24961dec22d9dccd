// The purchase work of the cron job: verify pending payments, find payments the browser never reported,
// expire unpaid reservations. Each step is bounded per run and idempotent; overlapping runs split the
// pending purchases between them through a short lease on each row, held only while that row is verified
// so the next run (a minute later) checks it again.
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { escrowTransactions, type Network, transactions } from "../../schema/db";
import { paymentVerifier, type ScanTarget, type VerifierEnv } from "../chain/payment-verifier";
import type { Db } from "../db";
import { findPurchase, purchaseColumns, type PurchaseRow } from "./purchase-row";
import { type VerifyOutcome, verifyPayment } from "./verify";

/** Pending purchases one run verifies at most. */
export const VERIFY_PER_RUN = 25;
/** Open reservations one scan looks for payments to, per network. */
export const SCAN_TARGETS_PER_RUN = 50;
/** Closed purchases (still in their late-payment window) one scan looks at, per network, taking turns. */
export const CLOSED_SCAN_TARGETS_PER_RUN = 20;
/** Longest a run may hold a pending purchase; a crashed run's rows are picked up again after it. A run
 * that finishes a row gives it back at once. */
export const LEASE_MS = 60_000;
/** Closed purchases stay in the scan this long, so a late or second payment is still listed for refund. */
export const LATE_PAYMENT_WINDOW_MS = 24 * 60 * 60_000;

const t = transactions;
/** `column IN` the ids, bound as one JSON parameter (D1 caps a statement's parameters at 100). */
const inJson = (column: typeof t.id, ids: string[]) => sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;

type Verify = (db: Db, env: VerifierEnv, row: PurchaseRow, hash: string, now: number) => Promise<VerifyOutcome>;

export async function verifyPendingPayments(
  db: Db,
  env: VerifierEnv,
  now = Date.now(),
  verify: Verify = verifyPayment,
): Promise<{ verified: number; settled: number }> {
  const lease = now + LEASE_MS;
  // Claiming and reading in one statement: a concurrent run's claim excludes these rows and vice versa.
  const claimable = db
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.status, "pending"), isNotNull(t.txHash), or(isNull(t.leaseUntil), lt(t.leaseUntil, now))))
    .orderBy(t.updatedAt)
    .limit(VERIFY_PER_RUN);
  const claimed: PurchaseRow[] = await db.update(t).set({ leaseUntil: lease }).where(inArray(t.id, claimable)).returning(purchaseColumns);
  let settled = 0;
  // Only our own lease is given back: if this run outlived it, another run may hold the row now.
  const release = (ids: string[]) =>
    db
      .update(t)
      .set({ leaseUntil: null })
      .where(and(eq(t.leaseUntil, lease), inJson(t.id, ids)));
  let done = 0;
  try {
    for (const row of claimed) {
      const outcome = await verify(db, env, row, row.txHash!, now);
      if (outcome.decision.outcome === "settle") settled++;
      await release([row.id]);
      done++;
    }
  } finally {
    // A verification that threw leaves the rest of the claim unverified: give it back for the next run.
    if (done < claimed.length) await release(claimed.slice(done).map((r) => r.id));
  }
  return { verified: claimed.length, settled };
}

const CLOSED = ["expired", "cancelled", "failed", "completed"] as const;

/**
 * Looks for payments the browser never reported (issue 26 §5). Open reservations come first, all of them (the
 * least recently scanned first should there ever be more than SCAN_TARGETS_PER_RUN); closed purchases still in
 * their late-payment window take turns in a budget of their own, so however many there are, a new reservation
 * is scanned in the very next run. Ethereum scans each group from its own starting block.
 */
export async function scanForPayments(db: Db, env: VerifierEnv, network: Network, now = Date.now()): Promise<{ found: number; nodeAnswered: boolean }> {
  const verifier = paymentVerifier(env, network);
  const [open, closed] = await Promise.all([
    db
      .select(purchaseColumns)
      .from(t)
      .where(and(eq(t.network, network), eq(t.status, "initiated")))
      .orderBy(sql`coalesce(${t.scannedAt}, 0)`, asc(t.createdAt))
      .limit(SCAN_TARGETS_PER_RUN),
    db
      .select(purchaseColumns)
      .from(t)
      .where(and(eq(t.network, network), inArray(t.status, CLOSED), gt(t.updatedAt, now - LATE_PAYMENT_WINDOW_MS)))
      .orderBy(sql`coalesce(${t.scannedAt}, 0)`, asc(t.updatedAt))
      .limit(CLOSED_SCAN_TARGETS_PER_RUN),
  ]);
  const rows: PurchaseRow[] = [...open, ...closed];
  if (rows.length === 0) return { found: 0, nodeAnswered: true };
  await db
    .update(t)
    .set({ scannedAt: now })
    .where(
      inJson(
        t.id,
        rows.map((r) => r.id),
      ),
    );
  if (open.some((r) => r.scanFromBlock === null) && network === "ethereum") {
    // Reserved while the node was away: start from today's head (the confirm call covers the gap).
    const head = await verifier.scanStart();
    if (head !== null) {
      await db
        .update(t)
        .set({ scanFromBlock: head })
        .where(and(eq(t.network, network), isNull(t.scanFromBlock), eq(t.status, "initiated")));
      for (const r of open) r.scanFromBlock ??= head;
    }
  }
  const e = escrowTransactions;
  const known = await db.all<{ h: NonNullable<(typeof e.$inferSelect)["txHash"]> }>(sql`
    SELECT lower(${e.txHash}) AS h FROM ${e} WHERE ${e.network} = ${network} AND ${e.txHash} IS NOT NULL AND ${e.createdAt} > ${now - 2 * LATE_PAYMENT_WINDOW_MS}
    UNION SELECT lower(${t.txHash}) FROM ${t} WHERE ${t.network} = ${network} AND ${t.txHash} IS NOT NULL AND ${t.status} IN ('pending', 'verified', 'completed')
          AND ${t.updatedAt} > ${now - 2 * LATE_PAYMENT_WINDOW_MS}`);
  const knownHashes = new Set(known.map((k) => k.h));
  let found = 0;
  let nodeAnswered = true;
  for (const group of [open, closed]) {
    if (group.length === 0) continue;
    const targets: ScanTarget[] = group.map((r) => ({
      id: r.id,
      buyer: r.buyerWallet ?? "",
      reference: r.paymentReference,
      expected: BigInt(r.amountBaseUnits ?? "0"),
      open: r.status === "initiated",
      fromBlock: r.scanFromBlock,
      createdAt: r.createdAt,
    }));
    const result = await verifier.scan(targets, knownHashes);
    if (result.scannedThrough !== null) {
      const next = result.scannedThrough + 1;
      await db
        .update(t)
        .set({ scanFromBlock: next })
        .where(
          and(
            eq(t.network, network),
            lt(t.scanFromBlock, next),
            inJson(
              t.id,
              group.map((r) => r.id),
            ),
          ),
        );
    }
    if (result.found === null) nodeAnswered = false;
    for (const { targetId, hash } of result.found ?? []) {
      const row = await findPurchase(db, targetId);
      const h = network === "ethereum" ? hash.toLowerCase() : hash;
      knownHashes.add(h.toLowerCase());
      if (row) await verifyPayment(db, env, row, h, now);
      found++;
    }
  }
  return { found, nodeAnswered };
}

/** Unpaid reservations past their 15 minutes: expired, which frees the listing. */
export async function expireReservations(db: Db, now = Date.now()): Promise<number> {
  const result = await db
    .update(t)
    .set({ status: "expired", failureReason: "expired", updatedAt: now })
    .where(and(eq(t.status, "initiated"), lt(t.expiresAt, now)));
  return result.meta.changes ?? 0;
}
