// The cron's probe of each chain's nodes: every configured node is asked for its head, all at once, each with its own
// client's timeout. Each node's answer (head, the head's time, or since when it fails) is kept by host in
// chain_node_status; the network's row in chain_status is derived from them: it answers when a quorum of its nodes
// answer (settlement needs that many, docs/payments.md#trust-no-single-node), at the quorum's head (the k-th highest).
// Read by /api/health (admins) and by the alerts (a chain or a node failing for more than CHAIN_DOWN_ALERT_MS).
import { and, eq, sql } from "drizzle-orm";
import { chainNodeStatus, chainStatus, type Network } from "../../schema/db";
import { ethereumNodeClient } from "../chain/ethereum";
import { kthHighest } from "../chain/quorum-verifier";
import { solanaRpc } from "../chain/solana-payments";
import type { Db } from "../db/database";
import type { Deployment } from "../deployment/deployment";

export type ChainHead = { head: number; headTime: number | null };

/**
 * Asks one node (`url`) for its head. Ethereum: the latest block's number and timestamp (as the chain states it),
 * through the public client over that node alone (its timeout and retries, chain/ethereum.ts). Solana: the slot at
 * the configured commitment, one JSON-RPC call with SOLANA_RPC_TIMEOUT_MS; its time is when the cron first saw that
 * slot (the node is not asked for block times). Throws when the node does not answer.
 */
async function probeNode(deployment: Deployment, network: Network, url: string): Promise<ChainHead> {
  if (network === "ethereum") {
    const block = await ethereumNodeClient(url, deployment.ethereum.chainId ?? Number.NaN).getBlock({ blockTag: "latest" });
    return { head: Number(block.number), headTime: Number(block.timestamp) * 1000 };
  }
  // An unreadable SOL_COMMITMENT is read as "finalized", never weaker (chain/solana-payments.ts solanaCommitment).
  const slot = await solanaRpc<number>(url, "getSlot", [{ commitment: deployment.solana.commitment ?? "finalized" }]);
  if (!Number.isSafeInteger(slot)) throw new Error("getSlot: not a slot number");
  return { head: slot, headTime: null };
}

/** The node's message, first line, without anything that could be a URL (an RPC URL may carry an API key). */
export function safeError(err: unknown): string {
  const message = (err instanceof Error ? err.message : String(err)).split("\n")[0];
  return message.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, "<url>").slice(0, 200);
}

type NodeAnswer = { node: string } & ({ ok: true; head: number; headTime: number | null } | { ok: false; error: string });

/** The network's row from its nodes' answers: answering when at least `quorum` of them answered. */
function networkAnswer(answers: NodeAnswer[], quorum: number): { ok: true; head: number; headTime: number | null } | { ok: false; error: string } {
  const heads = answers.flatMap((a) => (a.ok ? [a] : []));
  const head =
    heads.length >= quorum
      ? kthHighest(
          heads.map((a) => a.head),
          quorum,
        )
      : null;
  if (head !== null) return { ok: true, head, headTime: heads.find((a) => a.head === head)?.headTime ?? null };
  const failed = answers.flatMap((a) => (a.ok ? [] : [a]));
  if (answers.length === 0) return { ok: false, error: "no node is configured" };
  // One node: its own words, as before there were several.
  if (answers.length === 1 && failed.length === 1) return failed[0];
  const why = failed.map((a) => `${a.node}: ${a.error}`).join("; ");
  return { ok: false, error: `${heads.length} of ${answers.length} nodes answered, ${quorum} needed${why ? ` (${why})` : ""}`.slice(0, 1000) };
}

/**
 * Probes every node of `network` at once and records each answer, then the network's. A failure keeps the first
 * failure's time in failing_since and the last head the node gave. Rows of nodes no longer configured are deleted.
 */
export async function recordChainProbe(db: Db, deployment: Deployment, network: Network, now: number): Promise<{ ok: boolean; error: string | null }> {
  const { nodes, quorum } = deployment[network];
  const answers = await Promise.all(
    nodes.map(
      (node): Promise<NodeAnswer> =>
        probeNode(deployment, network, node.url).then(
          (h) => ({ node: node.name, ok: true, ...h }),
          (err: unknown) => ({ node: node.name, ok: false, error: safeError(err) }),
        ),
    ),
  );
  const n = chainNodeStatus;
  const c = chainStatus;
  const whole = networkAnswer(answers, quorum);
  const nodeWrites = answers.map((a) =>
    a.ok
      ? db
          .insert(n)
          .values({ network, node: a.node, ok: true, head: a.head, headTime: a.headTime ?? now, checkedAt: now, failingSince: null, error: null })
          .onConflictDoUpdate({
            target: [n.network, n.node],
            set: {
              ok: true,
              // Solana: keep the time the slot was first seen while it stays the same.
              headTime: a.headTime ?? sql`CASE WHEN ${n.head} = ${a.head} AND ${n.headTime} IS NOT NULL THEN ${n.headTime} ELSE ${now} END`,
              head: a.head,
              checkedAt: now,
              failingSince: null,
              error: null,
            },
          })
      : db
          .insert(n)
          .values({ network, node: a.node, ok: false, checkedAt: now, failingSince: now, error: a.error })
          .onConflictDoUpdate({
            target: [n.network, n.node],
            set: { ok: false, checkedAt: now, failingSince: sql`coalesce(${n.failingSince}, ${now})`, error: a.error },
          }),
  );
  const networkWrite = whole.ok
    ? db
        .insert(c)
        .values({ network, ok: true, head: whole.head, headTime: whole.headTime ?? now, checkedAt: now, failingSince: null, error: null })
        .onConflictDoUpdate({
          target: c.network,
          set: {
            ok: true,
            headTime: whole.headTime ?? sql`CASE WHEN ${c.head} = ${whole.head} AND ${c.headTime} IS NOT NULL THEN ${c.headTime} ELSE ${now} END`,
            head: whole.head,
            checkedAt: now,
            failingSince: null,
            error: null,
          },
        })
    : db
        .insert(c)
        .values({ network, ok: false, checkedAt: now, failingSince: now, error: whole.error })
        .onConflictDoUpdate({
          target: c.network,
          set: { ok: false, checkedAt: now, failingSince: sql`coalesce(${c.failingSince}, ${now})`, error: whole.error },
        });
  // The names bound as one JSON array (D1 binds at most 100 parameters), not one parameter per node.
  const forgetRemoved = db
    .delete(n)
    .where(and(eq(n.network, network), sql`${n.node} NOT IN (SELECT value FROM json_each(${JSON.stringify(nodes.map((node) => node.name))}))`));
  await db.batch([forgetRemoved, ...nodeWrites, networkWrite]);
  return whole.ok ? { ok: true, error: null } : { ok: false, error: whole.error };
}

export async function chainStatuses(db: Db) {
  return db.select().from(chainStatus).orderBy(chainStatus.network);
}

export async function chainNodeStatuses(db: Db) {
  return db.select().from(chainNodeStatus).orderBy(chainNodeStatus.network, chainNodeStatus.node);
}
