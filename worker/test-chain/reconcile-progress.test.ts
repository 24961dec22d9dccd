// The reconciliation cannot fall silently behind. Its window does not wait on open reservations (the
// operator once read "read through block 39 · 55 minutes ago" with the chain at block 1,309), and how far behind
// the head it is shows in the admin's health and, past RECONCILE_LAG_ALERT_MINUTES, raises an alert.
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { runScheduledJobs } from "../jobs/scheduled";
import type { OperationsHealth } from "../operations/health";
import { actors, type Wallet } from "../test/purchase-fixtures";
import { hoard } from "./hoard-fixtures";
import { anvil } from "./purchase-helpers";
import { webhookBox } from "./webhook";
import { client } from "../test/client";

const hook = webhookBox("reconcile-progress");
let admin: Wallet;
beforeAll(async () => {
  ({ seller: admin } = await actors());
});
afterEach(async () => {
  await env.DB.exec("DROP TRIGGER IF EXISTS injected_reconcile_fault");
});

const head = async () => Number(await anvil<string>("eth_blockNumber"));
const cursor = () => env.DB.prepare("SELECT next_block FROM reconcile_cursors WHERE network = 'ethereum'").first<{ next_block: number }>();
const required = Number(env.ETH_CONFIRMATIONS);

describe("the reconciliation's progress", () => {
  it("does not wait on open reservations: with 5,000 open, two cron runs read to the deepest final block", async () => {
    await runScheduledJobs(env);
    await hoard("ethereum", 5_000, admin.userId, await head());
    await anvil("anvil_mine", ["0x14"]);
    const final = (await head()) - required + 1;
    await runScheduledJobs(env);
    await runScheduledJobs(env);
    expect((await cursor())!.next_block - 1).toBeGreaterThanOrEqual(final);
  });

  it("its lag is in the admin's health, an alert goes out past the setting, and catching up resolves it", async () => {
    await hook.clear();
    const t0 = Date.now() - 30 * 60_000;
    await runScheduledJobs(hook.env, t0);
    const through = (await cursor())!.next_block - 1;
    // A fault no node shows: every write of the Ethereum cursor fails, so the reconciliation stops where it is.
    await env.DB.exec(
      "CREATE TRIGGER injected_reconcile_fault BEFORE UPDATE ON reconcile_cursors WHEN NEW.network = 'ethereum' BEGIN SELECT RAISE(ABORT, 'injected fault'); END",
    );
    await anvil("anvil_mine", ["0xa"]);
    const report = await runScheduledJobs(hook.env);
    expect(report.errors.join(" ")).toMatch(/reconcile-ethereum: .*injected fault/);

    const alerts = await hook.received("reconcile:ethereum");
    expect(alerts).toHaveLength(1);
    expect(alerts[0].body.incident.kind).toBe("reconciliation_behind");
    expect(alerts[0].body.text).toMatch(
      new RegExp(`^The ethereum reconciliation has not caught up for 30 minutes: read through block ${through}, \\d+ blocks behind the head`),
    );

    const health = (await (await client(admin).health.$get()).json()) as { operations: OperationsHealth };
    const lag = health.operations.reconciliation.find((r) => r.network === "ethereum")!;
    expect(lag.throughBlock).toBe(through);
    expect(lag.blocksBehind).toBeGreaterThanOrEqual(10);
    expect(lag.minutesBehind).toBeGreaterThanOrEqual(30);

    await env.DB.exec("DROP TRIGGER injected_reconcile_fault");
    await runScheduledJobs(hook.env);
    const incidents = await env.DB.prepare("SELECT state FROM alert_incidents WHERE key = 'reconcile:ethereum'").all<{ state: string }>();
    expect(incidents.results.map((i) => i.state)).toEqual(["resolved"]);
    const after = (await (await client(admin).health.$get()).json()) as { operations: OperationsHealth };
    expect(after.operations.reconciliation.find((r) => r.network === "ethereum")!.minutesBehind).toBe(0);
  });
});
