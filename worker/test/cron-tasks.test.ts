// The cron job's table of tasks (worker/jobs/scheduled.ts) run against a real D1: the order the tasks run in,
// which of them need safe payment settings, and a task that fails leaving the rest of the run to go on and be
// recorded (docs/production-settings.md: why payments wait on the settings); the cron's own health (its record, the
// chain probes, the alerts) first, so that no task that throws, runs out of time or is stopped can silence it.
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../db/database";
import { forgetIdleUsers, USER_IDLE_DAYS, USERS_FORGET_SLICE } from "../jobs/forget-idle-users";
import { type CronJob, CRON_TASKS, runScheduledJobs } from "../jobs/scheduled";
import type { Task } from "../jobs/task-table";
import { insertListing, insertUser } from "./browse-fixtures";
import { insertTransaction } from "./listing-fixtures";
import { CRON_FAILURE_RUNS } from "../operations/alerts";
import { CRON_RUN_STOPPED_AFTER_MS, lastCronRuns, RUN_STOPPED_ERROR } from "../operations/cron-runs";

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const PAYMENT_TASKS = ["verify", "scan-ethereum", "scan-solana", "reconcile-ethereum", "reconcile-solana"];

describe("the cron job's tasks", () => {
  it("run in this order: the record, the probes and the alerts first, verify and scan before expiring, the record finished last", () => {
    expect(CRON_TASKS.map((t) => t.name)).toEqual([
      "cron-record",
      "chain-ethereum",
      "chain-solana",
      "alerts",
      "sign-in-expiry",
      "forget-idle-users",
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
      "supply-claims",
      "rarity-rescore",
      "value-calibration",
      "offers",
      "collectors",
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

describe("wallets that never did anything are forgotten", () => {
  it(`a users row with nothing on the store and no sign-in for ${USER_IDLE_DAYS} days is deleted, ${USERS_FORGET_SLICE} rows read a run`, async () => {
    const db = createDb(env.DB);
    const now = Date.now();
    const DAY = 24 * 60 * 60 * 1000;
    const old = now - (USER_IDLE_DAYS + 1) * DAY;
    const user = async (name: string, lastSignInAt: number | null = null, createdAt = old) => {
      const id = await insertUser(`forget_${name}`, `0xf0${name.padEnd(38, "0")}`);
      await env.DB.prepare("UPDATE users SET created_at = ?, last_sign_in_at = ? WHERE id = ?").bind(createdAt, lastSignInAt, id).run();
      return id;
    };
    // Idle, with nothing: more than a run may read (a few hundred rows, a bounded piece of work), so one run cannot
    // forget them all.
    const idleCount = 520;
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO users (username, wallet_address, network, created_at) SELECT 'idle_' || i, 'idle_wallet_' || i, 'ethereum', ? FROM n`,
    )
      .bind(idleCount, old)
      .run();
    // Kept: a recent sign-in, a new row, an admin, and each thing a wallet may have on the store.
    const kept: Record<string, number> = {
      signedInLately: await user("a1", now - (USER_IDLE_DAYS - 1) * DAY),
      newRow: await user("a2", null, now - 2 * DAY),
      admin: await user("a3"),
      seller: await user("a4"),
      buyer: await user("a5"),
      offerer: await user("a6"),
      watcher: await user("a7"),
      searcher: await user("a8"),
      session: await user("a9"),
    };
    await env.DB.prepare("UPDATE users SET is_admin = 1 WHERE id = ?").bind(kept.admin).run();
    const listing = await insertListing({ sellerId: kept.seller });
    await insertTransaction(await insertListing({ status: "sold", isListed: false }), { status: "cancelled", buyerId: kept.buyer, createdAt: old });
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO offers (address_id, buyer_id, amount, amount_units, currency, ask_units, status, expires_at, client_network, created_at, updated_at)
         VALUES (?, ?, '0.01', 1000000, 'ETH', 10000000, 'expired', ?, 'local', ?, ?)`,
      ).bind(listing, kept.offerer, old, old, old),
      env.DB.prepare(
        "INSERT INTO watchlist (user_id, address_id, price_at_star, price_units_at_star, client_key, created_at) VALUES (?, ?, '0.1', 10000000, 'local', ?)",
      ).bind(kept.watcher, listing, old),
      // A saved search is a subscription to a stored query (saved_queries), which may already exist.
      env.DB.prepare("INSERT INTO saved_queries (query, criteria) VALUES ('', '{}') ON CONFLICT (query) DO NOTHING"),
      env.DB.prepare(
        "INSERT INTO saved_searches (user_id, name, query, query_id, client_key, created_at) SELECT ?, 'all', '', id, 'local', ? FROM saved_queries WHERE query = ''",
      ).bind(kept.searcher, old),
      env.DB.prepare(
        "INSERT INTO sessions (id_hash, user_id, network, wallet_address, expires_at, created_at) VALUES ('forget-s', ?, 'ethereum', '0xf0a9', ?, ?)",
      ).bind(kept.session, now + DAY, old),
    ]);
    const idleLeft = async () => (await env.DB.prepare("SELECT count(*) AS n FROM users WHERE username LIKE 'idle_%'").first<number>("n"))!;
    const total = async () => (await env.DB.prepare("SELECT count(*) AS n FROM users").first<number>("n"))!;

    // One run reads one slice: it forgets no more than the slice holds.
    const first = await forgetIdleUsers(db, now);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(USERS_FORGET_SLICE);
    expect(first).toBeLessThan(idleCount);
    expect(await idleLeft()).toBeGreaterThan(0);
    // Run by run it goes through the table and starts again; every idle row goes, nothing else.
    const before = await total();
    let forgotten = first;
    for (let run = 0; run < 10 && (await idleLeft()) > 0; run++) forgotten += await forgetIdleUsers(db, now);
    expect(await idleLeft()).toBe(0);
    expect(await total()).toBe(before - (forgotten - first));
    const { results } = await env.DB.prepare(`SELECT id FROM users WHERE id IN (${Object.values(kept).join(",")})`).all<{ id: number }>();
    expect(results.map((r) => r.id).sort((a, b) => a - b)).toEqual(Object.values(kept).sort((a, b) => a - b));
    // A kept wallet that leaves nothing behind is forgotten in its turn, once idle; the cron job runs the task.
    await env.DB.prepare("DELETE FROM sessions WHERE id_hash = 'forget-s'").run();
    let report = await runScheduledJobs(env, now);
    for (let run = 0; run < 5 && report.forgottenUsers === 0; run++) report = await runScheduledJobs(env, now);
    expect(report.forgottenUsers).toBe(1);
    expect(await env.DB.prepare("SELECT id FROM users WHERE id = ?").bind(kept.session).first()).toBeNull();
  });
});

/** CRON_TASKS with the named tasks' work replaced. */
const armed = (replace: Record<string, Partial<Task<CronJob>>>) => CRON_TASKS.map((t) => (replace[t.name] ? { ...t, ...replace[t.name] } : t));
const probedAt = (network: string) =>
  env.DB.prepare("SELECT checked_at FROM chain_status WHERE network = ?")
    .bind(network)
    .first<{ checked_at: number }>()
    .then((r) => r?.checked_at);
const runRow = (startedAt: number) =>
  env.DB.prepare("SELECT * FROM cron_runs WHERE started_at = ?")
    .bind(startedAt)
    .first<{ id: number; running_task: string | null; errors: string; failed_tasks: string }>();

describe("the cron's own health", () => {
  it("a task that throws and one that outlives its budget do not stop the record, the probes or the alerts; 3 runs in a row are alerted", async () => {
    // Ahead of every run the other tests recorded, so these three are the newest.
    const t0 = Date.now() + 86_400_000;
    const tasks = armed({
      // Throws before doing anything, every run.
      "market-trends": { run: () => Promise.reject(new Error("armed to throw")) },
      // Never ends: its budget fails it.
      collectors: { budgetMs: 50, run: () => new Promise(() => {}) },
    });
    for (let i = 0; i < 3; i++) {
      const at = t0 + i * 60_000;
      const report = await runScheduledJobs(env, at, tasks);
      expect(report.errors).toContainEqual("market-trends: armed to throw");
      expect(report.errors).toContainEqual("collectors: ran out of its 0.05 s budget");
      expect(report.alerts).not.toBeNull();
      expect(await probedAt("ethereum")).toBe(at);
      expect(await probedAt("solana")).toBe(at);
      const row = await runRow(at);
      expect(row).toMatchObject({ running_task: null });
      expect(JSON.parse(row!.failed_tasks)).toEqual(expect.arrayContaining(["market-trends", "collectors"]));
    }
    // The next run's alerts (its first tasks) judge the three finished runs.
    const fourth = await runScheduledJobs(env, t0 + 3 * 60_000);
    expect(fourth.alerts).not.toBeNull();
    const open = await env.DB.prepare(
      "SELECT key, text FROM alert_incidents WHERE key IN ('cron:market-trends', 'cron:collectors') AND state = 'open' ORDER BY key",
    )
      .all<{ key: string; text: string }>()
      .then((r) => r.results);
    expect(open.map((i) => i.key)).toEqual(["cron:collectors", "cron:market-trends"]);
    expect(open[0].text).toContain("collectors: ran out of its 0.05 s budget");
    // It worked this time: the next run resolves them.
    await runScheduledJobs(env, t0 + 4 * 60_000);
    const left = await env.DB.prepare(
      "SELECT count(*) AS n FROM alert_incidents WHERE key IN ('cron:market-trends', 'cron:collectors') AND state = 'open'",
    ).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });

  it("a run stopped in a task (never coming back) is recorded by a later run as failing there; a younger unfinished run is left alone", async () => {
    const t0 = Date.now() + 2 * 86_400_000;
    let release!: (err: Error) => void;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    // The offers task hangs as a run stopped by the platform would: its budget far away, so only the platform ends it.
    const stopped = runScheduledJobs(
      env,
      t0,
      armed({
        offers: {
          budgetMs: 3_600_000,
          run: () => {
            entered();
            return new Promise((_, reject) => {
              release = reject;
            });
          },
        },
      }),
    );
    await inside;
    // The record exists and says where the run is.
    expect(await runRow(t0)).toMatchObject({ running_task: "offers" });
    // A run a minute later (an overlapping run, as far as anyone knows) leaves it alone.
    await runScheduledJobs(env, t0 + 60_000);
    expect(await runRow(t0)).toMatchObject({ running_task: "offers" });
    // Past the longest a run can last, the next run closes it as failed in that task.
    await runScheduledJobs(env, t0 + CRON_RUN_STOPPED_AFTER_MS + 60_000);
    const closed = await runRow(t0);
    expect(closed!.running_task).toBeNull();
    expect(JSON.parse(closed!.failed_tasks)).toContain("offers");
    expect(JSON.parse(closed!.errors)).toContainEqual("offers: the run was stopped during this task (out of memory or CPU time?)");
    // Health and the alerts read it as a finished run with that failure.
    const runs = await lastCronRuns(createDb(env.DB), 3);
    expect(runs.find((r) => r.startedAt === t0)?.failedTasks).toContain("offers");
    // If the stopped run did come back, its record keeps saying where it stopped.
    release(new Error("came back"));
    await stopped;
    expect(JSON.parse((await runRow(t0))!.errors)).toContainEqual("offers: the run was stopped during this task (out of memory or CPU time?)");
  });
  it(`a task the platform stops ${CRON_FAILURE_RUNS} runs in a row is alerted, as one that throws is`, async () => {
    const t0 = Date.now() + 3 * 86_400_000;
    const release: ((err: Error) => void)[] = [];
    const stopped: Promise<unknown>[] = [];
    // Each run hangs in the offers task as a run the platform stops (out of memory, say) never comes back from.
    for (let i = 0; i < CRON_FAILURE_RUNS; i++) {
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const hang = () => {
        entered();
        return new Promise((_, reject) => release.push(reject));
      };
      stopped.push(runScheduledJobs(env, t0 + i * 60_000, armed({ offers: { budgetMs: 3_600_000, run: hang } })));
      await inside;
    }
    const offersIncident = () =>
      env.DB.prepare("SELECT text, state FROM alert_incidents WHERE key = 'cron:offers' ORDER BY id DESC").first<{ text: string; state: string }>();
    // Past the longest a run can last, the next run's record closes them as failing there, and its alerts (after the
    // record) judge them: the task has failed that many finished runs in a row.
    const last = t0 + (CRON_FAILURE_RUNS - 1) * 60_000 + CRON_RUN_STOPPED_AFTER_MS + 60_000;
    await runScheduledJobs(env, last);
    expect(await offersIncident()).toMatchObject({ state: "open", text: expect.stringContaining(`offers: ${RUN_STOPPED_ERROR}`) });
    expect((await offersIncident())!.text).toMatch(new RegExp(`^The cron task "offers" failed ${CRON_FAILURE_RUNS} runs in a row`));
    for (const reject of release) reject(new Error("came back"));
    await Promise.all(stopped);
    // A run that gets through the task resolves it.
    await runScheduledJobs(env, last + 60_000);
    expect(await offersIncident()).toMatchObject({ state: "resolved" });
  });
});
