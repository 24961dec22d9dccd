// The reconciliation cannot fall silently behind. Its window does not wait on open reservations (the
// operator once read "read through block 39 · 55 minutes ago" with the chain at block 1,309), a node that fails
// some calls costs it only the rest of a window, never the window (a soak with 15% node faults once left it 1,499
// slots behind), and how far behind the head it is shows in the admin's health and, past
// RECONCILE_LAG_ALERT_MINUTES, raises an alert.
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../db/database";
import { runScheduledJobs } from "../jobs/scheduled";
import type { OperationsHealth } from "../operations/health";
import { reconcilePayments } from "../purchases/reconcile";
import { actors, type Wallet } from "../test/purchase-fixtures";
import { hoard } from "./hoard-fixtures";
import { hex, proxyNodes } from "./lying-node";
import { anvil, countRows, fundedBuyer, pay } from "./purchase-helpers";
import { fundedKeypair, sendInstructions, transferToPlatform } from "./solana-helpers";
import { webhookBox } from "./webhook";
import { client } from "../test/client";
import { readDeployment } from "../deployment/deployment";

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
      // Alone, or quoted in the run's digest of reconciliations behind (the Solana cursor is as old).
      new RegExp(`(^|: |\\| )The ethereum reconciliation has not caught up for 30 minutes: read through block ${through}, \\d+ blocks behind the head`),
    );

    const health = (await (await client(admin).health.$get()).json()) as { operations: OperationsHealth };
    const lag = health.operations.reconciliation.find((r) => r.network === "ethereum")!;
    expect(lag.throughBlock).toBe(through);
    expect(lag.blocksBehind).toBeGreaterThanOrEqual(10);
    expect(lag.minutesBehind).toBeGreaterThanOrEqual(30);

    await env.DB.exec("DROP TRIGGER injected_reconcile_fault");
    // One run catches up; the alerts, which run first, see it in the next.
    await runScheduledJobs(hook.env);
    await runScheduledJobs(hook.env);
    const incidents = await env.DB.prepare("SELECT state FROM alert_incidents WHERE key = 'reconcile:ethereum'").all<{ state: string }>();
    expect(incidents.results.map((i) => i.state)).toEqual(["resolved"]);
    const after = (await (await client(admin).health.$get()).json()) as { operations: OperationsHealth };
    expect(after.operations.reconciliation.find((r) => r.network === "ethereum")!.minutesBehind).toBe(0);
  });
});

describe("a node that fails some calls mid-window", () => {
  const escrowed = (hashes: string[]) =>
    countRows(
      "escrow_transactions",
      `tx_hash IN (SELECT value FROM json_each(?))`,
      JSON.stringify(hashes.map((h) => (h.startsWith("0x") ? h.toLowerCase() : h))),
    );

  it("Solana: the reconciliation keeps what it read page by page, retries a failed call, and resumes where it stopped", async () => {
    const db = createDb(env.DB);
    const nodes = proxyNodes(env.SOL_RPC_URL!, { flaky: 6 });
    try {
      const nodeEnv = { ...env, SOL_RPC_URL: nodes.urls.flaky, SOL_RPC_URLS: "" };
      await reconcilePayments(db, readDeployment(nodeEnv), "solana");
      const stranger = await fundedKeypair();
      const sent: string[] = [];
      for (let i = 0; i < 30; i++) sent.push(await sendInstructions([stranger], transferToPlatform(stranger, 2_000_000n + BigInt(i))));
      const oldest = sent[0];
      // Every getTransaction request fails once (then answers, as a flaky node does), and any that asks about the
      // oldest transfer fails every time.
      const seen = new Set<string>();
      let failures = 0;
      nodes.set("flaky", {
        kind: "lie",
        answer: (c, a) => {
          if (c.method !== "getTransaction") return a;
          const signature = String(c.params?.[0]);
          const first = !seen.has(signature);
          seen.add(signature);
          if (signature !== oldest && !first) return a;
          failures++;
          return { jsonrpc: "2.0", id: c.id, error: { code: -32603, message: "injected node error" } };
        },
      });
      const first = await reconcilePayments(db, readDeployment(nodeEnv), "solana");
      expect(failures).toBeGreaterThan(0);
      expect(first.nodeAnswered).toBe(true);
      // The newest page (25 transfers) is kept; the oldest transfers wait for the next run.
      expect(await escrowed(sent.slice(5))).toBe(25);
      expect(await escrowed(sent.slice(0, 5))).toBe(0);
      const cursor = await env.DB.prepare("SELECT last_signature, backlog_before, backlog_newest FROM reconcile_cursors WHERE network = 'solana'").first();
      expect(cursor).toMatchObject({ backlog_before: sent[5], backlog_newest: sent[29] });

      nodes.set("flaky", { kind: "honest" });
      await reconcilePayments(db, readDeployment(nodeEnv), "solana");
      expect(await escrowed(sent)).toBe(30);
      expect(await env.DB.prepare("SELECT last_signature, backlog_before FROM reconcile_cursors WHERE network = 'solana'").first()).toMatchObject({
        last_signature: sent[29],
        backlog_before: null,
      });
      // Nothing twice.
      await reconcilePayments(db, readDeployment(nodeEnv), "solana");
      expect(await countRows("escrow_transactions", `tx_hash IN (SELECT value FROM json_each(?))`, JSON.stringify(sent))).toBe(30);
    } finally {
      nodes.restore();
    }
  });

  it("Ethereum: blocks read before a call failed are kept, the rest is read by the next run", async () => {
    const db = createDb(env.DB);
    const nodes = proxyNodes(env.ETH_RPC_URL!, { flaky: 7 });
    try {
      const nodeEnv = { ...env, ETH_RPC_URL: nodes.urls.flaky, ETH_RPC_URLS: "" };
      await reconcilePayments(db, readDeployment(nodeEnv), "ethereum");
      const next = (await cursor())!.next_block;
      const buyer = await fundedBuyer();
      const early = (await pay(buyer.account, 1_000_000_000_000_000n, undefined, false)).toLowerCase();
      await anvil("anvil_mine", [hex(15)]);
      const late = (await pay(buyer.account, 1_000_000_000_000_001n, undefined, false)).toLowerCase();
      await anvil("anvil_mine", [hex(required + 2)]);
      const lateBlock = Number((await anvil<{ blockNumber: string }>("eth_getTransactionReceipt", [late])).blockNumber);
      expect(lateBlock - next).toBeGreaterThan(10);
      // Every block past the first ten of the window fails, whatever the retries.
      nodes.set("flaky", {
        kind: "lie",
        answer: (c, a) =>
          c.method === "eth_getBlockByNumber" && Number(BigInt(String(c.params?.[0]))) >= next + 10
            ? { jsonrpc: "2.0", id: c.id, error: { code: -32603, message: "injected node error" } }
            : a,
      });
      const report = await reconcilePayments(db, readDeployment(nodeEnv), "ethereum");
      expect(report.nodeAnswered).toBe(true);
      expect((await cursor())!.next_block).toBe(next + 10);
      expect(await escrowed([early])).toBe(1);
      expect(await escrowed([late])).toBe(0);
      nodes.set("flaky", { kind: "honest" });
      await reconcilePayments(db, readDeployment(nodeEnv), "ethereum");
      expect(await escrowed([early, late])).toBe(2);
    } finally {
      nodes.restore();
    }
  });
});
