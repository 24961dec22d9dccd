// Nodes that contradicted the other nodes of their chain (chain/quorum-verifier.ts): recorded here, one row per node,
// alerted as a node-disagreement incident while the last contradiction is recent (alerts.ts), and listed in the
// admin's health view (health.ts). A node is named by host, never by its URL (docs/payments.md#trust-no-single-node).
import { desc, gte, sql } from "drizzle-orm";
import { nodeDisagreements } from "../../schema/db";
import type { DisagreementReport } from "../chain/quorum-verifier";
import type { Db } from "../db/database";

/** A node's incident stays open this long after its last contradiction; then it resolves. */
export const NODE_DISAGREEMENT_ALERT_MS = 60 * 60_000;
/** The health view lists the nodes that contradicted the others within this long. */
const SHOWN_FOR_MS = 7 * 86_400_000;

const nd = nodeDisagreements;

/** A report that writes each named node's contradiction (the latest one kept, counted). */
export function recordDisagreements(db: Db, now: () => number = Date.now): DisagreementReport {
  return async ({ network, nodes, hash, detail }) => {
    const at = now();
    for (const node of nodes) {
      await db
        .insert(nd)
        .values({ network, node, firstSeenAt: at, lastSeenAt: at, times: 1, txHash: hash, detail: detail.slice(0, 500) })
        .onConflictDoUpdate({
          target: [nd.network, nd.node],
          // A node that behaved for a day and lies again starts a new episode.
          set: {
            firstSeenAt: sql`CASE WHEN ${nd.lastSeenAt} < ${at - NODE_DISAGREEMENT_ALERT_MS} THEN ${at} ELSE ${nd.firstSeenAt} END`,
            lastSeenAt: at,
            times: sql`${nd.times} + 1`,
            txHash: hash,
            detail: detail.slice(0, 500),
          },
        });
    }
  };
}

export type NodeDisagreementView = {
  network: string;
  node: string;
  firstSeenAt: string;
  lastSeenAt: string;
  times: number;
  txHash: string | null;
  detail: string;
};

/** Nodes that contradicted the others since `since` (epoch ms), the latest first. */
export async function disagreeingNodes(db: Db, since: number) {
  return db.select().from(nd).where(gte(nd.lastSeenAt, since)).orderBy(desc(nd.lastSeenAt)).limit(50);
}

/** The health view's list: the last week's. */
export async function recentDisagreements(db: Db, now: number): Promise<NodeDisagreementView[]> {
  const rows = await disagreeingNodes(db, now - SHOWN_FOR_MS);
  return rows.map((r) => ({
    network: r.network,
    node: r.node,
    firstSeenAt: new Date(r.firstSeenAt).toISOString(),
    lastSeenAt: new Date(r.lastSeenAt).toISOString(),
    times: r.times,
    txHash: r.txHash,
    detail: r.detail,
  }));
}
