// /api/health for operators: each chain's head and lag, the last cron run with each task's outcome, the tasks
// failing run after run, the reconciliation's lag, the payments awaiting refund, the migrations against the build's,
// the grinders and what they hold, for admins only; a visitor sees the public status and nothing of these.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../db/database";
import { runScheduledJobs } from "../jobs/scheduled";
import { failedTaskNames, RUN_STOPPED_ERROR } from "../operations/cron-runs";
import { BUILT_MIGRATIONS } from "../operations/migrations";
import { GRINDER_LEASE_MS, type ClaimAnswer } from "../../schema/custom-orders";
import { CRON_TASK_WORDS, grinderName } from "../../schema/health";
import { placeOrder } from "./custom-order-fixtures";
import type { OperationsHealth } from "../operations/health";
import { recordDisagreements } from "../operations/node-disagreements";
import { actors, ethWallet, type Wallet } from "./purchase-fixtures";
import { client } from "./client";

let admin: Wallet;
let buyer: Wallet;
let report: Awaited<ReturnType<typeof runScheduledJobs>>;
beforeAll(async () => {
  ({ seller: admin, buyer } = await actors());
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
      expect(JSON.stringify(body)).not.toMatch(/chain|cron|refund|grinder|127\.0\.0\.1/i);
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

  const operations = async () => ((await (await client(admin).health.$get()).json()) as { operations: OperationsHealth }).operations;

  it("the last cron run: when, how long, and each task's outcome (the payment tasks skipped on unsafe settings, with why)", async () => {
    const run = (await operations()).lastCronRun!;
    expect(run.durationMs).toBe(Date.parse(run.finishedAt) - Date.parse(run.startedAt));
    expect(run.durationMs).toBeGreaterThanOrEqual(0);
    const outcome = (task: string) => run.tasks.find((t) => t.task === task);
    // Every task of the table once, in order: the record's task first and, as it runs twice, not again.
    expect(run.tasks.map((t) => t.task).filter((t) => t === "cron-record")).toEqual(["cron-record"]);
    expect(run.tasks[0]).toEqual({ task: "cron-record", outcome: "ok", detail: null });
    for (const task of ["verify", "scan-ethereum", "scan-solana", "reconcile-ethereum", "reconcile-solana"]) {
      expect(outcome(task)).toEqual({ task, outcome: "skipped", detail: expect.stringMatching(/^unsafe payment settings: /) });
    }
    // A node that does not answer is recorded, not a failed task; expiring reservations runs on unsafe settings.
    for (const task of ["chain-ethereum", "expire", "overdue", "offers", "collectors"]) expect(outcome(task)).toEqual({ task, outcome: "ok", detail: null });
    expect(run.tasks.some((t) => t.task === "payments")).toBe(false);
    // Each task has its words for the panel.
    for (const t of run.tasks) expect(CRON_TASK_WORDS[t.task], t.task).toBeDefined();
  });

  it("the migrations: how many are applied, the newest, and one the Worker was built with that the database lacks", async () => {
    const all = await operations();
    expect(all.migrations).toEqual({
      applied: BUILT_MIGRATIONS.length,
      newest: BUILT_MIGRATIONS.at(-1),
      built: BUILT_MIGRATIONS.length,
      missing: [],
      newer: [],
    });
    // A migration in the middle lost (a database restored from an old copy and migrated past it): the newest is
    // there, so the public status stays up, but the admin sees which file is missing.
    const lost = BUILT_MIGRATIONS[20];
    const row = await env.DB.prepare("SELECT id, name, applied_at FROM d1_migrations WHERE name = ?")
      .bind(lost)
      .first<{ id: number; name: string; applied_at: string }>();
    await env.DB.prepare("DELETE FROM d1_migrations WHERE name = ?").bind(lost).run();
    await env.DB.prepare("INSERT INTO d1_migrations (name, applied_at) VALUES ('9999_from_a_newer_version.sql', CURRENT_TIMESTAMP)").run();
    try {
      expect((await operations()).migrations).toEqual({
        applied: BUILT_MIGRATIONS.length,
        newest: "9999_from_a_newer_version.sql",
        built: BUILT_MIGRATIONS.length,
        missing: [lost],
        newer: ["9999_from_a_newer_version.sql"],
      });
    } finally {
      await env.DB.prepare("DELETE FROM d1_migrations WHERE name = '9999_from_a_newer_version.sql'").run();
      await env.DB.prepare("INSERT INTO d1_migrations (id, name, applied_at) VALUES (?, ?, ?)").bind(row!.id, row!.name, row!.applied_at).run();
    }
  });

  it("the grinders: named in words, with their admin, rate and the order they hold; one silent past the lease while holding it", async () => {
    const [working, idle] = ["health-grinder-working-1", "health-grinder-idle-0001"];
    const { order } = await placeOrder(buyer, { prefix: "ab", suffix: "", caseSensitive: false });
    const claim = (grinder: string, label: string) => client(admin)["custom-orders"].admin.claim.$post({ json: { grinder, label } });
    expect(((await (await claim(working, "GPU NVIDIA H200")).json()) as ClaimAnswer).order?.id).toBe(order.id);
    const progress = await client(admin)["custom-orders"].admin[":id"].progress.$post({
      param: { id: String(order.id) },
      json: { attempts: 1000, rate: 2_000_000, grinder: working },
    });
    expect(progress.status).toBe(200);
    expect(((await (await claim(idle, "CPU, 1 thread")).json()) as ClaimAnswer).order).toBeNull();

    let grinders = (await operations()).grinders;
    expect(grinders.find((g) => g.id === working)).toMatchObject({
      name: grinderName(working),
      label: "GPU NVIDIA H200",
      adminWallet: expect.stringMatching(new RegExp(`^${admin.address}$`, "i")),
      state: "working",
      rate: 2_000_000,
      holds: [{ orderId: order.id, prefix: "ab", suffix: "", claimExpiresAt: expect.any(String), attempts: 1000 }],
    });
    expect(grinders.find((g) => g.id === idle)).toMatchObject({ name: grinderName(idle), state: "idle", rate: null, holds: [] });
    expect(grinderName(working)).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);

    // The working grinder stops reporting: past the lease it is silent, still holding the order until its claim lapses.
    await env.DB.prepare("UPDATE order_grinders SET last_seen_at = ? WHERE id = ?")
      .bind(Date.now() - GRINDER_LEASE_MS - 60_000, working)
      .run();
    grinders = (await operations()).grinders;
    expect(grinders.find((g) => g.id === working)).toMatchObject({ state: "silent", holds: [{ orderId: order.id }] });
    // Seen longer ago than a day and still holding it: listed all the same, for it is what keeps the order waiting.
    await env.DB.prepare("UPDATE order_grinders SET last_seen_at = ? WHERE id = ?")
      .bind(Date.now() - 2 * 24 * 3600_000, working)
      .run();
    expect((await operations()).grinders.find((g) => g.id === working)).toMatchObject({ state: "silent" });
    // A visitor learns nothing of them.
    expect(JSON.stringify(await (await client().health.$get()).json())).not.toContain(working);
  });

  it("a run the platform stopped: the task it was in failed, the tasks after it never ran", async () => {
    const startedAt = Date.now() + 1000;
    await env.DB.prepare("INSERT INTO cron_runs (started_at, finished_at, failed_tasks, errors) VALUES (?, ?, ?, ?)")
      // As startCronRun leaves a run it closes as stopped: its finish still its start.
      .bind(startedAt, startedAt, JSON.stringify(["offers"]), JSON.stringify([`offers: ${RUN_STOPPED_ERROR}`]))
      .run();
    const run = (await operations()).lastCronRun!;
    expect(run).toMatchObject({ startedAt: new Date(startedAt).toISOString(), durationMs: null, failedTasks: ["offers"] });
    expect(run.tasks.find((t) => t.task === "offers")).toEqual({ task: "offers", outcome: "failed", detail: RUN_STOPPED_ERROR });
    expect(run.tasks.find((t) => t.task === "collectors")).toMatchObject({ outcome: "not-run" });
    expect(run.tasks.find((t) => t.task === "expire")).toMatchObject({ outcome: "ok" });
  });
});
