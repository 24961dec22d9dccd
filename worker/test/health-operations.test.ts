// /api/health for operators: each chain's head and lag, the last cron run and its failed tasks, the tasks
// failing run after run, the reconciliation's lag, the payments awaiting refund, for admins only; a visitor sees the public status and nothing of these.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../db/database";
import { runScheduledJobs } from "../jobs/scheduled";
import { failedTaskNames } from "../operations/cron-runs";
import type { OperationsHealth } from "../operations/health";
import { recordDisagreements } from "../operations/node-disagreements";
import { actors, ethWallet, type Wallet } from "./purchase-fixtures";
import { client } from "./client";

let admin: Wallet;
let report: Awaited<ReturnType<typeof runScheduledJobs>>;
beforeAll(async () => {
  ({ seller: admin } = await actors());
  // No chain node runs in this project (a dead port): the cron records both nodes failing.
  report = await runScheduledJobs({ ...env, ETH_CONFIRMATIONS: "" });
  await env.DB.prepare(
    `INSERT INTO escrow_transactions (id, network, amount, currency, sender_address, status, tx_hash, amount_base_units, expected_base_units,
                                      attention_reason, refund_status, refund_base_units, created_at)
     VALUES (?, 'ethereum', '0.4', 'ETH', '0xabc', 'refund', ?, '400000000000000000', '500000000000000000', 'late', 'needed', '400000000000000000', ?)`,
  )
    .bind(crypto.randomUUID(), `0x${"6".repeat(64)}`, Date.now())
    .run();
});

describe("/api/health", () => {
  it("a visitor and a signed-in non-admin see the status only, nothing about chains, the cron or refunds", async () => {
    for (const who of [undefined, await ethWallet()]) {
      const res = await client(who).health.$get();
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.status).toBeDefined();
      expect(body.payments).toMatchObject({ ready: true });
      expect(body).not.toHaveProperty("operations");
      expect(JSON.stringify(body)).not.toMatch(/chain|cron|refund|127\.0\.0\.1/i);
    }
  });

  it("an admin sees each chain's head and lag, the last cron run and its failed tasks, and the refunds due", async () => {
    const res = await client(admin).health.$get();
    const body = (await res.json()) as { status: string; payments: { ready: boolean }; operations: OperationsHealth };
    expect(body.payments.ready).toBe(true);
    const { chains, lastCronRun, paymentsAwaitingRefund } = body.operations;
    expect(chains.map((c) => c.network)).toEqual(["ethereum", "solana"]);
    for (const c of chains) {
      expect(c).toMatchObject({ ok: false, head: null, lagSeconds: null, failingSince: expect.any(String), error: expect.any(String) });
      // The node's URL (it may carry an API key) is never shown.
      expect(c.error).not.toContain("127.0.0.1");
    }
    expect(lastCronRun).toMatchObject({ startedAt: expect.any(String), finishedAt: expect.any(String) });
    // The run had unsafe payment settings (no ETH_CONFIRMATIONS): its payments task failed.
    expect(report.errors.some((e) => e.startsWith("payments:"))).toBe(true);
    expect(lastCronRun!.failedTasks).toEqual(failedTaskNames(report.errors));
    expect(lastCronRun!.failedTasks).toContain("payments");
    expect(body.operations.failingTasks).toContainEqual({
      task: "payments",
      runs: 1,
      since: lastCronRun!.startedAt,
      lastError: expect.stringMatching(/^payments: skipped, unsafe payment settings/),
    });
    // Payments skipped: the reconciliation has not started on either network, so it has no lag to show yet.
    expect(body.operations.reconciliation).toEqual(
      ["ethereum", "solana"].map((network) => ({
        network,
        throughBlock: null,
        head: null,
        blocksBehind: null,
        caughtUpAt: null,
        minutesBehind: null,
        behind: false,
      })),
    );
    expect(paymentsAwaitingRefund).toBe(1);
    // Local: one node per chain and a quorum of one, said as such (docs/payments.md#trust-no-single-node).
    // Each node's own probe, by host: here the one dead node of each chain, failing since the cron's run.
    const down = {
      host: "127.0.0.1:9",
      ok: false,
      head: null,
      behind: null,
      lagging: false,
      checkedAt: lastCronRun!.startedAt,
      failingSince: lastCronRun!.startedAt,
      error: expect.any(String),
    };
    expect(body.operations.nodes).toEqual([
      { network: "ethereum", hosts: ["127.0.0.1:9"], quorum: 1, singleNode: true, status: [down] },
      { network: "solana", hosts: ["127.0.0.1:9"], quorum: 1, singleNode: true, status: [down] },
    ]);
  });

  it("names a node that contradicted the others, by host, with what it said", async () => {
    await recordDisagreements(createDb(env.DB))({
      network: "ethereum",
      nodes: ["rpc.liar.example"],
      hash: `0x${"ab".repeat(32)}`,
      detail: "they report the payment differently (block, amount, sender or outcome)",
    });
    const body = (await (await client(admin).health.$get()).json()) as { operations: OperationsHealth };
    expect(body.operations.nodeDisagreements).toContainEqual({
      network: "ethereum",
      node: "rpc.liar.example",
      firstSeenAt: expect.any(String),
      lastSeenAt: expect.any(String),
      times: 1,
      txHash: `0x${"ab".repeat(32)}`,
      detail: expect.stringContaining("differently"),
    });
    const visitor = await (await client().health.$get()).json();
    expect(JSON.stringify(visitor)).not.toContain("liar");
  });

  it("an answering node shows its head and lag (seconds from the head block's time to the probe)", async () => {
    const now = Date.now();
    await createDb(env.DB).run(
      // As recordChainProbe writes it for an answer: head 1234 whose block is 30 s old at the probe.
      (await import("drizzle-orm"))
        .sql`UPDATE chain_status SET ok = 1, head = 1234, head_time = ${now - 30_000}, checked_at = ${now}, failing_since = NULL, error = NULL WHERE network = 'ethereum'`,
    );
    const body = (await (await client(admin).health.$get()).json()) as { operations: OperationsHealth };
    expect(body.operations.chains[0]).toMatchObject({ network: "ethereum", ok: true, head: 1234, lagSeconds: 30, failingSince: null });
  });
});
