// Operator alerts: a JSON POST with a Slack-compatible `text` field to ALERT_WEBHOOK_URL for
//   - a payment listed for refund (escrow_transactions.refund_status = 'needed', and payment_attention rows),
//   - a chain whose nodes fail (fewer than its quorum answer) for more than CHAIN_DOWN_ALERT_MS,
//   - one node of a chain with several failing for more than CHAIN_DOWN_ALERT_MS, named by host (with one node the
//     chain's incident is the same news),
//   - a cron task failing (throwing, out of time, or the run stopped in it) CRON_FAILURE_RUNS finished runs in a row
//     (the alerts task itself included: its next good run tells),
//   - the reconciliation not caught up for RECONCILE_LAG_ALERT_MINUTES,
//   - a custom order past its payment deadline,
//   - a node that contradicted the other nodes of its chain within NODE_DISAGREEMENT_ALERT_MS (node-disagreements.ts).
// Each condition is an incident (alert_incidents): opened once, sent once, resolved when the condition is gone.
// A node, task or reconciliation that recovers and fails again opens a new incident; a refund or an order is one
// incident for good. Each run sends one delivery per topic (the kind, or the kind of payment difference) with every
// incident of it that is due: its own text when it is alone, a digest ("37 unmatched transfers, 1.2 SOL in all")
// when there are several, so a flood of one kind never holds back another. No query binds a parameter per condition or row (D1 binds at most 100): docs/operations.md#alerts. Sending is retried with backoff across cron runs (ALERT_MAX_ATTEMPTS, alertBackoffMs). Texts are built
// from public facts only (amounts, networks, transaction hashes, ids, task names): never a key, a secret or an
// RPC URL.
import { and, desc, eq, gt, like, lte, or, type SQL, sql } from "drizzle-orm";
import { alertIncidents, type AlertKind, chainNodeStatus, chainStatus, customOrders, escrowTransactions, paymentAttention } from "../../schema/db";
import { type Coin, formatBaseUnits } from "../../schema/money";
import { bare, type Db } from "../db/database";
import { safeError } from "./chains";
import { lastCronRuns } from "./cron-runs";
import { disagreeingNodes, NODE_DISAGREEMENT_ALERT_MS } from "./node-disagreements";
import { reconciliationLag } from "./reconciliation-lag";
import { REFUND_OWED } from "../../schema/ledger-lifecycle";
import { refundIn } from "../purchases/ledger-sql";
import { orderTo } from "../../schema/order-lifecycle";
import { orderStatusIn } from "../orders/status-sql";

/** A chain, or one of its nodes, is alerted on once it has failed for longer than this. */
export const CHAIN_DOWN_ALERT_MS = 5 * 60_000;
/** A cron task is alerted on once it has failed this many runs in a row. */
export const CRON_FAILURE_RUNS = 3;
/** Sending gives up after this many attempts (the incident stays, with its last error, in alert_incidents). */
export const ALERT_MAX_ATTEMPTS = 8;
/** Custom orders whose deadline passed longer ago than this are history, not news (no alert on first deploy). */
export const ORDER_OVERDUE_WINDOW_MS = 7 * 86_400_000;
/** Deliveries per cron run at most: one per topic (there are fewer topics than this), each a digest when it holds several. */
const TOPICS_PER_RUN = 20;
/** Incidents of one topic in one run's digest at most, the newest; the others go in the next runs' digests. */
const DIGEST_MAX = 500;
/** Incident texts quoted in a digest of a kind that has no amounts to sum. */
const DIGEST_QUOTED = 5;
/** Rows of each topic (a refund's reason, a difference's kind, overdue orders) given their incident per run at most, the newest first. */
export const ROWS_PER_TOPIC = 200;
const SEND_TIMEOUT_MS = 5_000;

/** Wait before attempt n+1 after n failed attempts: 1, 2, 4, ... minutes, at most an hour. */
export function alertBackoffMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/** topic: what the incident is sent with (one delivery per topic and run): the kind, or the kind of payment difference. */
type Condition = { key: string; kind: AlertKind; topic: string; text: string };
/** Kinds whose incident can recur (a new incident after a recovery); the others are one incident per row, for good. */
const RECURRING: AlertKind[] = ["chain_down", "node_down", "cron_failing", "reconciliation_behind", "node_disagreement"];
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The conditions whose keys a run computes whole (a few: one per network or task): nodes down, tasks failing, a
 * reconciliation behind.
 */
async function recurringConditions(db: Db, env: AlertEnv, now: number): Promise<Condition[]> {
  const [chains, nodes, runs, lag, liars] = await Promise.all([
    db
      .select()
      .from(chainStatus)
      .where(and(eq(chainStatus.ok, false), lte(chainStatus.failingSince, now - CHAIN_DOWN_ALERT_MS))),
    downNodes(db, now - CHAIN_DOWN_ALERT_MS),
    // Finished runs only: the alerts run early in each run, so this run's failures are told by the next.
    lastCronRuns(db, CRON_FAILURE_RUNS),
    reconciliationLag(db, env, now),
    disagreeingNodes(db, now - NODE_DISAGREEMENT_ALERT_MS),
  ]);
  const out: Condition[] = [];
  for (const n of liars) {
    out.push({
      key: `node-disagreement:${n.network}:${n.node}`,
      kind: "node_disagreement",
      topic: "node_disagreement",
      text: `The ${n.network} node at ${n.node} contradicted the other nodes ${n.times} time(s) since ${iso(n.firstSeenAt)} (last at ${iso(n.lastSeenAt)}${n.txHash ? `, transaction ${n.txHash}` : ""}): ${n.detail}. Payments it reads wait; check it, or remove it from the node list.`,
    });
  }
  for (const c of chains) {
    const minutes = Math.floor((now - c.failingSince!) / 60_000);
    out.push({
      key: `chain:${c.network}`,
      kind: "chain_down",
      topic: "chain_down",
      text: `Too few ${c.network} nodes have answered for ${minutes} minutes (since ${iso(c.failingSince!)}), so ${c.network} payments wait: ${c.error ?? "no answer"}`,
    });
  }
  for (const n of nodes) {
    const minutes = Math.floor((now - n.failingSince) / 60_000);
    out.push({
      key: `node-down:${n.network}:${n.node}`,
      kind: "node_down",
      topic: "node_down",
      text: `The ${n.network} node at ${n.node} has not answered for ${minutes} minutes (since ${iso(n.failingSince)}): ${(n.error ?? "no answer").replace(/\.$/, "")}. Payments wait while fewer than the quorum of nodes answer; fix it, or remove it from the node list.`,
    });
  }
  const tasks = new Set(runs.flatMap((r) => r.failedTasks));
  for (const task of tasks) {
    if (runs.length < CRON_FAILURE_RUNS || !runs.every((r) => r.failedTasks.includes(task))) continue;
    const last = runs[0];
    out.push({
      key: `cron:${task}`,
      kind: "cron_failing",
      topic: "cron_failing",
      text: `The cron task "${task}" failed ${CRON_FAILURE_RUNS} runs in a row (last at ${iso(last.startedAt)}): ${last.errors.find((m) => m.startsWith(`${task}:`)) ?? ""}`.trim(),
    });
  }
  for (const l of lag) {
    if (!l.behind) continue;
    const unit = l.network === "ethereum" ? "block" : "slot";
    const where = l.throughBlock === null ? "" : `: read through ${unit} ${l.throughBlock}`;
    const behind = l.blocksBehind === null ? "" : `, ${l.blocksBehind} ${unit}s behind the head (${l.head})`;
    out.push({
      key: `reconcile:${l.network}`,
      kind: "reconciliation_behind",
      topic: "reconciliation_behind",
      text: `The ${l.network} reconciliation has not caught up for ${l.minutesBehind} minutes${where}${behind}. Payments it has not read are not checked against the ledger.`,
    });
  }
  return out;
}

/**
 * The nodes failing since `before` or earlier, of networks with more than one node (chain_node_status holds the
 * configured nodes only: each probe deletes the others).
 */
function downNodes(db: Db, before: number) {
  const n = chainNodeStatus;
  return db
    .select({ network: n.network, node: n.node, failingSince: sql<number>`${n.failingSince}`, error: n.error })
    .from(n)
    .where(and(eq(n.ok, false), lte(n.failingSince, before), sql`(SELECT count(*) FROM ${chainNodeStatus} AS others WHERE others.network = ${n.network}) > 1`));
}

const e = escrowTransactions;
const pa = paymentAttention;
const co = customOrders;
const a = alertIncidents;
/** No incident was ever opened for this key (open or resolved): a row condition is one incident for good. */
const noIncident = (key: SQL) => sql`NOT EXISTS (SELECT 1 FROM ${a} WHERE ${a.key} = ${key})`;
const overdueOrder = (now: number) =>
  and(
    orderStatusIn(co.status, [orderTo("submit"), orderTo("expire-unpaid")]),
    lte(co.paymentDeadline, now),
    gt(co.paymentDeadline, now - ORDER_OVERDUE_WINDOW_MS),
  );

/**
 * In SQL: the rows of `table` that `where` selects, at most ROWS_PER_TOPIC of each topic (`topic`), the newest by
 * `newest` of each; newest first. Counted per topic, not per table: a flood of one kind of refund (unmatched
 * transfers) newer than a late payment must not fill the run's take and hold the late payment back run after run.
 */
function newestOfEachTopic<T>(db: Db, columns: SQL, table: SQL, where: SQL, topic: SQL, newest: SQL): Promise<T[]> {
  return db.all<T>(sql`
    SELECT * FROM (
      SELECT ${columns}, ${newest} AS newest_at, row_number() OVER (PARTITION BY ${topic} ORDER BY ${newest} DESC) AS topic_rank
      FROM ${table} WHERE ${where})
    WHERE topic_rank <= ${ROWS_PER_TOPIC} ORDER BY newest_at DESC`);
}

/**
 * Rows that have no incident yet, newest first, at most ROWS_PER_TOPIC of each topic per run: refunds due (per
 * reason), payment differences not yet alerted (per kind), custom orders past their deadline. Over runs every row
 * gets its incident; the newest first, so a flood of old rows never holds back a new one, and a flood of one topic
 * never holds back another's.
 */
async function newRowConditions(db: Db, now: number): Promise<Condition[]> {
  const [refunds, attention, orders] = await Promise.all([
    newestOfEachTopic<{
      id: string;
      network: string;
      amount: string;
      currency: string;
      txHash: string | null;
      reason: string | null;
      transactionId: string | null;
    }>(
      db,
      sql`${e.id} AS id, ${e.network} AS network, ${e.amount} AS amount, ${e.currency} AS currency, ${e.txHash} AS txHash,
          ${e.attentionReason} AS reason, ${e.transactionId} AS transactionId`,
      sql`${e}`,
      sql`${refundIn(e.refundStatus, REFUND_OWED)} AND ${noIncident(sql`'escrow:' || ${e.id}`)}`,
      sql`${e.attentionReason}`,
      sql`${e.createdAt}`,
    ),
    newestOfEachTopic<{ id: number; network: string; kind: string; detail: string; txHash: string | null }>(
      db,
      sql`${pa.id} AS id, ${pa.network} AS network, ${pa.kind} AS kind, ${pa.detail} AS detail, ${pa.txHash} AS txHash`,
      sql`${pa}`,
      sql`${pa.status} = 'open' AND ${pa.alertedAt} IS NULL AND ${noIncident(sql`'attention:' || ${pa.id}`)}`,
      sql`${pa.kind}`,
      sql`${pa.createdAt}`,
    ),
    db
      .select({ id: co.id, status: co.status, price: co.price, deadline: co.paymentDeadline })
      .from(co)
      .where(and(overdueOrder(now), noIncident(sql`'custom-order:' || ${co.id}`)))
      .orderBy(desc(co.paymentDeadline))
      .limit(ROWS_PER_TOPIC),
  ]);
  // Oldest first, so the newest row's incident has the highest id and is sent first (sendDue).
  return [
    ...refunds.reverse().map((r) => ({
      key: `escrow:${r.id}`,
      kind: "refund_due" as const,
      topic: `refund:${r.reason ?? "refund"}`,
      text: `A payment needs a refund: ${r.amount} ${r.currency} on ${r.network} (${r.reason ?? "refund"}), transaction ${r.txHash ?? "unknown"}${r.transactionId ? `, purchase ${r.transactionId}` : ""}. Admin > Payments.`,
    })),
    ...attention.reverse().map((x) => ({
      key: `attention:${x.id}`,
      kind: "refund_due" as const,
      topic: `attention:${x.kind}`,
      text: `A payment difference needs a person (${x.network}, ${x.kind}): ${x.detail}${x.txHash ? ` (transaction ${x.txHash})` : ""}. Admin > Payments.`,
    })),
    ...orders.reverse().map((o) => ({
      key: `custom-order:${o.id}`,
      kind: "custom_order_overdue" as const,
      topic: "custom_order_overdue",
      text: `Custom order #${o.id} (${o.price} ETH) passed its payment deadline ${iso(o.deadline!)} unpaid (now ${o.status}).`,
    })),
  ];
}

/**
 * Resolves the open incidents whose condition is gone, each kind asked in SQL about its own row (a refund marked or
 * dismissed, a difference alerted or resolved, an order paid or cancelled) or, for the recurring kinds, against the
 * keys this run computed. No parameter per incident: D1 binds at most 100 per query.
 */
function resolveGone(db: Db, recurringKeys: string[], now: number) {
  const keyed = (prefix: string) => sql`substr(${a.key}, ${prefix.length + 1})`;
  return db
    .update(a)
    .set({ state: "resolved", resolvedAt: now })
    .where(
      and(
        eq(a.state, "open"),
        or(
          and(
            sql`${a.kind} IN (SELECT value FROM json_each(${JSON.stringify(RECURRING)}))`,
            sql`${a.key} NOT IN (SELECT value FROM json_each(${JSON.stringify(recurringKeys)}))`,
          ),
          and(like(a.key, "escrow:%"), sql`NOT EXISTS (SELECT 1 FROM ${e} WHERE ${e.id} = ${keyed("escrow:")} AND ${refundIn(e.refundStatus, REFUND_OWED)})`),
          and(
            like(a.key, "attention:%"),
            sql`NOT EXISTS (SELECT 1 FROM ${pa} WHERE ${pa.id} = ${keyed("attention:")} AND ${pa.status} = 'open' AND ${pa.alertedAt} IS NULL)`,
          ),
          and(
            like(a.key, "custom-order:%"),
            sql`NOT EXISTS (SELECT 1 FROM ${co} WHERE ${co.id} = CAST(${keyed("custom-order:")} AS INTEGER) AND ${overdueOrder(now)})`,
          ),
        ),
      ),
    )
    .returning({ id: a.id });
}

export type AlertReport = { opened: number; resolved: number; sent: number; failed: number };
type AlertEnv = Pick<Env, "ALERT_WEBHOOK_URL"> & Partial<Pick<Env, "RECONCILE_LAG_ALERT_MINUTES">>;

/** One cron run's alert work: open incidents for new conditions, resolve the gone ones, send what is due. */
export async function runAlerts(db: Db, env: AlertEnv, now: number): Promise<AlertReport> {
  const [recurring, rows] = await Promise.all([recurringConditions(db, env, now), newRowConditions(db, now)]);
  const resolved = await resolveGone(
    db,
    recurring.map((c) => c.key),
    now,
  );
  const fresh = [...recurring, ...rows];
  let opened = 0;
  if (fresh.length) {
    // One statement over a JSON array, whatever the number of rows. A recurring condition already open is a no-op:
    // the partial unique index (one open incident per key) refuses it, as it refuses a second overlapping run's.
    const inserted = await db.all<{ id: number }>(sql`
      INSERT INTO ${a} (${bare(a.key)}, ${bare(a.kind)}, ${bare(a.topic)}, ${bare(a.text)}, ${bare(a.state)}, ${bare(a.openedAt)})
      SELECT value ->> 'key', value ->> 'kind', value ->> 'topic', value ->> 'text', 'open', ${now}
      FROM json_each(${JSON.stringify(fresh.map((c) => ({ key: c.key, kind: c.kind, topic: c.topic, text: c.text.slice(0, 1000) })))}) WHERE true
      ON CONFLICT DO NOTHING
      RETURNING ${bare(a.id)} AS id`);
    opened = inserted.length;
  }
  const { sent, failed } = await sendDue(db, env, now);
  return { opened, resolved: resolved.length, sent, failed };
}

/** What a digest calls the incidents of each topic (a topic not listed: "<kind> alerts"). */
const TOPIC_WORDS: Record<string, string> = {
  "refund:unmatched": "unmatched transfers",
  "refund:indirect": "transfers through another contract or program",
  "refund:late": "late payments",
  "refund:partial": "partial payments",
  "refund:over": "overpayments",
  "refund:duplicate": "duplicate payments",
  "refund:failed": "payments to failed purchases",
  "refund:refund": "payments to refund",
  "attention:uncredited": "uncredited transfers",
  "attention:balance": "balance differences",
  "attention:ledger": "ledger differences",
  chain_down: "chains without enough nodes",
  node_down: "nodes not answering",
  node_disagreement: "nodes contradicting the others",
  cron_failing: "cron tasks failing",
  reconciliation_behind: "reconciliations behind",
  custom_order_overdue: "custom orders past their payment deadline",
};

type Incident = typeof alertIncidents.$inferSelect;

/** The amounts the payment incidents of a digest stand for, per coin: "0.1 ETH and 1.2 SOL". Empty for other kinds. */
async function digestAmounts(db: Db, incidents: Incident[]): Promise<string> {
  const ids = (prefix: string) => JSON.stringify(incidents.filter((i) => i.key.startsWith(prefix)).map((i) => i.key.slice(prefix.length)));
  const [escrow, attention] = await Promise.all([
    db.all<{ coin: Coin; units: string | null }>(
      sql`SELECT ${e.currency} AS coin, ${e.amountBaseUnits} AS units FROM ${e} WHERE ${e.id} IN (SELECT value FROM json_each(${ids("escrow:")}))`,
    ),
    db.all<{ coin: Coin; units: string | null }>(
      sql`SELECT CASE ${pa.network} WHEN 'ethereum' THEN 'ETH' ELSE 'SOL' END AS coin, ${pa.amountBaseUnits} AS units FROM ${pa}
          WHERE ${pa.id} IN (SELECT value FROM json_each(${ids("attention:")}))`,
    ),
  ]);
  const sums = new Map<Coin, bigint>();
  for (const { coin, units } of [...escrow, ...attention]) {
    if (units === null || !/^\d+$/.test(units)) continue;
    sums.set(coin, (sums.get(coin) ?? 0n) + BigInt(units));
  }
  return (["ETH", "SOL"] as const)
    .filter((coin) => sums.has(coin))
    .map((coin) => `${formatBaseUnits(sums.get(coin)!, coin)} ${coin}`)
    .join(" and ");
}

/** One delivery's text: the incident's own when it is alone; else how many, what they add up to, and where to look. */
async function deliveryText(db: Db, topic: string, incidents: Incident[]): Promise<string> {
  if (incidents.length === 1) return incidents[0].text;
  const what = `${incidents.length} ${TOPIC_WORDS[topic] ?? `${incidents[0].kind} alerts`}`;
  if (topic.startsWith("refund:") || topic.startsWith("attention:")) {
    const amounts = await digestAmounts(db, incidents);
    return `${what}${amounts ? `, ${amounts} in all` : ""}, listed in Admin > Payments.`;
  }
  const quoted = incidents.slice(0, DIGEST_QUOTED).map((i) => i.text);
  const more = incidents.length > DIGEST_QUOTED ? ` (and ${incidents.length - DIGEST_QUOTED} more)` : "";
  return `${what}: ${quoted.join(" | ")}${more}`.slice(0, 3000);
}

async function sendDue(db: Db, env: AlertEnv, now: number): Promise<{ sent: number; failed: number }> {
  const url = env.ALERT_WEBHOOK_URL?.trim();
  if (!url) return { sent: 0, failed: 0 };
  const due = sql`${a.state} = 'open' AND ${a.sentAt} IS NULL AND ${a.attempts} < ${ALERT_MAX_ATTEMPTS}
    AND (${a.nextAttemptAt} IS NULL OR ${a.nextAttemptAt} <= ${now})`;
  // Every topic with something due, each one delivery: a node, a task or the reconciliation first (each one stops
  // money being checked), then the topic with the newest incident.
  const topics = await db.all<{ topic: string }>(sql`
    SELECT ${a.topic} AS topic FROM ${a} WHERE ${due} GROUP BY ${a.topic}
    ORDER BY max(${a.kind} IN (SELECT value FROM json_each(${JSON.stringify(RECURRING)}))) DESC, max(${a.openedAt}) DESC
    LIMIT ${TOPICS_PER_RUN}`);
  let sent = 0;
  let failed = 0;
  for (const { topic } of topics) {
    // Claim before sending, so an overlapping run does not send them too: each incident's attempt is counted and its
    // next one scheduled now (alertBackoffMs in SQL); a success then marks them sent.
    const claimed = await db.all<Incident>(sql`
      UPDATE ${a} SET ${bare(a.attempts)} = ${bare(a.attempts)} + 1,
                      ${bare(a.nextAttemptAt)} = ${now} + min(60000 * (1 << ${bare(a.attempts)}), 3600000)
      WHERE ${bare(a.id)} IN (SELECT ${bare(a.id)} FROM ${a} WHERE ${due} AND ${a.topic} = ${topic} ORDER BY ${a.openedAt} DESC, ${a.id} DESC LIMIT ${DIGEST_MAX})
        AND ${due}
      RETURNING ${bare(a.id)} AS id, ${bare(a.key)} AS key, ${bare(a.kind)} AS kind, ${bare(a.topic)} AS topic, ${bare(a.text)} AS text,
                ${bare(a.openedAt)} AS openedAt, ${bare(a.attempts)} AS attempts`);
    if (claimed.length === 0) continue;
    // Newest first, as they were chosen.
    claimed.sort((x, y) => y.openedAt - x.openedAt || y.id - x.id);
    const ids = JSON.stringify(claimed.map((i) => i.id));
    const newest = claimed[0];
    const alone = claimed.length === 1;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          text: await deliveryText(db, topic, claimed),
          incident: {
            id: newest.id,
            kind: newest.kind,
            key: alone ? newest.key : `digest:${topic}`,
            openedAt: iso(newest.openedAt),
            attempt: Math.max(...claimed.map((i) => i.attempts)),
          },
          ...(alone ? {} : { digest: { topic, count: claimed.length, keys: claimed.map((i) => i.key) } }),
        }),
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      await db.run(sql`UPDATE ${a} SET ${bare(a.sentAt)} = ${now}, ${bare(a.lastError)} = NULL WHERE ${bare(a.id)} IN (SELECT value FROM json_each(${ids}))`);
      const attention = claimed.filter((i) => i.key.startsWith("attention:")).map((i) => i.key.slice("attention:".length));
      if (attention.length) {
        await db.run(sql`UPDATE ${pa} SET ${bare(pa.alertedAt)} = ${now} WHERE ${bare(pa.id)} IN (SELECT value FROM json_each(${JSON.stringify(attention)}))`);
      }
      sent += claimed.length;
    } catch (err) {
      await db.run(sql`UPDATE ${a} SET ${bare(a.lastError)} = ${safeError(err)} WHERE ${bare(a.id)} IN (SELECT value FROM json_each(${ids}))`);
      console.error(`alert ${alone ? newest.key : `digest:${topic}`} not delivered (attempt ${newest.attempts}): ${safeError(err)}`);
      failed += claimed.length;
    }
  }
  return { sent, failed };
}
