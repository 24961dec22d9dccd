// The purchase work of the cron job: verify pending payments, find payments the browser never reported,
// expire unpaid reservations. Each step is bounded per run and idempotent; overlapping runs split the
// pending purchases between them through a short lease on each row, held only while that row is verified
// so the next run (a minute later) checks it again.
import { sql } from "drizzle-orm";
import type { Network } from "../../schema/db";
import { paymentVerifier, type ScanTarget, type VerifierEnv } from "../chain/payment-verifier";
import type { Db } from "../db";
import { findPurchase, PURCHASE_COLUMNS, PURCHASE_COLUMNS_BARE, type PurchaseRow } from "./purchase-row";
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

type Verify = (db: Db, env: VerifierEnv, row: PurchaseRow, hash: string, now: number) => Promise<VerifyOutcome>;

export async function verifyPendingPayments(
  db: Db,
  env: VerifierEnv,
  now = Date.now(),
  verify: Verify = verifyPayment,
): Promise<{ verified: number; settled: number }> {
  const lease = now + LEASE_MS;
  // Claiming and reading in one statement: a concurrent run's claim excludes these rows and vice versa.
  const claimed = await db.all<PurchaseRow>(sql`
    UPDATE transactions SET lease_until = ${lease}
    WHERE id IN (SELECT id FROM transactions WHERE status = 'pending' AND tx_hash IS NOT NULL AND (lease_until IS NULL OR lease_until < ${now})
                   ORDER BY updated_at LIMIT ${VERIFY_PER_RUN})
    RETURNING ${PURCHASE_COLUMNS_BARE}`);
  let settled = 0;
  // Only our own lease is given back: if this run outlived it, another run may hold the row now.
  const release = (ids: string[]) =>
    db.run(sql`UPDATE transactions SET lease_until = NULL WHERE lease_until = ${lease} AND id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
  let done = 0;
  try {
    for (const row of claimed) {
      const outcome = await verify(db, env, row, row.tx_hash!, now);
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

const CLOSED = sql.raw(`('expired', 'cancelled', 'failed', 'completed')`);

/**
 * Looks for payments the browser never reported (issue 26 §5). Open reservations come first, all of them (the
 * least recently scanned first should there ever be more than SCAN_TARGETS_PER_RUN); closed purchases still in
 * their late-payment window take turns in a budget of their own, so however many there are, a new reservation
 * is scanned in the very next run. Ethereum scans each group from its own starting block.
 */
export async function scanForPayments(db: Db, env: VerifierEnv, network: Network, now = Date.now()): Promise<{ found: number; nodeAnswered: boolean }> {
  const verifier = paymentVerifier(env, network);
  const [open, closed] = await Promise.all([
    db.all<PurchaseRow>(sql`
      SELECT ${PURCHASE_COLUMNS} FROM transactions t WHERE t.network = ${network} AND t.status = 'initiated'
      ORDER BY coalesce(t.scanned_at, 0), t.created_at LIMIT ${SCAN_TARGETS_PER_RUN}`),
    db.all<PurchaseRow>(sql`
      SELECT ${PURCHASE_COLUMNS} FROM transactions t
      WHERE t.network = ${network} AND t.status IN ${CLOSED} AND t.updated_at > ${now - LATE_PAYMENT_WINDOW_MS}
      ORDER BY coalesce(t.scanned_at, 0), t.updated_at LIMIT ${CLOSED_SCAN_TARGETS_PER_RUN}`),
  ]);
  const rows = [...open, ...closed];
  if (rows.length === 0) return { found: 0, nodeAnswered: true };
  await db.run(sql`UPDATE transactions SET scanned_at = ${now} WHERE id IN (SELECT value FROM json_each(${JSON.stringify(rows.map((r) => r.id))}))`);
  if (open.some((r) => r.scan_from_block === null) && network === "ethereum") {
    // Reserved while the node was away: start from today's head (the confirm call covers the gap).
    const head = await verifier.scanStart();
    if (head !== null) {
      await db.run(sql`UPDATE transactions SET scan_from_block = ${head} WHERE network = ${network} AND scan_from_block IS NULL AND status = 'initiated'`);
      for (const r of open) r.scan_from_block ??= head;
    }
  }
  const known = await db.all<{ h: string }>(sql`
    SELECT lower(tx_hash) AS h FROM escrow_transactions WHERE network = ${network} AND tx_hash IS NOT NULL AND created_at > ${now - 2 * LATE_PAYMENT_WINDOW_MS}
    UNION SELECT lower(tx_hash) FROM transactions WHERE network = ${network} AND tx_hash IS NOT NULL AND status IN ('pending', 'verified', 'completed')
          AND updated_at > ${now - 2 * LATE_PAYMENT_WINDOW_MS}`);
  const knownHashes = new Set(known.map((k) => k.h));
  let found = 0;
  let nodeAnswered = true;
  for (const group of [open, closed]) {
    if (group.length === 0) continue;
    const targets: ScanTarget[] = group.map((r) => ({
      id: r.id,
      buyer: r.buyer_wallet ?? "",
      reference: r.payment_reference,
      expected: BigInt(r.amount_base_units ?? "0"),
      open: r.status === "initiated",
      fromBlock: r.scan_from_block,
      createdAt: r.created_at,
    }));
    const result = await verifier.scan(targets, knownHashes);
    if (result.scannedThrough !== null) {
      const next = result.scannedThrough + 1;
      await db.run(sql`UPDATE transactions SET scan_from_block = ${next} WHERE network = ${network} AND scan_from_block < ${next}
                       AND id IN (SELECT value FROM json_each(${JSON.stringify(group.map((r) => r.id))}))`);
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
  const result = await db.run(sql`UPDATE transactions SET status = 'expired', failure_reason = 'expired', updated_at = ${now}
                                  WHERE status = 'initiated' AND expires_at < ${now}`);
  return result.meta.changes ?? 0;
}
