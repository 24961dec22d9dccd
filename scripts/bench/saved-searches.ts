// npm run bench:saved-searches: the cron job's collectors task with 100,000 saved searches and 1,000 new
// listings (docs/collectors.md#how-matching-stays-cheap). In a throw-away local D1 (workerd's SQLite, as wrangler
// dev runs it): generated users and saved searches stored as the Worker stores them (each canonical query once with
// its validated criteria and bucket keys, each wallet's saved search a subscription to it), then new listings
// inserted as any writer inserts them (the triggers record one event each). Each iteration puts the same events
// back and times runCollectorJob, the code the cron runs, inside workerd as the cron runs it
// (scripts/bench/collector-worker.ts under wrangler dev, timed from here around one request): read the events, find
// each listing's candidate queries through the keys, check them with the query's predicate, tell the subscribers a
// chunk at a time. Prints the time per run, what it checked, and what checking every search against every listing
// would have meant; then the job's peak heap, measured in this Node process (below: workerd gives no heap figure).
//
//   npm run bench:saved-searches -- --match-all 10000   # 10,000 wallets on 50 client networks, each saving the
//                                                       # search with no filters (every listing matches it)
//   BENCH_SEARCHES=10000 npm run bench:saved-searches   # fewer saved searches
//   BENCH_LISTINGS=100 BENCH_ITERATIONS=20
//   BENCH_KEEP_DB=/tmp/x npm run bench:saved-searches    # keep the loaded database; a later run with the same
//                                                         # setting (and the same counts) skips the load
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getPlatformProxy } from "wrangler";
import { type CollectorReport, runCollectorJob } from "../../worker/collectors/notification-job.ts";
import * as v from "valibot";
import { canonicalFilters, criteriaOf, storedCriteria } from "../../worker/collectors/saved-searches.ts";
import { type SearchKey, searchKeys } from "../../worker/collectors/search-keys.ts";
import { compileMatcher, plannedQuery, prepareListing } from "../../worker/listings/search-match.ts";
import { searchQuerySchema } from "../../worker/listings/search-params.ts";
import { createDb } from "../../worker/db/database.ts";
import { applyLocalMigrations, type Child, freePort, ROOT, startChild, waitUntil } from "../stack.ts";
import { type GeneratedSearch, generateListings, generateSearches } from "./saved-search-data.ts";
import { percentile } from "./search-mix.ts";
import { benchWranglerConfig } from "./bench-wrangler-config.ts";
import { currencyOf } from "../../schema/network";
import type { ListingStatus } from "../../schema/listing-lifecycle";

const matchAllAt = process.argv.indexOf("--match-all");
/** Wallets that each save the search with no filters, spread over MATCH_ALL_NETWORKS client networks; 0: the ordinary mix. */
const MATCH_ALL = matchAllAt === -1 ? 0 : Number(process.argv[matchAllAt + 1]);
if (!Number.isSafeInteger(MATCH_ALL) || MATCH_ALL < 0) throw new Error("--match-all takes a count of wallets");
/** Each client network may keep 200 saved searches (SAVED_SEARCH_LIMITS.perClient): 10,000 need 50. */
const MATCH_ALL_NETWORKS = 50;
const SEARCHES = MATCH_ALL || Number(process.env.BENCH_SEARCHES ?? 100_000);
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 1_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 10);
const WARMUP = 2;
/** Saved searches per user: the per-wallet bound is 20. */
const PER_USER = 17;
/** The cron runs every minute; one run's collectors task should take a small part of it. */
const GOAL_P95_MS = 2_000;
/** A Worker is stopped past 128 MB; the job should keep well under it, whatever wallets save. */
const GOAL_HEAP_MB = 32;
/** Rows per bulk INSERT (one JSON parameter each). */
const CHUNK = 2_000;
const KEEP_DB = process.env.BENCH_KEEP_DB ? path.resolve(process.env.BENCH_KEEP_DB) : null;

/** The searches to store: the ordinary mix, or MATCH_ALL wallets each saving the search with no filters. */
function searchesToStore(first: number, users: number): (GeneratedSearch & { clientKey: string })[] {
  if (MATCH_ALL === 0) return generateSearches(SEARCHES, first, users, 20261128).map((s) => ({ ...s, clientKey: "bench" }));
  const { query } = canonicalFilters({});
  const parsed = v.parse(searchQuerySchema, {});
  const criteria = storedCriteria(parsed);
  const keys = searchKeys(plannedQuery(parsed)!);
  return Array.from({ length: MATCH_ALL }, (_, i) => ({
    userId: first + i,
    name: "everything",
    query,
    criteria,
    keys,
    clientKey: `bench-net-${i % MATCH_ALL_NETWORKS}`,
  }));
}

async function seed(db: D1Database, now: number) {
  const users = MATCH_ALL || Math.ceil(SEARCHES / PER_USER);
  await db
    .prepare(
      `WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?1)
       INSERT INTO users (username, wallet_address, network) SELECT 'bench_' || n, '0xbench' || n, 'ethereum' FROM k`,
    )
    .bind(users)
    .run();
  const first = (await db.prepare("SELECT min(id) AS id FROM users WHERE username LIKE 'bench_%'").first<{ id: number }>())!.id;
  const searches = searchesToStore(first, users);
  // Each canonical query once, with its keys (saved_queries, saved_query_keys), as saveSearch stores it.
  const queryIds = new Map<string, number>();
  const queries: { id: number; query: string; criteria: string; keys: SearchKey[] }[] = [];
  for (const s of searches) {
    if (queryIds.has(s.query)) continue;
    queryIds.set(s.query, queries.length + 1);
    queries.push({ id: queries.length + 1, query: s.query, criteria: s.criteria, keys: s.keys });
  }
  for (let i = 0; i < queries.length; i += CHUNK) {
    const chunk = queries.slice(i, i + CHUNK);
    await db.batch([
      db
        .prepare(
          `INSERT INTO saved_queries (id, query, criteria)
           SELECT json_extract(value, '$.id'), json_extract(value, '$.query'), json_extract(value, '$.criteria') FROM json_each(?1)`,
        )
        .bind(JSON.stringify(chunk.map(({ id, query, criteria }) => ({ id, query, criteria })))),
      db
        .prepare(
          `INSERT INTO saved_query_keys (key, query_id, exact)
           SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?1)`,
        )
        .bind(JSON.stringify(chunk.flatMap((q) => q.keys.map((k) => [k.key, q.id, k.exact ? 1 : 0])))),
    ]);
  }
  for (let i = 0; i < searches.length; i += CHUNK) {
    const chunk = searches.slice(i, i + CHUNK).map((s, j) => ({ ...s, id: i + j + 1 }));
    await db
      .prepare(
        `INSERT INTO saved_searches (id, user_id, name, query, query_id, client_key, created_at)
         SELECT json_extract(value, '$.id'), json_extract(value, '$.userId'), json_extract(value, '$.name'), json_extract(value, '$.query'),
                json_extract(value, '$.queryId'), json_extract(value, '$.clientKey'), ?2 FROM json_each(?1)`,
      )
      .bind(JSON.stringify(chunk.map(({ id, userId, name, query, clientKey }) => ({ id, userId, name, query, queryId: queryIds.get(query), clientKey }))), now)
      .run();
  }
  const listings = generateListings(LISTINGS, 20261129);
  for (let i = 0; i < listings.length; i += 500) {
    await db.batch(
      listings.slice(i, i + 500).map((l) =>
        db
          .prepare(
            `INSERT INTO addresses (address, network, price, price_units, currency, category, pattern, pattern_length, status, is_listed, created_at)
             VALUES (?, ?, ?, ?, ?, ?, 'custom', ?, 'active', 1, ?)`,
          )
          .bind(l.address, l.network, l.price, Math.round(Number(l.price) * 1e8), currencyOf(l.network), l.category, l.patternLength, now),
      ),
    );
  }
  // The events the triggers wrote, kept to be put back before every run (the job deletes what it has read).
  await db.batch([db.prepare("CREATE TABLE bench_events AS SELECT * FROM collector_events"), db.prepare("ANALYZE")]);
  return { users, keys: queries.reduce((n, q) => n + q.keys.length, 0), queries: queries.length };
}

/** Every search against every listing in code, for `sample` listings: what the index saves. */
async function naiveSample(db: D1Database, sample: number): Promise<{ ms: number; pairs: number }> {
  const t0 = performance.now();
  const { results: searches } = await db
    .prepare("SELECT q.criteria FROM saved_searches s JOIN saved_queries q ON q.id = s.query_id")
    .all<{ criteria: string }>();
  const matchers = searches.map((s) => {
    const planned = plannedQuery(criteriaOf(s.criteria));
    return planned ? compileMatcher(planned) : () => false;
  });
  const { results: listings } = await db
    .prepare("SELECT address, network, category, pattern_length AS patternLength, status, is_listed AS isListed FROM addresses LIMIT ?1")
    .bind(sample)
    .all<{ address: string; network: "ethereum" | "solana"; category: string; patternLength: number; status: ListingStatus; isListed: number }>();
  let pairs = 0;
  for (const l of listings) {
    const listing = prepareListing({ ...l, isListed: Boolean(l.isListed) });
    for (const matches of matchers) {
      pairs++;
      matches(listing);
    }
  }
  return { ms: performance.now() - t0, pairs };
}

/** wrangler dev running the bench Worker on `dir`'s database, stopped (and waited for) by `stop`. */
async function startBenchWorker(dir: string): Promise<{ base: string; stop: () => Promise<void> }> {
  const config = benchWranglerConfig(dir, "vanity-market-bench-saved-searches", "scripts/bench/collector-worker.ts");
  const port = await freePort(8797);
  const child: Child = startChild(
    "wrangler",
    path.join(ROOT, "node_modules", ".bin", "wrangler"),
    ["dev", "--config", config, "--port", String(port), "--ip", "127.0.0.1", "--persist-to", dir, "--show-interactive-dev-session=false"],
    { silent: true, onExit: (code) => code !== null && code !== 0 && console.error(`wrangler dev exited (${code})`) },
  );
  const stop = async () => {
    if (child.process.exitCode !== null || child.process.signalCode !== null) return;
    const exited = new Promise((resolve) => child.process.once("exit", resolve));
    child.stop();
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  };
  const base = `http://127.0.0.1:${port}`;
  if (!(await waitUntil(async () => (await fetch(`${base}/`, { method: "POST" })).status === 404, 120_000, 500))) {
    await stop();
    throw new Error("wrangler dev did not answer within 2 minutes");
  }
  return { base, stop };
}

/**
 * The job's peak heap, in bytes above the heap after a full collection before the run. workerd gives a Worker no
 * heap figure (no process.memoryUsage; its V8 inspector, behind wrangler dev's proxy, never took this script's
 * connection), so the same runCollectorJob runs here in Node, on the same workerd D1 through the platform proxy,
 * and V8's used heap is read every millisecond while it runs and once after. The timer fires between the job's
 * turns (while it awaits D1), so what stays reachable across an await is seen; a short-lived peak inside one
 * synchronous stretch may not be. `collect`: a full collection before each reading (the live heap only), else the
 * heap as V8 holds it, garbage not yet collected included (and the proxy's own copies of every row it passes).
 */
async function peakHeap(d1: D1Database, count: number, now: number, collect: boolean): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc (npm run bench:saved-searches does)");
  await resetEvents(d1, count);
  gc();
  const idle = process.memoryUsage().heapUsed;
  let peak = idle;
  const read = () => {
    if (collect) gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  const timer = setInterval(read, 1);
  try {
    const report = await runCollectorJob(createDb(d1), now);
    read();
    if (report.events !== count) throw new Error(`the run read ${report.events} events, expected ${count}`);
  } finally {
    clearInterval(timer);
  }
  return peak - idle;
}

/** The first `count` recorded events put back, the notifications cleared: as collector-worker.ts /reset does. */
async function resetEvents(d1: D1Database, count: number) {
  await d1.batch([
    d1.prepare("DELETE FROM notifications"),
    d1.prepare("DELETE FROM collector_events"),
    d1.prepare("UPDATE saved_searches SET last_match_at = NULL"),
    d1.prepare("INSERT INTO collector_events SELECT * FROM bench_events ORDER BY id LIMIT ?1").bind(count),
    d1.prepare(
      "UPDATE collector_cursor SET last_event_id = (SELECT min(id) - 1 FROM bench_events), batch_to = NULL, match_query = NULL, match_search = NULL WHERE id = 1",
    ),
  ]);
}

async function post<T>(url: string): Promise<T | null> {
  const res = await fetch(url, { method: "POST" });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res.status === 204 ? null : ((await res.json()) as T);
}

async function main() {
  const dir = KEEP_DB ?? fs.mkdtempSync(path.join(os.tmpdir(), "vanity-bench-saved-searches-"));
  fs.mkdirSync(dir, { recursive: true });
  const marker = path.join(dir, `saved-searches-${MATCH_ALL ? "match-all" : "mix"}-${SEARCHES}-${LISTINGS}.json`);
  const configPath = benchWranglerConfig(dir, "vanity-market-bench-saved-searches");
  const loaded = fs.existsSync(marker) ? (JSON.parse(fs.readFileSync(marker, "utf8")) as { now: number; users: number; keys: number; queries: number }) : null;
  const now = loaded?.now ?? Date.now();
  try {
    applyLocalMigrations(dir, true);
    // The load and the naive baseline through the platform proxy (Node code on workerd's D1); then the proxy is
    // closed before wrangler dev opens the same database for the timed runs.
    const proxy = await getPlatformProxy<{ DB: D1Database }>({ configPath, persist: { path: `${dir}/v3` } });
    let naive: { ms: number; pairs: number };
    const heap = { used: 0, live: 0 };
    const sample = Math.min(50, LISTINGS);
    try {
      const d1 = proxy.env.DB;
      const loadStarted = performance.now();
      const { users, keys, queries } = loaded ?? (await seed(d1, now));
      if (!loaded) fs.writeFileSync(marker, JSON.stringify({ now, users, keys, queries }));
      console.log(
        `bench:saved-searches: ${SEARCHES.toLocaleString("en-US")} saved searches${MATCH_ALL ? `, each with no filters, on ${MATCH_ALL_NETWORKS} client networks` : ""} ` +
          `(${queries.toLocaleString("en-US")} distinct queries, ${keys.toLocaleString("en-US")} bucket keys) of ${users.toLocaleString("en-US")} wallets, ` +
          `${LISTINGS.toLocaleString("en-US")} new listings; loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
      );
      naive = await naiveSample(d1, sample);
      // The heap, worst of three runs each way.
      for (let i = 0; i < 3; i++) {
        heap.used = Math.max(heap.used, await peakHeap(d1, LISTINGS, now, false));
        heap.live = Math.max(heap.live, await peakHeap(d1, LISTINGS, now, true));
      }
    } finally {
      await proxy.dispose();
    }

    const worker = await startBenchWorker(dir);
    let worst = 0;
    try {
      const head = `${"new listings".padEnd(14)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"key hits".padStart(9)} ${"searches read".padStart(14)} ${"checked".padStart(10)} ${"matched".padStart(9)} ${"notices".padStart(8)}`;
      console.log(
        `\nrun inside workerd (wrangler dev), timed around one request; load average ${os.loadavg()[0].toFixed(1)}\n${head}\n${"-".repeat(head.length)}`,
      );
      for (const count of [...new Set([Math.min(100, LISTINGS), LISTINGS])]) {
        const ms: number[] = [];
        let last: { report: CollectorReport; notices: number } | null = null;
        for (let i = 0; i < WARMUP + ITERATIONS; i++) {
          await post(`${worker.base}/reset?count=${count}`);
          const t0 = performance.now();
          last = await post<{ report: CollectorReport; notices: number }>(`${worker.base}/run?now=${now}`);
          if (i >= WARMUP) ms.push(performance.now() - t0);
        }
        const { report, notices } = last!;
        if (report.events !== count) throw new Error(`the run read ${report.events} events, expected ${count}`);
        const p95 = percentile(ms, 95);
        if (count === LISTINGS) worst = p95;
        console.log(
          `${count.toLocaleString("en-US").padEnd(14)} ${percentile(ms, 50).toFixed(1).padStart(8)} ${p95.toFixed(1).padStart(8)} ${report.keyHits.toLocaleString("en-US").padStart(9)} ${report.searchesRead.toLocaleString("en-US").padStart(14)} ${report.candidatesChecked.toLocaleString("en-US").padStart(10)} ${report.savedSearchMatches.toLocaleString("en-US").padStart(9)} ${notices.toLocaleString("en-US").padStart(8)}`,
        );
      }
    } finally {
      await worker.stop();
    }
    const perListing = naive.ms / sample;
    console.log(
      `\nnaive, every search against every listing in code: ${naive.pairs.toLocaleString("en-US")} pairs for ${sample} listings in ${naive.ms.toFixed(0)} ms ` +
        `(${perListing.toFixed(1)} ms a listing; ${LISTINGS.toLocaleString("en-US")} listings ≈ ${((perListing * LISTINGS) / 1000).toFixed(1)} s, ` +
        `${(SEARCHES * LISTINGS).toLocaleString("en-US")} pairs)`,
    );
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    console.log(
      `\npeak heap of the job (runCollectorJob in this Node process on the same D1, above the heap before the run, worst of 3 runs of ` +
        `${LISTINGS.toLocaleString("en-US")} new listings): ${mb(heap.used)} as held, garbage included; ${mb(heap.live)} live (collected before each reading)`,
    );
    const heapMb = heap.used / 1024 / 1024;
    console.log(
      `\nrun with ${LISTINGS.toLocaleString("en-US")} new listings p95 ${worst.toFixed(1)} ms (goal: under ${GOAL_P95_MS} ms): ${worst <= GOAL_P95_MS ? "met" : "NOT MET"}; ` +
        `peak heap ${heapMb.toFixed(1)} MB (goal: at most ${GOAL_HEAP_MB} MB): ${heapMb <= GOAL_HEAP_MB ? "met" : "NOT MET"}`,
    );
  } finally {
    if (!KEEP_DB) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
