// Operator alerts end to end: the Worker POSTs to a local HTTP receiver this project starts
// (scripts/test/webhook-global-setup.ts). Each condition is one incident, sent once; a recovered-then-failing node
// or task is a new incident; a failing receiver is retried with backoff across cron runs; no secret in any alert.
import { env } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "../db/database";
import { runScheduledJobs } from "../jobs/scheduled";
import { ALERT_MAX_ATTEMPTS, alertBackoffMs, CHAIN_DOWN_ALERT_MS, ROWS_PER_TOPIC, runAlerts } from "../operations/alerts";
import { recordChainProbe } from "../operations/chains";
import { recordCronRun } from "../operations/cron-runs";
import type { OperationsHealth } from "../operations/health";
import { recordPaymentAttention } from "../purchases/ledger";
import { foundOrder } from "../test/custom-order-fixtures";
import { actors, ethWallet, type Wallet } from "../test/purchase-fixtures";
import { client } from "../test/client";
import { readDeployment } from "../deployment/deployment";

const receiver = (env as unknown as { ALERT_RECEIVER_URL: string }).ALERT_RECEIVER_URL;
const hooked = { ...env, ALERT_WEBHOOK_URL: `${receiver}/hook` };
const DEAD_NODE = "http://127.0.0.1:9/?apikey=SECRET-RPC-KEY";
const db = createDb(env.DB);

type Received = {
  status: number;
  contentType: string;
  body: { text: string; incident: { kind: string; key: string; attempt: number }; digest?: { topic: string; count: number; keys: string[] } };
};
/** The deliveries (each posted attempt) that carried the incident `key`, alone or in a digest; all of them without one. */
async function received(key?: string): Promise<Received[]> {
  const all = (await (await fetch(`${receiver}/received`)).json()) as Received[];
  return key ? all.filter((r) => r.body.incident.key === key || r.body.digest?.keys.includes(key)) : all;
}
const receiverAnswers = (status: number) => fetch(`${receiver}/status/${status}`, { method: "PUT" });
const incidents = (key: string) =>
  env.DB.prepare("SELECT * FROM alert_incidents WHERE key = ? ORDER BY id")
    .bind(key)
    .all<Record<string, unknown>>()
    .then((r) => r.results);

beforeEach(async () => {
  await fetch(`${receiver}/received`, { method: "DELETE" });
  // Incidents of other tests' conditions are not this test's business: close them and keep them closed.
  await env.DB.prepare("UPDATE alert_incidents SET sent_at = coalesce(sent_at, 0)").run();
});

/** Nothing an alert carries may be a secret, a key or an RPC URL. */
function expectNoSecrets(all: Received[]) {
  const text = JSON.stringify(all);
  for (const secret of [env.KEY_ENCRYPTION_SECRET!, env.SESSION_SECRET!, "SECRET-RPC-KEY", env.ETH_RPC_URL, env.SOL_RPC_URL, "127.0.0.1:9"])
    expect(text).not.toContain(secret);
  expect(text).not.toMatch(/private|0x[0-9a-f]{64}(?![0-9a-f])[^"]*key/i);
}

describe("a chain node failing for more than 5 minutes", () => {
  it("is alerted once per incident; a recovery closes it and a new failure is a new incident", async () => {
    const t0 = Date.now();
    const dead = { ...hooked, ETH_RPC_URL: DEAD_NODE };
    await recordChainProbe(db, readDeployment(dead), "ethereum", t0);
    await recordChainProbe(db, readDeployment(dead), "ethereum", t0 + 4 * 60_000);
    await runAlerts(db, hooked, t0 + 4 * 60_000);
    expect(await received("chain:ethereum")).toEqual([]);

    await recordChainProbe(db, readDeployment(dead), "ethereum", t0 + CHAIN_DOWN_ALERT_MS + 60_000);
    await runAlerts(db, hooked, t0 + CHAIN_DOWN_ALERT_MS + 60_000);
    await recordChainProbe(db, readDeployment(dead), "ethereum", t0 + 7 * 60_000);
    await runAlerts(db, hooked, t0 + 7 * 60_000);
    const first = await received("chain:ethereum");
    expect(first).toHaveLength(1);
    expect(first[0].contentType).toBe("application/json");
    expect(first[0].body.text).toMatch(/^Too few ethereum nodes have answered for 6 minutes \(since .*\), so ethereum payments wait: /);
    expectNoSecrets(first);

    // The node answers again (the real anvil): the incident is resolved.
    await recordChainProbe(db, readDeployment(hooked), "ethereum", t0 + 8 * 60_000);
    await runAlerts(db, hooked, t0 + 8 * 60_000);
    expect((await incidents("chain:ethereum")).map((i) => i.state)).toEqual(["resolved"]);

    // It fails again: a new incident, a new alert.
    await recordChainProbe(db, readDeployment(dead), "ethereum", t0 + 9 * 60_000);
    await recordChainProbe(db, readDeployment(dead), "ethereum", t0 + 15 * 60_000);
    await runAlerts(db, hooked, t0 + 15 * 60_000);
    expect(await received("chain:ethereum")).toHaveLength(2);
    expect((await incidents("chain:ethereum")).map((i) => i.state)).toEqual(["resolved", "open"]);
    await recordChainProbe(db, readDeployment(hooked), "ethereum", t0 + 16 * 60_000);
    await runAlerts(db, hooked, t0 + 16 * 60_000);
  });

  it("end to end through the cron: a dead node, then the alert after 5 minutes", async () => {
    const t0 = Date.now();
    const dead = { ...hooked, SOL_RPC_URL: DEAD_NODE };
    const first = await runScheduledJobs(dead, t0);
    expect(first.chains).toEqual({ ethereum: true, solana: false });
    expect(await received("chain:solana")).toEqual([]);
    await runScheduledJobs(dead, t0 + CHAIN_DOWN_ALERT_MS + 1000);
    const alerts = await received("chain:solana");
    expect(alerts).toHaveLength(1);
    expectNoSecrets(await received());
    const run = await env.DB.prepare("SELECT * FROM cron_runs ORDER BY id DESC LIMIT 1").first<{ started_at: number }>();
    expect(run!.started_at).toBe(t0 + CHAIN_DOWN_ALERT_MS + 1000);
    await runScheduledJobs(hooked, t0 + CHAIN_DOWN_ALERT_MS + 2000);
    expect((await incidents("chain:solana")).at(-1)!.state).toBe("resolved");
  });
});

describe("a cron task failing 3 runs in a row", () => {
  it("is alerted once, not before the third failure; passing closes it; failing 3 more times alerts again", async () => {
    const t0 = Date.now() + 3_600_000;
    const run = (i: number, errors: string[]) =>
      recordCronRun(db, t0 + i * 60_000, t0 + i * 60_000 + 500, errors).then(() => runAlerts(db, hooked, t0 + i * 60_000 + 600));
    await run(0, ["prices: fetch failed"]);
    await run(1, ["prices: fetch failed", "verify: timeout"]);
    expect(await received("cron:prices")).toEqual([]);
    await run(2, ["prices: fetch failed"]);
    await run(3, ["prices: fetch failed"]);
    const alerts = await received("cron:prices");
    expect(alerts).toHaveLength(1);
    expect(alerts[0].body.text).toContain('The cron task "prices" failed 3 runs in a row');
    expect(await received("cron:verify")).toEqual([]);
    await run(4, []);
    expect((await incidents("cron:prices")).map((i) => i.state)).toEqual(["resolved"]);
    for (const i of [5, 6, 7]) await run(i, ["prices: fetch failed"]);
    expect(await received("cron:prices")).toHaveLength(2);
    await run(8, []);
  });

  it("several tasks failing at once are one delivery, a digest that quotes each", async () => {
    // After the runs of the test above, before those of the delivery tests (2 hours ahead).
    const t0 = Date.now() + 1.5 * 3_600_000;
    const run = (i: number, errors: string[]) =>
      recordCronRun(db, t0 + i * 60_000, t0 + i * 60_000 + 500, errors).then(() => runAlerts(db, hooked, t0 + i * 60_000 + 600));
    for (const i of [0, 1, 2]) await run(i, ["prices: fetch failed", "value-calibration: no such table: calibration"]);
    const deliveries = (await received()).filter((r) => r.body.incident.kind === "cron_failing");
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].body.digest).toMatchObject({ topic: "cron_failing", count: 2 });
    expect(new Set(deliveries[0].body.digest!.keys)).toEqual(new Set(["cron:prices", "cron:value-calibration"]));
    expect(deliveries[0].body.text).toMatch(/^2 cron tasks failing: The cron task "[a-z-]+" failed 3 runs in a row .+ \| The cron task "[a-z-]+" failed/);
    expect(deliveries[0].body.text).toContain("prices: fetch failed");
    expect(deliveries[0].body.text).toContain("value-calibration: no such table: calibration");
    await run(3, []);
    expect((await incidents("cron:value-calibration")).map((i) => i.state)).toEqual(["resolved"]);
  });
});

describe("a payment listed for refund", () => {
  let seller: Wallet;
  beforeAll(async () => {
    ({ seller } = await actors());
  });

  it("an escrow row needing a refund is alerted once, with what to refund and nothing secret", async () => {
    const id = crypto.randomUUID();
    const hash = `0x${"7".repeat(64)}`;
    await env.DB.prepare(
      `INSERT INTO escrow_transactions (id, network, amount, currency, sender_address, status, tx_hash, amount_base_units, expected_base_units,
                                        attention_reason, refund_status, refund_base_units, created_at)
       VALUES (?, 'ethereum', '0.4', 'ETH', '0xabc', 'refund', ?, '400000000000000000', '500000000000000000', 'partial', 'needed', '400000000000000000', ?)`,
    )
      .bind(id, hash, Date.now())
      .run();
    const now = Date.now();
    await runAlerts(db, hooked, now);
    await runAlerts(db, hooked, now + 120_000);
    const alerts = await received(`escrow:${id}`);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].body).toMatchObject({
      text: expect.stringContaining(`A payment needs a refund: 0.4 ETH on ethereum (partial), transaction ${hash}`),
      incident: { kind: "refund_due" },
    });
    expectNoSecrets(alerts);
    // Refunded: resolved, and never alerted again.
    await env.DB.prepare("UPDATE escrow_transactions SET refund_status = 'refunded' WHERE id = ?").bind(id).run();
    await runAlerts(db, hooked, now + 180_000);
    expect((await incidents(`escrow:${id}`)).map((i) => i.state)).toEqual(["resolved"]);
    expect(seller.userId).toBeGreaterThan(0);
  });

  it("a payment_attention row is alerted once and stamped alerted_at", async () => {
    const ref = `test-${crypto.randomUUID()}`;
    await recordPaymentAttention(
      db,
      { network: "solana", kind: "uncredited", ref, detail: "0.3 SOL from a stranger, not a purchase", amount: 30_000_000n },
      Date.now(),
    );
    const row = await env.DB.prepare("SELECT id FROM payment_attention WHERE ref = ?").bind(ref).first<{ id: string }>();
    const now = Date.now();
    await runAlerts(db, hooked, now);
    await runAlerts(db, hooked, now + 120_000);
    const alerts = await received(`attention:${row!.id}`);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].body.text).toContain("0.3 SOL from a stranger");
    expect((await env.DB.prepare("SELECT alerted_at FROM payment_attention WHERE id = ?").bind(row!.id).first<{ alerted_at: number }>())!.alerted_at).toBe(now);
  });
});

describe("a custom order past its deadline", () => {
  it("is alerted once", async () => {
    const { seller: grinder } = await actors();
    const f = await foundOrder(await ethWallet(), grinder, { prefix: "d", suffix: "", caseSensitive: false }, 0);
    const deadline = (await env.DB.prepare("SELECT payment_deadline FROM custom_orders WHERE id = ?").bind(f.order.id).first<{ payment_deadline: number }>())!
      .payment_deadline;
    await runAlerts(db, hooked, deadline - 1000);
    expect(await received(`custom-order:${f.order.id}`)).toEqual([]);
    await runAlerts(db, hooked, deadline + 1000);
    await runAlerts(db, hooked, deadline + 200_000);
    const alerts = await received(`custom-order:${f.order.id}`);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].body.text).toMatch(new RegExp(`^Custom order #${f.order.id} \\(.+ ETH\\) passed its payment deadline`));
  });
});

describe("delivery", () => {
  it("a failing receiver is retried with backoff across runs until it answers, then never again", async () => {
    await receiverAnswers(500);
    const t0 = Date.now() + 7_200_000;
    const run = (i: number) => recordCronRun(db, t0 + i, t0 + i, ["market-trends: broken"]).then(() => runAlerts(db, hooked, t0 + i));
    await run(0);
    await run(1);
    await run(2); // third failure: the incident opens, attempt 1 fails
    expect((await received("cron:market-trends")).map((r) => r.status)).toEqual([500]);
    await run(30_000); // within the backoff: no attempt
    expect(await received("cron:market-trends")).toHaveLength(1);
    await run(2 + alertBackoffMs(1)); // attempt 2 fails
    await receiverAnswers(200);
    await run(2 + alertBackoffMs(1) + alertBackoffMs(2) - 1000); // too early for attempt 3
    expect((await received("cron:market-trends")).map((r) => r.status)).toEqual([500, 500]);
    await run(2 + alertBackoffMs(1) + alertBackoffMs(2)); // attempt 3 succeeds
    await run(2 + 3_600_000);
    expect((await received("cron:market-trends")).map((r) => [r.status, r.body.incident.attempt])).toEqual([
      [500, 1],
      [500, 2],
      [200, 3],
    ]);
    const [incident] = await incidents("cron:market-trends");
    expect(incident).toMatchObject({ attempts: 3, last_error: null, state: "open" });
    expect(incident.sent_at).not.toBeNull();
    await recordCronRun(db, t0 + 4_000_000, t0 + 4_000_000, []);
    await runAlerts(db, hooked, t0 + 4_000_000);
  });

  it("gives up after the maximum attempts, and without a webhook URL records incidents and sends nothing", async () => {
    await receiverAnswers(503);
    const t0 = Date.now() + 20_000_000;
    const run = (t: number, e: Env = hooked) => recordCronRun(db, t, t, ["rarity-rescore: broken"]).then(() => runAlerts(db, e, t));
    await run(t0, env);
    await run(t0 + 1, env);
    await run(t0 + 2, env);
    expect((await incidents("cron:rarity-rescore"))[0]).toMatchObject({ state: "open", attempts: 0, sent_at: null });
    expect(await received()).toEqual([]);
    let t = t0 + 3;
    for (let i = 0; i < ALERT_MAX_ATTEMPTS + 3; i++) {
      await run(t);
      t += 3_600_000;
    }
    expect(await received("cron:rarity-rescore")).toHaveLength(ALERT_MAX_ATTEMPTS);
    expect((await incidents("cron:rarity-rescore"))[0]).toMatchObject({ attempts: ALERT_MAX_ATTEMPTS, sent_at: null, last_error: "HTTP 503" });
  });
});

// The alerts task bound one parameter per open condition (D1 takes at most 100 per query) and read the
// oldest 200 rows of each kind, so a flood of refund rows stopped every alert, and a failing alerts task could not
// report itself.
describe("more refund rows than one query may bind", () => {
  /** `n` escrow rows owed back (0.001 ETH each, unmatched transfers unless said), the newest last; their ids. */
  async function refundRows(n: number, createdFrom: number, reason = "unmatched"): Promise<string[]> {
    const rows = Array.from({ length: n }, (_, i) => ({
      id: crypto.randomUUID(),
      hash: `0x${crypto.randomUUID().replace(/-/g, "")}${(i + 1).toString(16).padStart(32, "a")}`,
      at: createdFrom + i,
    }));
    await env.DB.prepare(
      `INSERT INTO escrow_transactions (id, network, amount, currency, sender_address, status, tx_hash, amount_base_units, attention_reason, refund_status,
                                        refund_base_units, created_at)
       SELECT value ->> 'id', 'ethereum', '0.001', 'ETH', '0xabc', 'refund', value ->> 'hash', '1000000000000000', ?, 'needed', '1000000000000000',
              value ->> 'at'
       FROM json_each(?)`,
    )
      .bind(reason, JSON.stringify(rows))
      .run();
    return rows.map((r) => r.id);
  }
  const openIncidents = () => env.DB.prepare("SELECT key FROM alert_incidents WHERE state = 'open' AND key LIKE 'escrow:%'").all<{ key: string }>();

  it("450 rows: the task runs, the newest row is alerted first, every row gets its incident, marking 300 refunded resolves those", async () => {
    const t0 = Date.now();
    const ids = await refundRows(450, t0 - 3_600_000);
    const first = await runAlerts(db, hooked, t0);
    expect(first.opened).toBeGreaterThan(0);
    expect(await received(`escrow:${ids[449]}`)).toHaveLength(1);
    // A later late payment is alerted in the next run, ahead of the backlog.
    const [later] = await refundRows(1, t0);
    await runAlerts(db, hooked, t0 + 60_000);
    expect(await received(`escrow:${later}`)).toHaveLength(1);
    for (let i = 2; i < 6; i++) await runAlerts(db, hooked, t0 + i * 60_000);
    const open = new Set((await openIncidents()).results.map((r) => r.key));
    expect([...ids, later].filter((id) => !open.has(`escrow:${id}`))).toEqual([]);

    await env.DB.prepare("UPDATE escrow_transactions SET refund_status = 'refunded' WHERE id IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(ids.slice(0, 300)))
      .run();
    const report = await runAlerts(db, hooked, t0 + 10 * 60_000);
    expect(report.resolved).toBe(300);
    const still = new Set((await openIncidents()).results.map((r) => r.key));
    expect(ids.slice(300).every((id) => still.has(`escrow:${id}`))).toBe(true);
    await env.DB.prepare("UPDATE escrow_transactions SET refund_status = 'refunded' WHERE refund_status = 'needed'").run();
    await runAlerts(db, hooked, t0 + 11 * 60_000);
  });

  it("a flood of 100 unmatched transfers is one digest, and a late payment older than all of them is in the same delivery", async () => {
    const t0 = Date.now() + 150_000_000;
    const [late] = await refundRows(1, t0 - 7_200_000, "late");
    const flood = await refundRows(100, t0 - 3_600_000);
    await runAlerts(db, hooked, t0);
    // (Running this far ahead, the reconciliations are behind too: their delivery is beside these.)
    const payments = async () => (await received()).filter((r) => r.body.incident.kind === "refund_due");
    const all = await payments();
    // One delivery for the late payment, one for the flood.
    expect(all).toHaveLength(2);
    const [lateAlert] = await received(`escrow:${late}`);
    expect(lateAlert.body.text).toMatch(/^A payment needs a refund: 0\.001 ETH on ethereum \(late\), transaction 0x/);
    expect(lateAlert.body.digest).toBeUndefined();
    const digest = all.find((r) => r.body.digest)!;
    expect(digest.body.text).toBe("100 unmatched transfers, 0.1 ETH in all, listed in Admin > Payments.");
    expect(digest.body.incident).toMatchObject({ kind: "refund_due", key: "digest:refund:unmatched", attempt: 1 });
    expect(digest.body.digest).toMatchObject({ topic: "refund:unmatched", count: 100 });
    expect(new Set(digest.body.digest!.keys)).toEqual(new Set(flood.map((id) => `escrow:${id}`)));
    // Each incident of the flood is sent: the next run sends nothing again.
    await runAlerts(db, hooked, t0 + 60_000);
    expect(await payments()).toHaveLength(2);
    await env.DB.prepare("UPDATE escrow_transactions SET refund_status = 'refunded' WHERE refund_status = 'needed'").run();
    await runAlerts(db, hooked, t0 + 120_000);
  });

  it("a flood of more unmatched transfers than a run takes up, all newer than a late payment: the late payment is in that run's deliveries", async () => {
    const t0 = Date.now() + 155_000_000;
    const [late] = await refundRows(1, t0 - 7_200_000, "late");
    // More than one run gives incidents to, each newer than the late payment: a flood that keeps coming keeps it so.
    await refundRows(ROWS_PER_TOPIC + 50, t0 - 3_600_000);
    await runAlerts(db, hooked, t0);
    const [lateAlert] = await received(`escrow:${late}`);
    expect(lateAlert?.body.text).toMatch(/^A payment needs a refund: 0\.001 ETH on ethereum \(late\)/);
    // The flood is still one delivery, of as many as the run took up.
    const floods = (await received()).filter((r) => r.body.digest?.topic === "refund:unmatched");
    expect(floods).toHaveLength(1);
    expect(floods[0].body.text).toBe(`${ROWS_PER_TOPIC} unmatched transfers, ${ROWS_PER_TOPIC / 1000} ETH in all, listed in Admin > Payments.`);
    await env.DB.prepare("UPDATE escrow_transactions SET refund_status = 'refunded' WHERE refund_status = 'needed'").run();
    await runAlerts(db, hooked, t0 + 60_000);
  });

  it("an alerts task that keeps failing shows in health's failing tasks, and its next successful run alerts about it", async () => {
    // After every run the earlier tests recorded (they run up to about 17 hours ahead).
    const t0 = Date.now() + 100_000_000;
    // The fault: the incidents table cannot be written, so every alerts run throws.
    await env.DB.exec("CREATE TRIGGER injected_alerts_fault BEFORE UPDATE ON alert_incidents BEGIN SELECT RAISE(ABORT, 'injected fault'); END");
    await env.DB.exec("CREATE TRIGGER injected_alerts_fault_insert BEFORE INSERT ON alert_incidents BEGIN SELECT RAISE(ABORT, 'injected fault'); END");
    const [owed] = await refundRows(1, t0);
    try {
      for (let i = 0; i < 3; i++) {
        const report = await runScheduledJobs(hooked, t0 + i * 60_000);
        expect(report.alerts).toBeNull();
      }
      // (The runs ahead of time expired every session: sign in again.)
      const { seller: admin } = await actors();
      const health = (await (await client(admin).health.$get()).json()) as { operations: OperationsHealth };
      expect(health.operations.lastCronRun!.failedTasks).toContain("alerts");
      expect(health.operations.failingTasks.find((f) => f.task === "alerts")).toMatchObject({ runs: 3, lastError: expect.stringContaining("injected fault") });
    } finally {
      await env.DB.exec("DROP TRIGGER injected_alerts_fault");
      await env.DB.exec("DROP TRIGGER injected_alerts_fault_insert");
    }
    await runScheduledJobs(hooked, t0 + 3 * 60_000);
    expect(await received(`escrow:${owed}`)).toHaveLength(1);
    const alerts = await received("cron:alerts");
    expect(alerts).toHaveLength(1);
    expect(alerts[0].body.text).toMatch(/^The cron task "alerts" failed 3 runs in a row/);
    await runScheduledJobs(hooked, t0 + 4 * 60_000);
    expect((await incidents("cron:alerts")).map((i) => i.state)).toEqual(["resolved"]);
  });
});
