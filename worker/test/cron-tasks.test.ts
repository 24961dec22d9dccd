// The cron job's table of tasks (worker/jobs/scheduled.ts) run against a real D1: the order the tasks run in,
// which of them need safe payment settings, and a task that fails leaving the rest of the run to go on and be
// recorded (docs/production-settings.md: why payments wait on the settings).
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../db/database";
import { CRON_TASKS, runScheduledJobs } from "../jobs/scheduled";
import { lastCronRuns } from "../operations/cron-runs";

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const PAYMENT_TASKS = ["verify", "scan-ethereum", "scan-solana", "reconcile-ethereum", "reconcile-solana"];

describe("the cron job's tasks", () => {
  it("run in this order: verify and scan before expiring, the record after every task but the alerts", () => {
    expect(CRON_TASKS.map((t) => t.name)).toEqual([
      "sign-in-expiry",
      "verify",
      "scan-ethereum",
      "scan-solana",
      "expire",
      "overdue",
      "reconcile-ethereum",
      "reconcile-solana",
      "prices",
      "market-trends",
      "key-rewrap",
      "custom-orders",
      "rarity-rescore",
      "value-calibration",
      "offers",
      "collectors",
      "chain-ethereum",
      "chain-solana",
      "cron-record",
      "alerts",
      "cron-record",
    ]);
  });

  it("that read or settle payments need safe payment settings; expiring and closing overdue ones do not", () => {
    const gated = CRON_TASKS.filter((t) => t.needs.says === "payment settings that pass paymentReadiness").map((t) => t.name);
    expect(gated).toEqual(PAYMENT_TASKS);
  });

  it("on unsafe payment settings, skip every payment task and say so, and run the rest", async () => {
    const report = await runScheduledJobs({ ...env, ETH_CONFIRMATIONS: "" });
    expect(report.errors[0]).toMatch(/^payments: skipped, unsafe payment settings: ETH_CONFIRMATIONS/);
    const failed = report.errors.map((e) => e.split(":")[0]);
    for (const name of PAYMENT_TASKS) expect(failed).not.toContain(name);
    expect(report.reconciliation).toEqual({ ethereum: null, solana: null });
    // The run went on to its record.
    const [run] = await lastCronRuns(createDb(env.DB), 1);
    expect(run.errors).toEqual(report.errors);
  });

  it("go on after one fails: the failure is named in the report and the run's record, the later tasks still run", async () => {
    const now = Date.now();
    await env.DB.prepare("INSERT INTO used_sign_in_nonces (nonce, expires_at) VALUES (?, ?)")
      .bind("7".repeat(32), now - 1)
      .run();
    // The market-trends task's table is away for this run only.
    await env.DB.exec("ALTER TABLE market_trends RENAME TO market_trends_away");
    let report: Awaited<ReturnType<typeof runScheduledJobs>>;
    try {
      report = await runScheduledJobs(env, now);
    } finally {
      await env.DB.exec("ALTER TABLE market_trends_away RENAME TO market_trends");
    }
    expect(report.errors).toContainEqual(expect.stringMatching(/^market-trends: .*no such table: market_trends/));
    expect(report.marketTrends).toBe(0);
    // Before it and after it, the other tasks ran: the nonce expired, the prices were read, the run was recorded.
    expect(report.expiredNonces).toBeGreaterThanOrEqual(1);
    expect(report.pricesSource).not.toBeNull();
    expect(report.alerts).not.toBeNull();
    const [run] = await lastCronRuns(createDb(env.DB), 1);
    expect(run.failedTasks).toContain("market-trends");
    expect(run.startedAt).toBe(now);
  });
});
