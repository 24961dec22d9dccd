// How far behind the chain the reconciliation is (docs/operations.md#health): everything up to `throughBlock` is
// read, and `caughtUpAt` is the last run that read up to the chain's final head. Read by the admin's health,
// Admin > Payments and the alerts, which raise one past RECONCILE_LAG_ALERT_MINUTES. A reconciliation that stops
// (a failing task, a node that does not answer, a cron that does not run) shows as a lag that grows.
import { NETWORKS, type Network, reconcileCursors } from "../../schema/db";
import type { Db } from "../db/database";
import { chainStatuses } from "./chains";

/** RECONCILE_LAG_ALERT_MINUTES when unset or unreadable. */
export const DEFAULT_LAG_ALERT_MINUTES = 15;

/** The setting: a whole number of minutes from 1 to 1440, else the default. */
export function lagAlertMinutes(text: string | undefined): number {
  const n = text !== undefined && /^\d{1,4}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  return n >= 1 && n <= 1440 ? n : DEFAULT_LAG_ALERT_MINUTES;
}

export type ReconciliationLag = {
  network: Network;
  /** Ethereum block / Solana slot everything up to which is reconciled; null before the first run. */
  throughBlock: number | null;
  /** The chain's head at the cron's last probe (Ethereum block, Solana slot at the configured commitment). */
  head: number | null;
  /** head - throughBlock (on Ethereum it includes the required depth: blocks above it are not read yet). */
  blocksBehind: number | null;
  caughtUpAt: string | null;
  /** Whole minutes since the reconciliation last read up to the final head. */
  minutesBehind: number | null;
  /** Past RECONCILE_LAG_ALERT_MINUTES: alerted on. */
  behind: boolean;
};

export async function reconciliationLag(db: Db, env: Partial<Pick<Env, "RECONCILE_LAG_ALERT_MINUTES">>, now: number): Promise<ReconciliationLag[]> {
  const rc = reconcileCursors;
  const [cursors, chains] = await Promise.all([
    db.select({ network: rc.network, throughBlock: rc.throughBlock, caughtUpAt: rc.caughtUpAt }).from(rc),
    chainStatuses(db),
  ]);
  const limit = lagAlertMinutes(env.RECONCILE_LAG_ALERT_MINUTES);
  return NETWORKS.map((network): ReconciliationLag => {
    const c = cursors.find((r) => r.network === network);
    const head = chains.find((r) => r.network === network)?.head ?? null;
    const throughBlock = c?.throughBlock ?? null;
    const minutesBehind = c?.caughtUpAt == null ? null : Math.max(0, Math.floor((now - c.caughtUpAt) / 60_000));
    return {
      network,
      throughBlock,
      head,
      blocksBehind: head === null || throughBlock === null ? null : Math.max(0, head - throughBlock),
      caughtUpAt: c?.caughtUpAt == null ? null : new Date(c.caughtUpAt).toISOString(),
      minutesBehind,
      behind: minutesBehind !== null && minutesBehind >= limit,
    };
  });
}
