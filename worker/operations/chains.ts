// The cron's probe of each chain node: its head, the head's time, or since when it fails.
// Read by /api/health (admins) and by the alerts (a node failing for more than CHAIN_DOWN_ALERT_MS).
import { sql } from "drizzle-orm";
import { chainStatus, type Network } from "../../schema/db";
import { ethereumClient } from "../chain/ethereum";
import { solanaCommitment, solanaRpcFirstHealthy } from "../chain/solana-payments";
import type { Db } from "../db/database";
import { type RpcNodesText, rpcUrls } from "../deployment/rpc-nodes";

export type ChainHead = { head: number; headTime: number | null };

/**
 * Asks the node for its head. Ethereum: the latest block's number and timestamp (as the chain states it).
 * Solana: the slot at the configured commitment; its time is when the cron first saw that slot (the node is not
 * asked for block times). Throws when the node does not answer.
 */
export async function probeChain(env: Pick<Env, "ETH_CHAIN_ID" | "SOL_COMMITMENT"> & RpcNodesText, network: Network): Promise<ChainHead> {
  if (network === "ethereum") {
    const block = await ethereumClient(env).getBlock({ blockTag: "latest" });
    return { head: Number(block.number), headTime: Number(block.timestamp) * 1000 };
  }
  const slot = await solanaRpcFirstHealthy<number>(rpcUrls(env, "solana"), "getSlot", [{ commitment: solanaCommitment(env.SOL_COMMITMENT) }]);
  if (!Number.isSafeInteger(slot)) throw new Error("getSlot: not a slot number");
  return { head: slot, headTime: null };
}

/** The node's message, first line, without anything that could be a URL (an RPC URL may carry an API key). */
export function safeError(err: unknown): string {
  const message = (err instanceof Error ? err.message : String(err)).split("\n")[0];
  return message.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, "<url>").slice(0, 200);
}

/** Probes the node and records the answer; a failure keeps the first failure's time in failing_since. */
export async function recordChainProbe(db: Db, env: Env, network: Network, now: number): Promise<{ ok: boolean; error: string | null }> {
  const c = chainStatus;
  try {
    const { head, headTime } = await probeChain(env, network);
    await db
      .insert(c)
      .values({ network, ok: true, head, headTime: headTime ?? now, checkedAt: now, failingSince: null, error: null })
      .onConflictDoUpdate({
        target: c.network,
        set: {
          ok: true,
          // Solana: keep the time the slot was first seen while it stays the same.
          headTime: headTime ?? sql`CASE WHEN ${c.head} = ${head} AND ${c.headTime} IS NOT NULL THEN ${c.headTime} ELSE ${now} END`,
          head,
          checkedAt: now,
          failingSince: null,
          error: null,
        },
      });
    return { ok: true, error: null };
  } catch (err) {
    const error = safeError(err);
    await db
      .insert(c)
      .values({ network, ok: false, checkedAt: now, failingSince: now, error })
      .onConflictDoUpdate({ target: c.network, set: { ok: false, checkedAt: now, failingSince: sql`coalesce(${c.failingSince}, ${now})`, error } });
    return { ok: false, error };
  }
}

export async function chainStatuses(db: Db) {
  return db.select().from(chainStatus).orderBy(chainStatus.network);
}
