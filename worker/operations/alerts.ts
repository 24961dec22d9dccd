// Operator alerts (issue 24 §4): a JSON POST with a Slack-compatible `text` field to ALERT_WEBHOOK_URL for
//   - a payment listed for refund (escrow_transactions.refund_status = 'needed', and payment_attention rows),
//   - a chain node failing for more than CHAIN_DOWN_ALERT_MS,
//   - a cron task failing CRON_FAILURE_RUNS runs in a row,
//   - a custom order past its payment deadline.
// Each condition is an incident (alert_incidents): opened once, sent once, resolved when the condition is gone.
// A node or task that recovers and fails again opens a new incident; a refund or an order is one incident for
// good. Sending is retried with backoff across cron runs (ALERT_MAX_ATTEMPTS, alertBackoffMs). Texts are built
// from public facts only (amounts, networks, transaction hashes, ids, task names): never a key, a secret or an
// RPC URL.
import { and, eq, gt, inArray, isNull, lte, notInArray, or, sql } from "drizzle-orm";
import { alertIncidents, type AlertKind, chainStatus, customOrders, escrowTransactions, paymentAttention } from "../../schema/db";
import type { Db } from "../db";
import { safeError } from "./chains";
import { lastCronRuns } from "./cron-runs";

/** A node is alerted on once it has failed for longer than this. */
export const CHAIN_DOWN_ALERT_MS = 5 * 60_000;
/** A cron task is alerted on once it has failed this many runs in a row. */
export const CRON_FAILURE_RUNS = 3;
/** Sending gives up after this many attempts (the incident stays, with its last error, in alert_incidents). */
export const ALERT_MAX_ATTEMPTS = 8;
/** Custom orders whose deadline passed longer ago than this are history, not news (no alert on first deploy). */
export const ORDER_OVERDUE_WINDOW_MS = 7 * 86_400_000;
/** Incidents sent per cron run at most, and rows of each kind read per run. */
export const ALERTS_PER_RUN = 20;
const ROWS_PER_KIND = 200;
const SEND_TIMEOUT_MS = 5_000;

/** Wait before attempt n+1 after n failed attempts: 1, 2, 4, ... minutes, at most an hour. */
export function alertBackoffMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

type Condition = { key: string; kind: AlertKind; text: string };
/** Kinds whose incident can recur (a new incident after a recovery); the others are one incident per row. */
const RECURRING: AlertKind[] = ["chain_down", "cron_failing"];

const iso = (ms: number) => new Date(ms).toISOString();

async function conditions(db: Db, now: number): Promise<Condition[]> {
  const e = escrowTransactions;
  const pa = paymentAttention;
  const co = customOrders;
  const [chains, runs, refunds, attention, orders] = await Promise.all([
    db
      .select()
      .from(chainStatus)
      .where(and(eq(chainStatus.ok, false), lte(chainStatus.failingSince, now - CHAIN_DOWN_ALERT_MS))),
    lastCronRuns(db, CRON_FAILURE_RUNS),
    db
      .select({
        id: e.id,
        network: e.network,
        amount: e.amount,
        currency: e.currency,
        txHash: e.txHash,
        reason: e.attentionReason,
        transactionId: e.transactionId,
      })
      .from(e)
      .where(eq(e.refundStatus, "needed"))
      .limit(ROWS_PER_KIND),
    db
      .select({ id: pa.id, network: pa.network, kind: pa.kind, detail: pa.detail, txHash: pa.txHash })
      .from(pa)
      .where(and(eq(pa.status, "open"), isNull(pa.alertedAt)))
      .limit(ROWS_PER_KIND),
    db
      .select({ id: co.id, status: co.status, price: co.price, deadline: co.paymentDeadline })
      .from(co)
      .where(and(inArray(co.status, ["found", "expired"]), lte(co.paymentDeadline, now), gt(co.paymentDeadline, now - ORDER_OVERDUE_WINDOW_MS)))
      .limit(ROWS_PER_KIND),
  ]);
  const out: Condition[] = [];
  for (const c of chains) {
    const minutes = Math.floor((now - c.failingSince!) / 60_000);
    out.push({
      key: `chain:${c.network}`,
      kind: "chain_down",
      text: `The ${c.network} node has not answered for ${minutes} minutes (since ${iso(c.failingSince!)}): ${c.error ?? "no answer"}`,
    });
  }
  if (runs.length === CRON_FAILURE_RUNS) {
    const failing = runs[0].failedTasks.filter((task) => runs.every((r) => r.failedTasks.includes(task)));
    for (const task of failing) {
      out.push({
        key: `cron:${task}`,
        kind: "cron_failing",
        text: `The cron task "${task}" failed ${CRON_FAILURE_RUNS} runs in a row (last at ${iso(runs[0].startedAt)}): ${runs[0].errors.find((m) => m.startsWith(`${task}:`)) ?? ""}`.trim(),
      });
    }
  }
  for (const r of refunds) {
    out.push({
      key: `escrow:${r.id}`,
      kind: "refund_due",
      text: `A payment needs a refund: ${r.amount} ${r.currency} on ${r.network} (${r.reason ?? "refund"}), transaction ${r.txHash ?? "unknown"}${r.transactionId ? `, purchase ${r.transactionId}` : ""}. Admin > Payments.`,
    });
  }
  for (const a of attention) {
    out.push({
      key: `attention:${a.id}`,
      kind: "refund_due",
      text: `A payment difference needs a person (${a.network}, ${a.kind}): ${a.detail}${a.txHash ? ` (transaction ${a.txHash})` : ""}. Admin > Payments.`,
    });
  }
  for (const o of orders) {
    out.push({
      key: `custom-order:${o.id}`,
      kind: "custom_order_overdue",
      text: `Custom order #${o.id} (${o.price} ETH) passed its payment deadline ${iso(o.deadline!)} unpaid (now ${o.status}).`,
    });
  }
  return out;
}

export type AlertReport = { opened: number; resolved: number; sent: number; failed: number };

/** One cron run's alert work: open incidents for new conditions, resolve the gone ones, send what is due. */
export async function runAlerts(db: Db, env: Pick<Env, "ALERT_WEBHOOK_URL">, now: number): Promise<AlertReport> {
  const a = alertIncidents;
  const current = await conditions(db, now);
  const keys = current.map((c) => c.key);
  // Resolve open incidents whose condition is gone (a refund marked, a node answering again, a task passing).
  const resolved = await db
    .update(a)
    .set({ state: "resolved", resolvedAt: now })
    .where(and(eq(a.state, "open"), keys.length ? notInArray(a.key, keys) : sql`1 = 1`))
    .returning({ id: a.id });
  let opened = 0;
  if (keys.length) {
    const known = await db
      .select({ key: a.key, state: a.state, kind: a.kind })
      .from(a)
      .where(and(inArray(a.key, keys), or(eq(a.state, "open"), notInArray(a.kind, RECURRING))));
    const seen = new Set(known.map((k) => k.key));
    const fresh = current.filter((c) => !seen.has(c.key));
    if (fresh.length) {
      // The partial unique index (one open incident per key) makes a second, overlapping run's insert a no-op.
      const rows = await db
        .insert(a)
        .values(fresh.map((c) => ({ key: c.key, kind: c.kind, text: c.text.slice(0, 1000), state: "open" as const, openedAt: now })))
        .onConflictDoNothing()
        .returning({ id: a.id });
      opened = rows.length;
    }
  }
  const { sent, failed } = await sendDue(db, env, now);
  return { opened, resolved: resolved.length, sent, failed };
}

async function sendDue(db: Db, env: Pick<Env, "ALERT_WEBHOOK_URL">, now: number): Promise<{ sent: number; failed: number }> {
  const url = env.ALERT_WEBHOOK_URL?.trim();
  if (!url) return { sent: 0, failed: 0 };
  const a = alertIncidents;
  const due = and(eq(a.state, "open"), isNull(a.sentAt), sql`${a.attempts} < ${ALERT_MAX_ATTEMPTS}`, or(isNull(a.nextAttemptAt), lte(a.nextAttemptAt, now)));
  const candidates = await db.select({ id: a.id, attempts: a.attempts }).from(a).where(due).orderBy(a.openedAt, a.id).limit(ALERTS_PER_RUN);
  let sent = 0;
  let failed = 0;
  for (const { id, attempts } of candidates) {
    // Claim before sending, so an overlapping run does not send it too: the attempt is counted and the next one
    // scheduled now; a success then marks it sent.
    const claimed = await db
      .update(a)
      .set({ attempts: attempts + 1, nextAttemptAt: now + alertBackoffMs(attempts + 1) })
      .where(and(eq(a.id, id), eq(a.attempts, attempts), due))
      .returning();
    const incident = claimed[0];
    if (!incident) continue;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          text: incident.text,
          incident: { id: incident.id, kind: incident.kind, key: incident.key, openedAt: iso(incident.openedAt), attempt: incident.attempts },
        }),
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      await db.update(a).set({ sentAt: now, lastError: null }).where(eq(a.id, id));
      if (incident.key.startsWith("attention:")) {
        await db
          .update(paymentAttention)
          .set({ alertedAt: now })
          .where(eq(paymentAttention.id, incident.key.slice("attention:".length)));
      }
      sent += 1;
    } catch (err) {
      await db
        .update(a)
        .set({ lastError: safeError(err) })
        .where(eq(a.id, id));
      console.error(`alert ${incident.key} not delivered (attempt ${incident.attempts}): ${safeError(err)}`);
      failed += 1;
    }
  }
  return { sent, failed };
}
