// The admin part of /api/health: each chain's head and lag, each of its nodes by host (answering, behind the others,
// or down since when), the last cron run and its failed tasks, the tasks failing run after run, how far behind the
// head the reconciliation is, the payments awaiting a refund, the migrations against the build's, and the grinders.
// Only an admin session gets it; a visitor sees the public status only.
import { count } from "drizzle-orm";
import { escrowTransactions, NETWORKS } from "../../schema/db";
import type { Db } from "../db/database";
import { chainNodeStatuses, chainStatuses } from "./chains";
import { type FailingTask, failingTasks, lastCronRuns, RUN_STOPPED_ERROR } from "./cron-runs";
import { nodeNames, quorumOf, type RpcNodesText } from "../deployment/rpc-nodes";
import { type NodeDisagreementView, recentDisagreements } from "./node-disagreements";
import { type ReconciliationLag, reconciliationLag } from "./reconciliation-lag";
import { REFUND_OWED } from "../../schema/ledger-lifecycle";
import { refundIn } from "../purchases/ledger-sql";
import type { GrinderHealth, LastCronRun, MigrationsHealth } from "../../schema/health";
import { cronTaskOutcomes } from "../jobs/scheduled";
import { grinderHealth } from "../orders/grinders";
import { migrationsHealth } from "./migrations";

/** Runs read to tell how long a task has been failing (an hour of runs at one a minute). */
const FAILING_RUNS_READ = 60;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export type ChainHealth = {
  network: (typeof NETWORKS)[number];
  /** null: the cron has not probed this node yet. */
  ok: boolean | null;
  head: number | null;
  headTime: string | null;
  /** Seconds from the head's time to the last probe: how far behind the wall clock the node's head was. */
  lagSeconds: number | null;
  checkedAt: string | null;
  failingSince: string | null;
  error: string | null;
};

/**
 * How far behind the best head of the other nodes a node may be before it is shown as lagging: about 30 seconds of
 * chain (Ethereum: 12 s blocks; Solana: 0.4 s slots, and the nodes are asked a moment apart, so a few slots mean
 * nothing). docs/operations.md#health
 */
export const NODE_BEHIND_TOLERANCE = { ethereum: 3, solana: 75 } as const;

export type NodeHealth = {
  /** host[:port], never the URL (it may carry an API key); "host #2" for a host listed twice. */
  host: string;
  /** null: the cron has not probed this node yet. */
  ok: boolean | null;
  /** The last head it answered (kept while it fails). */
  head: number | null;
  /** Blocks (slots) behind the highest head of the other answering nodes; null while it fails or no other answers. */
  behind: number | null;
  /** `behind` past NODE_BEHIND_TOLERANCE. */
  lagging: boolean;
  checkedAt: string | null;
  failingSince: string | null;
  error: string | null;
};

export type OperationsHealth = {
  chains: ChainHealth[];
  /** The last finished run: when, how long, and each task's outcome. */
  lastCronRun: LastCronRun | null;
  /** Tasks that failed in the last run, with how many runs in a row (up to 60) and since when (the alerts task too). */
  failingTasks: FailingTask[];
  /** Per network, how far behind the chain's head the reconciliation is (docs/operations.md#health). */
  reconciliation: ReconciliationLag[];
  paymentsAwaitingRefund: number;
  /**
   * Per network, the nodes asked about payments (by host, never by URL) and how many must agree; `singleNode` when
   * one node alone decides (local development), docs/payments.md#trust-no-single-node; `status`: each node's last
   * probe by the cron, in the order of `hosts`.
   */
  nodes: { network: (typeof NETWORKS)[number]; hosts: string[]; quorum: number; singleNode: boolean; status: NodeHealth[] }[];
  /** Nodes that contradicted the others in the last week, the latest first. */
  nodeDisagreements: NodeDisagreementView[];
  /** The migrations applied to D1 against those this Worker was built with. */
  migrations: MigrationsHealth;
  /** The grinders seen in the last day or still holding a claim, the latest seen first. */
  grinders: GrinderHealth[];
};

type NodeRow = Awaited<ReturnType<typeof chainNodeStatuses>>[number];

/** Each configured node's probe, with how far it is behind the best head of the others that answer. */
function nodeHealth(network: (typeof NETWORKS)[number], nodes: { host: string; row: NodeRow | undefined }[]): NodeHealth[] {
  return nodes.map(({ host, row }) => {
    if (!row) return { host, ok: null, head: null, behind: null, lagging: false, checkedAt: null, failingSince: null, error: null };
    const others = nodes.flatMap((o) => (o.host !== host && o.row?.ok && o.row.head !== null ? [o.row.head] : []));
    const behind = row.ok && row.head !== null && others.length > 0 ? Math.max(0, Math.max(...others) - row.head) : null;
    return {
      host,
      ok: row.ok,
      head: row.head,
      behind,
      lagging: behind !== null && behind > NODE_BEHIND_TOLERANCE[network],
      checkedAt: iso(row.checkedAt),
      failingSince: iso(row.failingSince),
      error: row.error,
    };
  });
}

export async function operationsHealth(
  db: Db,
  env: Partial<Pick<Env, "RECONCILE_LAG_ALERT_MINUTES">> & RpcNodesText & Pick<Env, "DB">,
  now = Date.now(),
): Promise<OperationsHealth> {
  const [statuses, nodeStatuses, runs, refunds, reconciliation, nodeDisagreements, migrations, grinders] = await Promise.all([
    chainStatuses(db),
    chainNodeStatuses(db),
    lastCronRuns(db, FAILING_RUNS_READ),
    db.select({ n: count() }).from(escrowTransactions).where(refundIn(escrowTransactions.refundStatus, REFUND_OWED)).get(),
    reconciliationLag(db, env, now),
    recentDisagreements(db, now),
    migrationsHealth(env.DB),
    grinderHealth(db, now),
  ]);
  const chains = NETWORKS.map((network): ChainHealth => {
    const s = statuses.find((r) => r.network === network);
    if (!s) return { network, ok: null, head: null, headTime: null, lagSeconds: null, checkedAt: null, failingSince: null, error: null };
    return {
      network,
      ok: s.ok,
      head: s.head,
      headTime: iso(s.headTime),
      lagSeconds: s.headTime === null ? null : Math.max(0, Math.round((s.checkedAt - s.headTime) / 1000)),
      checkedAt: iso(s.checkedAt),
      failingSince: iso(s.failingSince),
      error: s.error,
    };
  });
  const run = runs[0];
  return {
    chains,
    lastCronRun: run
      ? {
          startedAt: iso(run.startedAt)!,
          finishedAt: iso(run.finishedAt)!,
          // A stopped run is closed by a later one, which leaves its finish at its start: its length is unknown.
          durationMs: run.errors.some((e) => e.endsWith(`: ${RUN_STOPPED_ERROR}`)) ? null : Math.max(0, run.finishedAt - run.startedAt),
          failedTasks: run.failedTasks,
          tasks: cronTaskOutcomes(run),
        }
      : null,
    failingTasks: failingTasks(runs),
    reconciliation,
    paymentsAwaitingRefund: refunds?.n ?? 0,
    nodes: NETWORKS.map((network) => {
      const { urls, quorum } = quorumOf(env, network);
      const hosts = nodeNames(urls);
      // Read by the configured list: a node removed from the settings is not shown, whatever its row still says.
      const status = nodeHealth(
        network,
        hosts.map((host) => ({ host, row: nodeStatuses.find((r) => r.network === network && r.node === host) })),
      );
      return { network, hosts, quorum, singleNode: urls.length <= 1 || quorum <= 1, status };
    }),
    nodeDisagreements,
    migrations,
    grinders,
  };
}
