// The cron's probe asks every node of a chain (docs/operations.md#health): two Ethereum nodes, the real anvil and a
// proxy of it on another loopback port whose URL carries an API key (lying-node.ts), which can be down, lag or
// answer. Health names each node by host with its state, the alerts name the node that is down, and neither ever
// shows the URL.
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "../db/database";
import { CHAIN_DOWN_ALERT_MS, runAlerts } from "../operations/alerts";
import { recordChainProbe } from "../operations/chains";
import { readDeployment } from "../deployment/deployment";
import { NODE_BEHIND_TOLERANCE, operationsHealth } from "../operations/health";
import { hex, proxyNodes, type RpcAnswer } from "./lying-node";
import { anvil } from "./purchase-helpers";
import { webhookBox } from "./webhook";

const box = webhookBox("node-health");
const db = createDb(env.DB);
const KEY = "SECRET-RPC-KEY";
const anvilHost = new URL(env.ETH_RPC_URL!).host;

let nodes: ReturnType<typeof proxyNodes>;
beforeEach(async () => {
  nodes = proxyNodes(env.ETH_RPC_URL!, { keyed: 4 }, `/v2/${KEY}?apikey=${KEY}`);
  await box.clear();
});
afterEach(() => nodes.restore());

/** The settings with anvil and the keyed proxy as Ethereum's nodes, `quorum` of them needed. */
const twoNodes = (quorum: number) => ({
  ...box.env,
  ETH_RPC_URLS: `${env.ETH_RPC_URL},${nodes.urls.keyed}`,
  ETH_RPC_QUORUM: String(quorum),
});
const keyedHost = () => nodes.nameOf("keyed");
const ethereumNodes = async (settings: Env, now: number) => (await operationsHealth(db, settings, now)).nodes.find((n) => n.network === "ethereum")!;

const received = box.received;
const incidentStates = async (key: string) =>
  (await env.DB.prepare("SELECT state FROM alert_incidents WHERE key = ? ORDER BY id").bind(key).all<{ state: string }>()).results.map((r) => r.state);

/** The URL's path and query (its API key) appear nowhere in `what`. */
function expectNoUrl(what: unknown) {
  const text = JSON.stringify(what);
  expect(text).not.toContain(KEY);
  expect(text).not.toContain("/v2/");
  expect(text).not.toMatch(/https?:\/\//);
}

describe("every node of a chain is probed", () => {
  it("two nodes, one down: health lists both, the down one with since when and why, the other answering; the chain waits for its quorum", async () => {
    nodes.set("keyed", { kind: "down" });
    const settings = twoNodes(2);
    const t0 = Date.now();
    expect(await recordChainProbe(db, readDeployment(settings), "ethereum", t0)).toMatchObject({ ok: false });
    await recordChainProbe(db, readDeployment(settings), "ethereum", t0 + 60_000);
    const health = await operationsHealth(db, settings, t0 + 60_000);
    const eth = health.nodes.find((n) => n.network === "ethereum")!;
    expect(eth.hosts).toEqual([anvilHost, keyedHost()]);
    expect(eth.status).toEqual([
      {
        host: anvilHost,
        ok: true,
        head: expect.any(Number),
        behind: null,
        lagging: false,
        checkedAt: new Date(t0 + 60_000).toISOString(),
        failingSince: null,
        error: null,
      },
      {
        host: keyedHost(),
        ok: false,
        head: null,
        behind: null,
        lagging: false,
        checkedAt: new Date(t0 + 60_000).toISOString(),
        failingSince: new Date(t0).toISOString(),
        error: expect.stringContaining("HTTP request failed"),
      },
    ]);
    // Settlement needs both: the chain is not fine while one of them is down, and says which.
    const chain = health.chains.find((c) => c.network === "ethereum")!;
    expect(chain).toMatchObject({ ok: false, failingSince: new Date(t0).toISOString() });
    expect(chain.error).toMatch(new RegExp(`^1 of 2 nodes answered, 2 needed \\(${keyedHost()}: `));
    expectNoUrl(health);

    // With a quorum of one the chain answers, and the down node is still named.
    await recordChainProbe(db, readDeployment(twoNodes(1)), "ethereum", t0 + 120_000);
    const after = await operationsHealth(db, twoNodes(1), t0 + 120_000);
    expect(after.chains.find((c) => c.network === "ethereum")).toMatchObject({ ok: true, failingSince: null, error: null });
    expect((await ethereumNodes(twoNodes(1), t0 + 120_000)).status.map((s) => [s.host, s.ok, s.failingSince])).toEqual([
      [anvilHost, true, null],
      [keyedHost(), false, new Date(t0).toISOString()],
    ]);
  });

  it("a node behind the other is shown behind by its number of blocks", async () => {
    const lag = NODE_BEHIND_TOLERANCE.ethereum + 7;
    await anvil("anvil_mine", [hex(lag + 1)]);
    // The proxy keeps answering a block `lag` behind today's head (other files may mine meanwhile: only further behind).
    const stuckAt = Number(BigInt(await anvil<string>("eth_blockNumber"))) - lag;
    nodes.set("keyed", {
      kind: "lie",
      answer: (c, a: RpcAnswer) => {
        const block = a.result as { number?: string } | null;
        return c.method === "eth_getBlockByNumber" && block?.number ? { ...a, result: { ...block, number: hex(stuckAt) } } : a;
      },
    });
    const now = Date.now();
    await recordChainProbe(db, readDeployment(twoNodes(2)), "ethereum", now);
    const [honest, behind] = (await ethereumNodes(twoNodes(2), now)).status;
    expect(honest).toMatchObject({ ok: true, behind: 0, lagging: false });
    expect(behind).toMatchObject({ ok: true, head: stuckAt, behind: honest.head! - stuckAt, lagging: true, failingSince: null });
    expect(behind.behind).toBeGreaterThanOrEqual(lag);
  });

  it("a node removed from the settings disappears from health, and its row with the next probe", async () => {
    nodes.set("keyed", { kind: "down" });
    const now = Date.now();
    await recordChainProbe(db, readDeployment(twoNodes(1)), "ethereum", now);
    // Health reads the configured list: gone at once, before any probe.
    expect((await ethereumNodes(env, now)).status.map((s) => s.host)).toEqual([anvilHost]);
    await recordChainProbe(db, readDeployment(env), "ethereum", now + 60_000);
    const rows = await env.DB.prepare("SELECT node FROM chain_node_status WHERE network = 'ethereum'").all<{ node: string }>();
    expect(rows.results.map((r) => r.node)).toEqual([anvilHost]);
  });
});

describe("a node failing for more than CHAIN_DOWN_ALERT_MS", () => {
  it("opens an incident naming its host (never its URL), and resolves it when the node answers again", async () => {
    nodes.set("keyed", { kind: "down" });
    const settings = twoNodes(1);
    const key = `node-down:ethereum:${keyedHost()}`;
    const t0 = Date.now() + 50_000_000;
    await recordChainProbe(db, readDeployment(settings), "ethereum", t0);
    await recordChainProbe(db, readDeployment(settings), "ethereum", t0 + CHAIN_DOWN_ALERT_MS - 60_000);
    await runAlerts(db, settings, t0 + CHAIN_DOWN_ALERT_MS - 60_000);
    expect(await received(key)).toEqual([]);

    await recordChainProbe(db, readDeployment(settings), "ethereum", t0 + CHAIN_DOWN_ALERT_MS + 60_000);
    await runAlerts(db, settings, t0 + CHAIN_DOWN_ALERT_MS + 60_000);
    await runAlerts(db, settings, t0 + CHAIN_DOWN_ALERT_MS + 120_000);
    const alerts = await received(key);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].body.text).toMatch(
      new RegExp(`^The ethereum node at ${keyedHost()} has not answered for 6 minutes \\(since .*\\): HTTP request failed\\. Payments wait`),
    );
    expectNoUrl(alerts);
    // A quorum of one still answers: the chain itself is not down.
    expect(await incidentStates("chain:ethereum")).not.toContain("open");

    nodes.set("keyed", { kind: "honest" });
    await recordChainProbe(db, readDeployment(settings), "ethereum", t0 + CHAIN_DOWN_ALERT_MS + 180_000);
    await runAlerts(db, settings, t0 + CHAIN_DOWN_ALERT_MS + 180_000);
    expect(await incidentStates(key)).toEqual(["resolved"]);
  });

  it("with a quorum of both, the chain's incident says payments wait and names the node", async () => {
    nodes.set("keyed", { kind: "down" });
    const settings = twoNodes(2);
    const t0 = Date.now() + 60_000_000;
    await recordChainProbe(db, readDeployment(settings), "ethereum", t0);
    await recordChainProbe(db, readDeployment(settings), "ethereum", t0 + CHAIN_DOWN_ALERT_MS + 1000);
    await runAlerts(db, settings, t0 + CHAIN_DOWN_ALERT_MS + 1000);
    const [chain] = await received("chain:ethereum");
    expect(chain.body.text).toMatch(/^Too few ethereum nodes have answered for 5 minutes .*, so ethereum payments wait: 1 of 2 nodes answered, 2 needed/);
    expect(chain.body.text).toContain(keyedHost());
    expect(await received(`node-down:ethereum:${keyedHost()}`)).toHaveLength(1);
    expectNoUrl([chain]);

    nodes.set("keyed", { kind: "honest" });
    await recordChainProbe(db, readDeployment(settings), "ethereum", t0 + CHAIN_DOWN_ALERT_MS + 60_000);
    await runAlerts(db, settings, t0 + CHAIN_DOWN_ALERT_MS + 60_000);
    expect((await incidentStates("chain:ethereum")).at(-1)).toBe("resolved");
    expect((await incidentStates(`node-down:ethereum:${keyedHost()}`)).at(-1)).toBe("resolved");
  });
});
