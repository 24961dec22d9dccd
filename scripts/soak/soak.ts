// `npm run soak [-- --minutes 10 --concurrency 10 --faults 0.15 --nodes 2 --liar]`: the payment path under load and node faults on a
// throw-away local stack (docs/testing.md#soak). For N minutes simulated buyers and attackers (scripts/soak/actors.ts)
// reserve, pay, under- and over-pay, cancel, report junk and hoard on both chains, while a fault proxy between the
// Worker and each node (scripts/soak/fault-proxy.ts) fails a share of its calls and the cron route runs every
// `--tick` seconds. Then the faults stop, the cron job settles what is left, and the invariants of docs/payments.md
// are checked (scripts/soak/invariants.ts) on D1, the chains (asked directly) and what the actors saw. Prints the
// counts and the verdicts; exits 1 on any violation. `--nodes 2`: each chain read through two proxies in front of
// its one node, at quorum 2; `--liar`: the first of them lies on command (scripts/soak/liar.ts) while an attacker
// tries what each lie could win, and the soak prints what it got. Loopback only, fixed ports (moved by
// TEST_PORT_OFFSET): run it under `flock /tmp/stack.lock`.
// With collectors (docs/benchmarks.md#soak): watchers and offerers among the actors, `--searchers` wallets saving
// searches (match-all ones among them) from client networks of `--per-network` wallets each, and halfway through an
// import of `--import` listings through the admin bulk upload, with a late payment made while it runs. The alerts go
// to a webhook on loopback; the end checks add the offers' standings, each search told once and in time, the late
// payment alerted in time, and every cron run recorded.
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { base58 } from "@scure/base";
import { Keypair } from "@solana/web3.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { BulkRow, BulkUploadResponse } from "../../schema/listings";
import { activeListings, apiClient, type LocalDb, rpc, SignInRefused, signInEthereum, sleep, withLocalEnv } from "../bench/buyer-client";
import { DEV_ACCOUNTS } from "../../schema/dev-accounts";
import { seedDemoListings } from "../seed";
import { startSolanaRpc } from "../solana-rpc/server";
import { testPort } from "../test/ports";
import { wranglerVars } from "../test/wrangler-vars";
import { applyLocalMigrations, buildWeb, type Child, httpOk, ROOT, rpcAnswers, seedLocal, startAnvil, startWorker, tickScheduled, waitUntil } from "../stack";
import { ACTOR_KINDS, type ActorKind, latePayment, ListingPool, runEpisode, type Searcher, type Stage, saveSearches, searchesTold, Tally } from "./actors";
import { type FaultProxy, startFaultProxy } from "./fault-proxy";
import { Liar, liarTable, liarVerdicts, runLiarAttacks } from "./liar";
import {
  type ToTell,
  type ChainPayment,
  type CronRunRow,
  checkCollectorInvariants,
  checkInvariants,
  type LedgerRow,
  type Network,
  type OfferRow,
  type PurchaseRow,
  nodeUnavailable,
  runsToTell,
  type SearchTold,
  type SoakFacts,
  type Tick,
  unaccountedTransfers,
} from "./invariants";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    concurrency: { type: "string", default: "10" },
    faults: { type: "string", default: "0.15" },
    tick: { type: "string", default: "15" },
    settle: { type: "string", default: "240" },
    extra: { type: "string", default: "60" },
    nodes: { type: "string", default: "1" },
    liar: { type: "boolean", default: false },
    searchers: { type: "string", default: "60" },
    "per-network": { type: "string", default: "5" },
    import: { type: "string", default: "1000" },
    within: { type: "string", default: "2" },
  },
});
if (values.nodes !== "1" && values.nodes !== "2") throw new Error("--nodes must be 1 or 2");
const NODES = Number(values.nodes);
if (values.liar && NODES !== 2) throw new Error("--liar needs --nodes 2 (a liar alone is not a quorum)");
const MINUTES = Number(values.minutes);
const CONCURRENCY = Number(values.concurrency);
/** The share of node calls failed, split evenly between errors, timeouts and stale heads. */
const FAULT_SHARE = Number(values.faults);
const TICK_MS = Number(values.tick) * 1000;
const SETTLE_MS = Number(values.settle) * 1000;
/** Listings added per network on top of the demo data, so buyers do not run out during a long soak. */
const EXTRA = Number(values.extra);
/** Wallets saving searches before the import, how many share a client network, the listings imported halfway. */
const SEARCHERS = Number(values.searchers);
const PER_NETWORK = Number(values["per-network"]);
const IMPORT = Number(values.import);
/** Cron runs within which a saved search is told of the import and the late payment is alerted. */
const WITHIN_RUNS = Number(values.within);
for (const [name, v, max] of [
  ["minutes", MINUTES, 120],
  ["concurrency", CONCURRENCY, 32],
  ["faults", FAULT_SHARE, 0.9],
  ["tick", TICK_MS / 1000, 60],
  ["settle", SETTLE_MS / 1000, 900],
  ["extra", EXTRA, 500],
  ["searchers", SEARCHERS, 400],
  ["per-network", PER_NETWORK, 20],
  ["import", IMPORT, 5000],
  ["within", WITHIN_RUNS, 10],
] as const)
  if (!Number.isFinite(v) || v < 0 || v > max) throw new Error(`--${name} must be a number from 0 to ${max}`);

// Moved together by TEST_PORT_OFFSET (scripts/test/ports.ts), so that two checkouts can each run one.
const WEB_PORT = testPort(8798);
const ANVIL_PORT = testPort(18647);
const SOLANA_PORT = testPort(19002);
const ETH_PROXY_PORT = testPort(18648);
const SOL_PROXY_PORT = testPort(19003);
/** The second node of each chain with `--nodes 2` (the liar with `--liar`). */
const ETH_SECOND_PORT = testPort(18649);
const SOL_SECOND_PORT = testPort(19004);
/** The alerts' webhook: a receiver on loopback that notes each delivery. */
const WEBHOOK_PORT = testPort(19005);
/** Longer than the Worker's node timeouts (4 s) and viem's retry, so a held call is a timeout to it. */
const HOLD_MS = 9_000;
/** An episode still waiting this long after the actors' time is up stops waiting (its purchase is checked anyway). */
const EPISODE_GRACE_MS = 180_000;
const SECRETS = { KEY_ENCRYPTION_SECRET: "soak-key-encryption-secret-0123456789abcdef", SESSION_SECRET: "soak-session-secret-0123456789abcdef" };
const base = `http://127.0.0.1:${WEB_PORT}`;
const anvilUrl = `http://127.0.0.1:${ANVIL_PORT}`;
/** How often each kind starts an episode, relative to the others. */
const WEIGHTS: Record<ActorKind, number> = {
  honest: 4,
  silent: 1,
  underpayer: 1,
  overpayer: 1,
  canceller: 1,
  junk: 1,
  late: 1,
  hoarder: 2,
  watcher: 2,
  offerer: 1,
};

function pickKind(): ActorKind {
  const total = ACTOR_KINDS.reduce((s, k) => s + WEIGHTS[k], 0);
  let roll = Math.random() * total;
  for (const k of ACTOR_KINDS) {
    roll -= WEIGHTS[k];
    if (roll < 0) return k;
  }
  return "honest";
}

/** More listings, with fresh keys, through the same import as the demo data (sealed under the soak's secret). */
async function addListings(persistTo: string, perNetwork: number) {
  const rows = ["address,private_key,platform,pattern_type,pattern_matched"];
  for (let i = 0; i < perNetwork; i++) {
    const key = generatePrivateKey();
    const address = privateKeyToAccount(key).address;
    rows.push(`${address},${key},ethereum,prefix,${address.slice(2, 4)}`);
    const kp = Keypair.generate();
    const sol = kp.publicKey.toBase58();
    rows.push(`${sol},${base58.encode(kp.secretKey)},solana,prefix,${sol.slice(0, 2)}`);
  }
  const csv = path.join(persistTo, "soak-listings.csv");
  fs.writeFileSync(csv, `${rows.join("\n")}\n`);
  process.env.KEY_ENCRYPTION_SECRET = SECRETS.KEY_ENCRYPTION_SECRET;
  return withLocalEnv<Env, string>(persistTo, (env) => seedDemoListings(env, csv));
}

/**
 * A read of the stack's local D1 beside the running `wrangler dev`, which holds its SQLite file: a read that meets
 * one of its writes fails (SQLITE_BUSY, surfaced as a D1_ERROR "internal error"). Reads only, so tried again, a few
 * times, after a short wait.
 */
async function readDb<T>(persistTo: string, read: (db: LocalDb) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withLocalEnv<{ DB: LocalDb }, T>(persistTo, ({ DB }) => read(DB));
    } catch (err) {
      if (attempt >= 5 || !/D1_ERROR|SQLITE_BUSY|database is locked/i.test(String((err as Error)?.message ?? err))) throw err;
      await sleep(1_000 * attempt);
    }
  }
}

/** The reconciliation's goal under faults (docs/benchmarks.md#soak): this close to the head, caught up this recently. */
const LAG_GOAL = { ethereum: 20, solana: 150, seconds: 60 };

type Lag = { network: Network; behind: number | null; caughtUpSecondsAgo: number | null };

/** Where each network's reconciliation stands: blocks or slots read behind the node's head, seconds since it caught up. */
const reconcileLag =
  (solanaUrl: string) =>
  async (db: LocalDb): Promise<Lag[]> => {
    const rows = (
      await db
        .prepare("SELECT network, through_block AS throughBlock, caught_up_at AS caughtUpAt FROM reconcile_cursors ORDER BY network")
        .all<{ network: Network; throughBlock: number | null; caughtUpAt: number | null }>()
    ).results;
    const heads = { ethereum: Number(await rpc(anvilUrl, "eth_blockNumber")), solana: Number(await rpc(solanaUrl, "getSlot", [{ commitment: "confirmed" }])) };
    return rows.map((r) => ({
      network: r.network,
      behind: r.throughBlock === null ? null : heads[r.network] - r.throughBlock,
      caughtUpSecondsAgo: r.caughtUpAt === null ? null : Math.round((Date.now() - r.caughtUpAt) / 1000),
    }));
  };

const lagMet = (l: Lag) => l.behind !== null && l.behind <= LAG_GOAL[l.network] && l.caughtUpSecondsAgo !== null && l.caughtUpSecondsAgo <= LAG_GOAL.seconds;

const lagText = (l: Lag) =>
  `${l.network} ${l.behind === null ? "not started" : `${l.behind} ${l.network === "ethereum" ? "blocks" : "slots"} behind the head`}, ` +
  `caught up ${l.caughtUpSecondsAgo === null ? "never" : `${l.caughtUpSecondsAgo} s ago`} ` +
  `(goal ${LAG_GOAL[l.network]} ${l.network === "ethereum" ? "blocks" : "slots"}, ${LAG_GOAL.seconds} s: ${lagMet(l) ? "met" : "missed"})`;

async function dbFacts(db: LocalDb) {
  const purchases = (
    await db
      .prepare(
        "SELECT id, network, address_id AS addressId, status, buyer_wallet AS buyerWallet, tx_hash AS txHash, amount_base_units AS amountBaseUnits, expires_at AS expiresAt, failure_reason AS failureReason FROM transactions",
      )
      .all<PurchaseRow & { failureReason: string | null }>()
  ).results;
  const ledger = (
    await db
      .prepare(
        "SELECT network, tx_hash AS txHash, status, refund_status AS refundStatus, transaction_id AS transactionId, attention_reason AS attentionReason FROM escrow_transactions",
      )
      .all<LedgerRow & { attentionReason: string | null }>()
  ).results;
  const attention = (
    await db
      .prepare("SELECT network, tx_hash AS txHash, status, kind FROM payment_attention")
      .all<{ network: Network; txHash: string | null; status: string; kind: string }>()
  ).results;
  return { purchases, ledger, attention };
}

/** What the chain says of a paid purchase's hash, asked of the node itself (never through the fault proxy). */
async function chainPayment(network: Network, hash: string, solanaUrl: string, depth: number, platformSol: string): Promise<ChainPayment> {
  if (network === "ethereum") {
    const [tx, receipt, head] = await Promise.all([
      rpc(anvilUrl, "eth_getTransactionByHash", [hash]),
      rpc(anvilUrl, "eth_getTransactionReceipt", [hash]),
      rpc(anvilUrl, "eth_blockNumber"),
    ]);
    if (!tx || !receipt) return { found: false };
    return {
      found: true,
      success: receipt.status === "0x1",
      from: tx.from,
      to: tx.to ?? "",
      value: BigInt(tx.value),
      final: BigInt(head) - BigInt(receipt.blockNumber) + 1n >= BigInt(depth),
    };
  }
  const tx = await rpc(solanaUrl, "getTransaction", [hash, { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 }]);
  if (!tx) return { found: false };
  const keys: string[] = tx.transaction.message.accountKeys;
  const at = keys.indexOf(platformSol);
  const received = at === -1 ? 0n : BigInt(tx.meta.postBalances[at]) - BigInt(tx.meta.preBalances[at]);
  // Found at "confirmed": the local stack's SOL_COMMITMENT (wrangler.toml).
  return { found: true, success: tx.meta.err === null, from: keys[0]!, to: at === -1 ? keys[1]! : platformSol, value: received, final: true };
}

/** The import's rows: fresh keys, half Ethereum and half Solana, each claiming its first four characters. */
function importRows(count: number): BulkRow[] {
  const rows: BulkRow[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0) {
      const key = generatePrivateKey();
      const address = privateKeyToAccount(key).address;
      rows.push({ address, private_key: key, platform: "ethereum", pattern_type: "prefix", pattern_matched: address.slice(2, 6) });
    } else {
      const kp = Keypair.generate();
      const address = kp.publicKey.toBase58();
      rows.push({ address, private_key: base58.encode(kp.secretKey), platform: "solana", pattern_type: "prefix", pattern_matched: address.slice(0, 4) });
    }
  }
  return rows;
}

/** A receiver for the alerts' webhook on loopback: when each delivery came and the incident keys it carried. */
function startWebhook(port: number) {
  const deliveries: { at: number; keys: string[]; text: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      if (body.length < 1_000_000) body += c;
    });
    req.on("end", () => {
      try {
        const json = JSON.parse(body) as { text: string; incident: { key: string }; digest?: { keys: string[] } };
        deliveries.push({ at: Date.now(), keys: json.digest?.keys ?? [json.incident.key], text: json.text });
      } catch {
        /* not an alert: answered all the same */
      }
      res.writeHead(200).end("ok");
    });
  });
  return new Promise<{ url: string; deliveries: typeof deliveries; stop: () => void }>((resolve) =>
    server.listen(port, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${port}/hook`, deliveries, stop: () => server.close() })),
  );
}

const countBy = <T>(rows: T[], key: (r: T) => string) => {
  const out = new Map<string, number>();
  for (const r of rows) out.set(key(r), (out.get(key(r)) ?? 0) + 1);
  return [...out].sort((a, b) => a[0].localeCompare(b[0]));
};

async function main() {
  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "vanity-soak-"));
  const children: Pick<Child, "stop">[] = [];
  let ticking = true;
  const ticks = { ok: 0, failed: 0 };
  /** Every tick of the cron loop, for the check that each run is recorded. */
  const tickLog: Tick[] = [];
  /** The saved searches, and when each was first seen told of a match after the import started. */
  let searchers: Searcher[] = [];
  const seenTold = new Map<string, number>();
  let importWindow = null as { start: number; end: number | null } | null;
  let cron: Promise<void> | undefined;
  try {
    console.log("Starting a throw-away stack (build, migrate, seed, anvil, Solana RPC, fault proxies, wrangler dev)…");
    buildWeb(true);
    applyLocalMigrations(persistTo, true);
    seedLocal(persistTo, true, SECRETS);
    console.log(`  ${await addListings(persistTo, EXTRA)} (soak listings)`);
    children.push(startAnvil({ port: ANVIL_PORT, chainId: 31337, blockTime: 1, silent: true }));
    if (!(await waitUntil(rpcAnswers(anvilUrl), 30_000))) throw new Error("anvil did not start");
    // The platform's Solana account holds a balance from the start, as a live one does (a first transfer of a lamport
    // to an empty account is refused by the chain: below rent exemption).
    const solana = await startSolanaRpc({
      port: SOLANA_PORT,
      fund: [wranglerVars(fs.readFileSync(path.join(ROOT, "wrangler.toml"), "utf8")).PLATFORM_SOL_ADDRESS!],
    });
    children.push({ stop: () => void solana.stop() });
    const shares = { error: FAULT_SHARE / 3, timeout: FAULT_SHARE / 3, stale: FAULT_SHARE / 3 };
    const proxies: Record<string, FaultProxy> = {
      ethereum: await startFaultProxy({ target: anvilUrl, port: ETH_PROXY_PORT, shares, holdMs: HOLD_MS }),
      solana: await startFaultProxy({ target: solana.url, port: SOL_PROXY_PORT, shares, holdMs: HOLD_MS }),
    };
    const liar = values.liar ? new Liar() : null;
    let nodeVars: Record<string, string> = { ETH_RPC_URL: proxies.ethereum!.url, SOL_RPC_URL: proxies.solana!.url };
    if (NODES === 2) {
      const name = liar ? "liar" : "second";
      proxies[`ethereum ${name}`] = await startFaultProxy({ target: anvilUrl, port: ETH_SECOND_PORT, shares, holdMs: HOLD_MS, lie: liar?.lie("ethereum") });
      proxies[`solana ${name}`] = await startFaultProxy({ target: solana.url, port: SOL_SECOND_PORT, shares, holdMs: HOLD_MS, lie: liar?.lie("solana") });
      // The second node first in each list, and the single URL too: whatever still asks one node asks it.
      const [eth, sol] = [proxies[`ethereum ${name}`]!.url, proxies[`solana ${name}`]!.url];
      nodeVars = {
        ETH_RPC_URL: eth,
        ETH_RPC_URLS: `${eth},${proxies.ethereum!.url}`,
        ETH_RPC_QUORUM: "2",
        SOL_RPC_URL: sol,
        SOL_RPC_URLS: `${sol},${proxies.solana!.url}`,
        SOL_RPC_QUORUM: "2",
      };
    }
    for (const p of Object.values(proxies)) children.push({ stop: () => void p.stop() });
    for (const p of Object.values(proxies)) p.setEnabled(false);
    const webhook = await startWebhook(WEBHOOK_PORT);
    children.push({ stop: webhook.stop });
    const rows = importRows(IMPORT);
    children.push(startWorker({ port: WEB_PORT, persistTo, silent: true, vars: { ...nodeVars, ...SECRETS, ALERT_WEBHOOK_URL: webhook.url } }));
    if (!(await waitUntil(httpOk(`${base}/api/health`), 90_000))) throw new Error("wrangler dev did not become healthy");
    cron = (async () => {
      while (ticking) {
        // Before each run, what the runs so far have told the searchers (a run goes on after its tick is answered).
        if (importWindow) {
          const pending = searchers.filter((s) => s.searches.some((x) => !seenTold.has(x.name)));
          const now = Date.now();
          for (const s of pending) for (const name of await searchesTold(s).catch(() => new Set<string>())) if (!seenTold.has(name)) seenTold.set(name, now);
        }
        const sentAt = Date.now();
        const t = await tickScheduled(base).catch(() => ({ ok: false }));
        tickLog.push({ sentAt, answeredAt: Date.now(), ok: t.ok });
        ticks[t.ok ? "ok" : "failed"]++;
        // On its schedule, as a Cron Trigger fires, not a pause after the last run: a slow run under faults does
        // not stretch the time between runs (the reconciliation's lag is measured against this cadence).
        const until = sentAt + TICK_MS;
        while (ticking && Date.now() < until) await sleep(250);
      }
    })();

    const config = (await (await fetch(`${base}/api/config`)).json()) as {
      payments: { ethereum: { recipient: string; confirmations: number }; solana: { recipient: string } };
    };
    const depth = config.payments.ethereum.confirmations;
    const platform = { ethereum: config.payments.ethereum.recipient, solana: config.payments.solana.recipient };
    const listings = await activeListings(persistTo);
    const pool = new ListingPool(listings);
    const record = new Tally();
    const endAt = Date.now() + MINUTES * 60_000;
    // The dev admin: the listings' seller, who answers offers and runs the import (from a client network of its own).
    const adminApi = apiClient(
      base,
      () => "192.0.2.1",
      (p, st, json, text) => record.answer(p, st, json, text),
    );
    const seller = { api: adminApi, cookie: await signInEthereum(adminApi, DEV_ACCOUNTS.admin.privateKey) };
    const stage: Stage = { base, anvilUrl, solanaUrl: solana.url, platform, pool, record, giveUpAt: () => endAt + EPISODE_GRACE_MS, seller };
    console.log(
      `${listings.length} listings (${pool.left("ethereum")} Ethereum, ${pool.left("solana")} Solana); ${MINUTES} min, ${CONCURRENCY} actors at once, ` +
        `${Math.round(FAULT_SHARE * 100)}% of node calls failed (errors, ${HOLD_MS / 1000} s timeouts, stale heads), cron every ${TICK_MS / 1000} s; ` +
        `${NODES === 2 ? `two nodes per chain at quorum 2${liar ? ", the first a liar" : ""}` : "one node per chain"}.\n`,
    );
    for (const p of Object.values(proxies)) p.setEnabled(FAULT_SHARE > 0);

    let episodes = 0;
    const crashes = new Map<string, number>();
    const actor = async (n: number) => {
      while (Date.now() < endAt) {
        const kind = pickKind();
        const network: Network = (n + episodes) % 2 === 0 ? "ethereum" : "solana";
        episodes++;
        try {
          record.outcome(kind, network, await runEpisode(stage, kind, network));
        } catch (err) {
          const what = err instanceof SignInRefused ? `sign-in ${err.status}` : `error: ${(err as Error).message.slice(0, 80)}`;
          record.outcome(kind, network, what);
          if (!(err instanceof SignInRefused)) crashes.set(what, (crashes.get(what) ?? 0) + 1);
        }
      }
    };
    const progress = setInterval(() => process.stdout.write(`\r  ${episodes} episodes, ${record.answers} answers, ${record.serverErrors.length} 5xx…`), 5000);
    const admin = (wranglerVars(fs.readFileSync(path.join(ROOT, "wrangler.toml"), "utf8")).ADMIN_WALLETS ?? "").split(",").find((a) => a.startsWith("0x"));
    const attacker = liar && admin ? runLiarAttacks(stage, liar, admin, endAt) : Promise.resolve();
    // No read of the local D1 while the actors run: a second process on its SQLite file makes the Worker's writes
    // fail (SQLITE_BUSY, answered 500), which a run that sampled the lag every minute showed.
    // The searchers save theirs while the first actors run; halfway, the import, and a late payment while it runs.
    const saved = saveSearches(stage, SEARCHERS, PER_NETWORK).then((s) => (searchers = s));
    const imported: { id: number; network: Network }[] = [];
    let late = null as Awaited<ReturnType<typeof latePayment>> | null;
    const importer = (async () => {
      await saved;
      let go = () => {};
      const lateResult = latePayment(stage, new Promise<void>((r) => (go = r))).catch((err: Error) => ({ refused: err.message }));
      while (Date.now() < endAt - (MINUTES * 60_000) / 2) await sleep(500);
      importWindow = { start: Date.now(), end: null };
      go();
      for (let at = 0; at < rows.length; at += 500) {
        const res = await adminApi("/api/admin/addresses/bulk", { body: { rows: rows.slice(at, at + 500) }, cookie: seller.cookie });
        record.did(`import chunk ${res.status}`);
        for (const r of (res.json as BulkUploadResponse | null)?.results ?? [])
          if (r.status === "success") imported.push({ id: r.id, network: r.currency === "ETH" ? "ethereum" : "solana" });
          else record.did(`import row refused: ${r.reason}`);
      }
      importWindow.end = Date.now();
      late = await lateResult;
    })();
    await Promise.all([...Array.from({ length: CONCURRENCY }, (_, n) => actor(n)), attacker, importer]);
    clearInterval(progress);
    process.stdout.write("\n");

    // Settling: faults off, the cron job runs until every transfer sent is accounted for (or the time runs out).
    for (const p of Object.values(proxies)) p.setEnabled(false);
    if (liar) liar.lying = false;
    const lagAtStop = await readDb(persistTo, reconcileLag(solana.url));
    const settleStart = Date.now();
    const settleUntil = settleStart + SETTLE_MS;
    let settled = false;
    while (!settled && Date.now() < settleUntil) {
      await sleep(TICK_MS);
      const { purchases, ledger, attention } = await readDb(persistTo, dbFacts);
      // A purchase reported with the liar's forged payment stays pending by design (a quorum never sees it; it fails
      // at its deadline, past the soak's end): not waited on.
      const forged = new Set(liar?.forgedPurchases.map((f) => f.id));
      const pending = purchases.some((p) => p.status === "pending" && !forged.has(p.id));
      const unaccounted = unaccountedTransfers({ purchases, ledger, attention, sent: record.sent });
      settled = unaccounted.length === 0 && !pending;
      process.stdout.write(`\r  settling: ${unaccounted.length} transfers not yet accounted for, ${pending ? "purchases pending" : "none pending"}   `);
    }
    process.stdout.write("\n");
    const settleMs = Date.now() - settleStart;
    ticking = false;
    await cron;
    // The last run goes on after its tick was answered: wait until the health page shows it finished.
    const lastTick = tickLog.at(-1)?.sentAt ?? 0;
    const lastFinished = async () => {
      const health = await adminApi("/api/health", { cookie: seller.cookie });
      const run = health.json?.operations?.lastCronRun as { startedAt: string } | null | undefined;
      return !!run && Date.parse(run.startedAt) >= lastTick - 1_000;
    };
    if (!(await waitUntil(lastFinished, 120_000, 2_000))) console.log("the last cron run did not finish within 120 s");
    children.pop()?.stop(); // wrangler dev: the database is read alone
    await sleep(1000);

    const { purchases, ledger, attention } = await readDb(persistTo, dbFacts);
    const chain = new Map<string, ChainPayment>();
    for (const p of purchases.filter((p) => (p.status === "completed" || p.status === "verified") && p.txHash))
      chain.set(
        `${p.network}:${p.network === "ethereum" ? p.txHash!.toLowerCase() : p.txHash}`,
        await chainPayment(p.network, p.txHash!, solana.url, depth, platform.solana),
      );
    const facts: SoakFacts = {
      now: Date.now(),
      platform,
      purchases,
      ledger,
      attention,
      chain,
      sent: record.sent,
      keysRevealed: record.keys,
      answers: record.answers,
      serverErrors: record.serverErrors,
      cronSlackMs: 2 * TICK_MS + 60_000,
    };
    const verdicts = checkInvariants(facts);

    // The collectors' facts: the offers, what each saved search was told, the cron's record, the late payment's alert.
    const collectors = await readDb(persistTo, async (db) => ({
      offers: (
        await db
          .prepare(
            "SELECT id, address_id AS addressId, status, end_reason AS endReason, transaction_id AS transactionId, created_at AS createdAt, updated_at AS updatedAt FROM offers",
          )
          .all<OfferRow>()
      ).results,
      told: (
        await db
          .prepare(
            "SELECT subject, sum(json_extract(data, '$.count')) AS told, max(created_at) AS lastAt FROM notifications WHERE kind = 'saved_search_match' GROUP BY subject",
          )
          .all<{ subject: string; told: number; lastAt: number }>()
      ).results,
      runs: (
        await db
          .prepare(
            "SELECT id, started_at AS startedAt, finished_at AS finishedAt, failed_tasks AS failedTasks, errors, running_task AS runningTask FROM cron_runs",
          )
          .all<Omit<CronRunRow, "failedTasks" | "errors"> & { failedTasks: string; errors: string }>()
      ).results.map((r) => ({ ...r, failedTasks: JSON.parse(r.failedTasks) as string[], errors: JSON.parse(r.errors) as string[] })),
      // The hash is the node's own answer, checked as one before it is put in the query (this reader binds nothing).
      lateRows:
        late && "hash" in late && /^0x[0-9a-fA-F]{64}$/.test(late.hash)
          ? (
              await db
                .prepare(
                  `SELECT 'escrow:' || id AS key FROM escrow_transactions WHERE lower(tx_hash) = lower('${late.hash}') UNION ALL SELECT 'attention:' || id FROM payment_attention WHERE lower(tx_hash) = lower('${late.hash}')`,
                )
                .all<{ key: string }>()
            ).results.map((r) => r.key)
          : [],
    }));
    const toldBySearch = new Map(collectors.told.map((t) => [t.subject, Number(t.told)]));
    // A notification is dated by the start of the run that wrote it, and each run that adds to it dates it anew: the
    // newest one is the run that told the search of its last match.
    const lastToldAt = new Map(collectors.told.map((t) => [t.subject, Number(t.lastAt)]));
    const importEnd = importWindow?.end ?? Date.now();
    const searches: SearchTold[] = searchers.flatMap((s) =>
      s.searches.map((x) => ({
        searchId: x.id,
        name: x.name,
        told: toldBySearch.get(`search:${x.id}`) ?? 0,
        matching: imported.filter((l) => x.network === null || l.network === x.network).length,
      })),
    );
    const searchesNotified: ToTell[] = importWindow
      ? searchers.flatMap((s) =>
          s.searches.map((x) => ({ what: x.name, at: Math.max(importEnd, x.savedAt), seenAt: lastToldAt.get(`search:${x.id}`) ?? null })),
        )
      : [];
    const lateResult = late;
    const lateAlert: ToTell | null =
      lateResult && "hash" in lateResult
        ? {
            what: `the late payment ${lateResult.hash}`,
            at: lateResult.landedAt,
            seenAt: webhook.deliveries.find((d) => d.keys.some((k) => collectors.lateRows.includes(k)))?.at ?? null,
          }
        : null;
    const collectorFacts = {
      offers: collectors.offers,
      purchases,
      searches,
      searchesNotified,
      lateAlert,
      ticks: tickLog,
      runs: collectors.runs,
      withinRuns: WITHIN_RUNS,
    };
    verdicts.push(...checkCollectorInvariants(collectorFacts));
    if (liar) verdicts.push(...(await readDb(persistTo, (db) => liarVerdicts(liar, db))));
    const disagreements = liar
      ? await readDb(
          persistTo,
          async (db) =>
            (
              await db
                .prepare("SELECT network, node, times FROM node_disagreements ORDER BY network, node")
                .all<{ network: string; node: string; times: number }>()
            ).results,
        )
      : [];

    console.log(`\n| actor | network | outcome | episodes |\n|---|---|---|---|`);
    for (const [k, n] of [...record.outcomes].sort((a, b) => a[0].localeCompare(b[0]))) console.log(`| ${k.split("\t").join(" | ")} | ${n} |`);
    console.log(`\n| node | calls forwarded | JSON-RPC errors | timeouts | stale heads |\n|---|---|---|---|---|`);
    for (const [name, p] of Object.entries(proxies))
      console.log(`| ${name} | ${p.counts.forwarded} | ${p.counts.error} | ${p.counts.timeout} | ${p.counts.stale} |`);
    if (liar) {
      console.log(`\nWhat the liar (${[proxies["ethereum liar"]!.url, proxies["solana liar"]!.url].join(", ")}) tried and what it got:\n`);
      for (const line of liarTable(liar)) console.log(line);
      console.log(`node disagreements recorded: ${disagreements.map((d) => `${d.network} ${d.node} × ${d.times}`).join(", ") || "none"}`);
    }
    console.log(
      `\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; actors ran ${MINUTES} min, settled in ${Math.round(settleMs / 1000)} s\n` +
        `cron runs: ${ticks.ok} ok, ${ticks.failed} failed; API answers: ${record.answers}; transfers sent to the platform: ${record.sent.length}; keys handed out: ${record.keys.length}`,
    );
    console.log(
      `purchases: ${countBy(purchases, (p) => `${p.status}${p.failureReason ? ` (${p.failureReason})` : ""}`)
        .map(([k, n]) => `${n} ${k}`)
        .join(", ")}`,
    );
    console.log(
      `ledger: ${countBy(ledger, (l) => `${l.status}${l.attentionReason ? ` ${l.attentionReason}` : ""}${l.refundStatus ? ` ${l.refundStatus}` : ""}`)
        .map(([k, n]) => `${n} ${k}`)
        .join(", ")}`,
    );
    console.log(
      `differences: ${
        countBy(attention, (a) => `${a.kind} ${a.status}`)
          .map(([k, n]) => `${n} ${k}`)
          .join(", ") || "none"
      }`,
    );
    const nodeBusy = record.serverErrors.filter(nodeUnavailable);
    const disputed = nodeBusy.filter((e) => /do not agree/i.test(e.message)).length;
    console.log(
      `503 (the documented retry answers): ${nodeBusy.length - disputed} "node is not answering", ${disputed} "nodes do not agree"; other 5xx: ${record.serverErrors.length - nodeBusy.length}`,
    );
    console.log(`reconciliation when the faults stopped (the end of the actors' ${MINUTES} min): ${lagAtStop.map(lagText).join("; ")}`);
    const actorsStart = endAt - MINUTES * 60_000;
    console.log(
      `listings ran out: ${(["ethereum", "solana"] as const)
        .map((n) => `${n} ${pool.dryAt[n] ? `after ${Math.round((pool.dryAt[n]! - actorsStart) / 1000)} s` : "never"}`)
        .join(", ")} (of the actors' ${MINUTES * 60} s; from then on only returned and expired reservations are left to buy)`,
    );
    for (const network of ["ethereum", "solana"] as const) {
      const t = [...record.foundAfter[network]].sort((a, b) => a - b);
      if (t.length)
        console.log(
          `unreported ${network} payments settled by the cron job after: median ${Math.round(t[Math.floor(t.length / 2)]! / 1000)} s, max ${Math.round(t.at(-1)! / 1000)} s (${t.length})`,
        );
    }
    if (crashes.size) console.log(`actor errors (not API answers): ${[...crashes].map(([k, n]) => `${n} x ${k}`).join("; ")}`);
    const runStarts = collectors.runs.map((r) => r.startedAt);
    console.log(`\n| collectors' action | answered | times |\n|---|---|---|`);
    for (const [k, n] of [...record.collected].sort((a, b) => a[0].localeCompare(b[0]))) {
      const m = /^(.*) (\d{3})$/.exec(k);
      console.log(`| ${m ? m[1] : k} | ${m ? m[2] : ""} | ${n} |`);
    }
    const offerStates = countBy(collectors.offers, (o) => `${o.status}${o.endReason ? ` (${o.endReason})` : ""}`);
    console.log(`offers at the end: ${offerStates.map(([k, n]) => `${n} ${k}`).join(", ") || "none"}`);
    const networksUsed = Math.ceil(searchers.length / PER_NETWORK);
    console.log(
      `saved searches: ${searches.length} by ${searchers.length} wallets on ${networksUsed} client networks (${searches.filter((s) => s.name.startsWith("Anything")).length} match-all)`,
    );
    if (importWindow)
      console.log(
        `import: ${imported.length} of ${rows.length} listings stored in ${((importEnd - importWindow.start) / 1000).toFixed(1)} s (POST /api/admin/addresses/bulk, 500 rows a request), ` +
          `${Math.round((importWindow.start - (endAt - MINUTES * 60_000)) / 1000)} s into the actors' run`,
      );
    const delays = countBy(searchesNotified, (a) => {
      const n = runsToTell(a, runStarts);
      return n === null ? "never" : `${n} run${n === 1 ? "" : "s"}`;
    });
    console.log(
      `saved searches told of all their matches in the import by: ${delays.map(([k, n]) => `${k}: ${n}`).join(", ") || "none"} (the telling run among the runs begun after the import ended)`,
    );
    const bell = countBy(searchesNotified, (a) => {
      const seen = seenTold.get(a.what);
      const n = seen === undefined ? null : runsToTell({ ...a, seenAt: seen }, runStarts);
      return n === null ? "never" : `${n} run${n === 1 ? "" : "s"}`;
    });
    console.log(
      `  read on the owner's notifications before a tick, after: ${bell.map(([k, n]) => `${k}: ${n}`).join(", ")} (a run goes on after its tick is answered)`,
    );
    if (lateResult && "hash" in lateResult) {
      const n = lateAlert ? runsToTell(lateAlert, runStarts) : null;
      const landed = importWindow ? Math.round((lateResult.landedAt - importWindow.start) / 1000) : 0;
      console.log(
        `late payment ${lateResult.hash} landed ${landed} s into the import (which took ${((importEnd - (importWindow?.start ?? 0)) / 1000).toFixed(1)} s); ` +
          `alerted ${n === null ? "never" : `after ${n} cron run${n === 1 ? "" : "s"}, ${Math.round((lateAlert!.seenAt! - lateResult.landedAt) / 1000)} s after it landed`}`,
      );
    } else console.log(`late payment during the import: not made (${lateResult?.refused ?? "the import did not run"})`);
    console.log(`alerts delivered: ${webhook.deliveries.length} (${webhook.deliveries.reduce((s, d) => s + d.keys.length, 0)} incidents)`);
    const inRun = collectors.runs.filter((r) => r.startedAt >= (tickLog[0]?.sentAt ?? 0) - 1_000);
    const failedTasks = countBy(
      inRun.flatMap((r) => r.failedTasks),
      (t) => t,
    );
    console.log(
      `cron runs recorded: ${inRun.length} for ${tickLog.length} ticks; tasks failed: ${failedTasks.map(([t, n]) => `${t} in ${n} run${n === 1 ? "" : "s"}`).join(", ") || "none"}`,
    );
    console.log(`\n| invariant | checked | verdict |\n|---|---|---|`);
    for (const v of verdicts) console.log(`| ${v.name} | ${v.checked} | ${v.ok ? "held" : `VIOLATED (${v.violations.length})`} |`);
    for (const v of verdicts.filter((v) => !v.ok)) for (const line of v.violations.slice(0, 20)) console.log(`  ✗ ${v.name}: ${line}`);
    if (!settled) console.log(`\nnot settled within ${SETTLE_MS / 1000} s after the actors stopped`);
    if (verdicts.some((v) => !v.ok)) process.exitCode = 1;
  } finally {
    ticking = false;
    await cron?.catch(() => undefined);
    for (const child of children.reverse()) child.stop();
    await sleep(500);
    fs.rmSync(persistTo, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
