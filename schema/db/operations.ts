// Operating the marketplace (migration 0018): the cron's record of each run and of each chain node,
// and the alert incidents (docs/operations.md).
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bool, NETWORKS } from "./columns";

export const cronRuns = sqliteTable(
  "cron_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at").notNull(),
    /** The names of the tasks that failed in this run. */
    failedTasks: text("failed_tasks", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    errors: text("errors", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    /**
     * The task the run is in, written before each task starts; null once the run has finished. A run still in a task
     * long after it started was stopped there (out of memory or CPU): the next run records that task as failed.
     */
    runningTask: text("running_task"),
  },
  (t) => [index("cron_runs_started").on(t.startedAt)],
);

/** Where a cron task that walks a table in slices stopped last time (worker/jobs/forget-idle-users.ts). */
export const jobCursors = sqliteTable("job_cursors", {
  name: text("name").primaryKey(),
  position: integer("position").notNull(),
});

/**
 * Each network's state as the cron last derived it from its nodes' probes (chain_node_status below): answering while
 * a quorum of its nodes answer, at the quorum's head; failing_since is when it lost that quorum.
 */
export const chainStatus = sqliteTable("chain_status", {
  network: text("network", { enum: NETWORKS }).primaryKey(),
  ok: bool("ok").notNull(),
  /** Ethereum: block number; Solana: slot. */
  head: integer("head"),
  /** The head block's time (ms), as the chain states it. */
  headTime: integer("head_time"),
  checkedAt: integer("checked_at").notNull(),
  /** Since when the node has failed without a good answer in between; null while it answers. */
  failingSince: integer("failing_since"),
  error: text("error"),
});

/**
 * Each configured node's last probe by the cron, by its display name (host[:port], never its URL, which may carry an
 * API key): every node is asked each run, so one node down is seen even while another answers
 * (docs/operations.md#health). Rows of nodes no longer configured are deleted by the next probe.
 */
export const chainNodeStatus = sqliteTable(
  "chain_node_status",
  {
    network: text("network", { enum: NETWORKS }).notNull(),
    node: text("node").notNull(),
    ok: bool("ok").notNull(),
    /** Ethereum: block number; Solana: slot. The last one the node answered, kept while it fails. */
    head: integer("head"),
    /** The head's time (ms): Ethereum the block's timestamp, Solana when the cron first saw that slot from this node. */
    headTime: integer("head_time"),
    checkedAt: integer("checked_at").notNull(),
    /** Since when the node has failed without a good answer in between; null while it answers. */
    failingSince: integer("failing_since"),
    error: text("error"),
  },
  (t) => [primaryKey({ columns: [t.network, t.node] })],
);

export const ALERT_KINDS = [
  "refund_due",
  "chain_down",
  "node_down",
  "cron_failing",
  "custom_order_overdue",
  "reconciliation_behind",
  "node_disagreement",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const alertIncidents = sqliteTable(
  "alert_incidents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** What the incident is about: chain:ethereum, node-down:<network>:<host>, cron:verify, reconcile:solana, escrow:<id>, attention:<id>, custom-order:<id>, node-disagreement:<network>:<host>. */
    key: text("key").notNull(),
    kind: text("kind", { enum: ALERT_KINDS }).notNull(),
    /**
     * What the incident is sent with (operations/alerts.ts): the incidents of one topic due in a run go as one digest.
     * The kind, or for payments the kind of difference: refund:unmatched, refund:late, attention:uncredited, ...
     */
    topic: text("topic").notNull().default(""),
    state: text("state", { enum: ["open", "resolved"] })
      .notNull()
      .default("open"),
    /** The alert's text (never a secret, a key or an RPC URL). */
    text: text("text").notNull(),
    openedAt: integer("opened_at").notNull(),
    resolvedAt: integer("resolved_at"),
    sentAt: integer("sent_at"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at"),
    lastError: text("last_error"),
  },
  (t) => [
    uniqueIndex("alert_incidents_open_key").on(t.key).where(sql`state = 'open'`),
    index("alert_incidents_key").on(t.key, t.openedAt),
    index("alert_incidents_unsent").on(t.nextAttemptAt).where(sql`sent_at IS NULL`),
  ],
);

/**
 * Nodes that contradicted the other nodes of their chain about a payment (docs/payments.md#trust-no-single-node):
 * one row per node, named by host (never its URL, which may carry an API key), the latest contradiction kept.
 */
export const nodeDisagreements = sqliteTable(
  "node_disagreements",
  {
    network: text("network", { enum: NETWORKS }).notNull(),
    /** host[:port] of the node's URL. */
    node: text("node").notNull(),
    firstSeenAt: integer("first_seen_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    /** How many times it was seen disagreeing. */
    times: integer("times").notNull().default(1),
    /** The transaction disagreed about; null for a range of blocks. */
    txHash: text("tx_hash"),
    /** What differed, in words (public facts only). */
    detail: text("detail").notNull(),
  },
  (t) => [primaryKey({ columns: [t.network, t.node] })],
);
