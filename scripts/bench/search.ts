// npm run bench:search: a million generated listings in a throw-away local D1, the search endpoint measured
// through `wrangler dev` over HTTP for a fixed query mix, and the same mix against a naive implementation in
// the same run. Prints p50/p95 per query and overall, and the naive/indexed ratio; then short and odd queries
// and the window's deepest pages the same way; then the mix under load from 1, 8 and 32 concurrent clients,
// with and without the edge cache (requests/s, p50, p95, p99). Everything it starts (the loader's workerd,
// wrangler dev) is stopped and its temp directory removed, also on Ctrl-C or failure.
//
//   BENCH_ROWS=100000 npm run bench:search   # a smaller run
//   BENCH_ITERATIONS=50 BENCH_NAIVE_ITERATIONS=5 BENCH_LOAD_SECONDS=10
//   BENCH_KEEP_DB=/tmp/x npm run bench:search  # load into /tmp/x and keep it; a later run with the same
//                                              # setting skips the load (for tuning queries)
//   BENCH_ONLY='0000|deep' npm run bench:search  # only the shapes whose name matches (a regular expression,
//                                                # ignoring case): one table, no naive run, no load section
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyLocalMigrations, type Child, freePort, ROOT, startChild, waitUntil } from "../stack.ts";
import { NAIVE_TABLE } from "./naive-search.ts";
import { loadListings } from "./search-load.ts";
import { DEEP_MIX, type MixQuery, percentile, QUERY_MIX, SHORT_MIX } from "./search-mix.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 40);
const NAIVE_ITERATIONS = Number(process.env.BENCH_NAIVE_ITERATIONS ?? 5);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const LOAD_CLIENTS = [1, 8, 32];
const WARMUP = 3;
const GOAL_SHAPE_P95_MS = 30;
const GOAL_P95_MS = 20;
const GOAL_RATIO = 20;
const GOAL_LOAD_RPS = 100;
const GOAL_LOAD_P95_MS = 100;
const GOAL_CACHED_OVER_FLOOR_MS = 2;
/** The bench Worker sends requests with this header to a copy of the app without the edge cache. */
const UNCACHED = { "x-bench-cache": "off" };

type Sample = { ms: number[]; total: number; exact: boolean; ids: number[] };
type SearchBody = { addresses: { id: number }[]; pagination: { total: number; totalIsExact: boolean } };

/** Tuning mode: measure only the shapes whose name matches. */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, "i") : null;
const KEEP_DB = process.env.BENCH_KEEP_DB ? path.resolve(process.env.BENCH_KEEP_DB) : null;
let tmp: string | null = null;
let worker: Child | null = null;

/** Last-resort cleanup (process exit, signals): kill the process group, remove the temp dir. */
function cleanup() {
  worker?.stop();
  worker = null;
  if (tmp && tmp !== KEEP_DB) fs.rmSync(tmp, { recursive: true, force: true });
  tmp = null;
}

/** Orderly shutdown: stop wrangler dev and wait for it to exit before its files are removed. */
async function shutdown() {
  const child = worker;
  if (child && child.process.exitCode === null && child.process.signalCode === null) {
    const exited = new Promise((resolve) => child.process.once("exit", resolve));
    child.stop();
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  worker = null;
  cleanup();
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    cleanup();
    process.exit(130);
  });
}
process.on("exit", cleanup);

/** A wrangler config for the bench Worker: the production app plus the naive route, same D1 binding. */
function benchConfig(dir: string): string {
  const main = fs.readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
  const field = (name: string) => {
    const m = new RegExp(`^${name}\\s*=\\s*"([^"]+)"`, "m").exec(main);
    if (!m) throw new Error(`wrangler.toml has no ${name}`);
    return m[1];
  };
  const file = path.join(dir, "wrangler.bench.toml");
  fs.writeFileSync(
    file,
    [
      `name = "vanity-market-bench"`,
      `main = ${JSON.stringify(path.join(ROOT, "scripts/bench/search-worker.ts"))}`,
      `compatibility_date = "${field("compatibility_date")}"`,
      `compatibility_flags = ["nodejs_compat"]`,
      `send_metrics = false`,
      `[[d1_databases]]`,
      `binding = "DB"`,
      `database_name = "${field("database_name")}"`,
      `database_id = "${field("database_id")}"`,
      `migrations_dir = ${JSON.stringify(path.join(ROOT, "migrations"))}`,
      `[vars]`,
      `PRICE_FEED_URL = ""`,
      `ADMIN_WALLETS = ""`,
    ].join("\n"),
  );
  return file;
}

function dirBytes(dir: string): number {
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => {
    const p = path.join(dir, e.name);
    return sum + (e.isDirectory() ? dirBytes(p) : e.isFile() ? fs.statSync(p).size : 0);
  }, 0);
}

async function timedGet(url: string, headers: Record<string, string> = UNCACHED): Promise<{ ms: number; body: SearchBody; cache: string | null }> {
  const started = performance.now();
  const res = await fetch(url, { headers });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) as SearchBody, cache: res.headers.get("x-edge-cache") };
}

/**
 * Runs the whole mix `iterations` times, round-robin (one request at a time), so a burst of load from
 * elsewhere on the machine lands on every query alike instead of on whichever was running.
 */
async function measureMix(base: string, route: string, iterations: number, mix: MixQuery[] = QUERY_MIX): Promise<Sample[]> {
  const samples: Sample[] = mix.map(() => ({ ms: [], total: 0, exact: true, ids: [] }));
  for (let i = 0; i < WARMUP + iterations; i++) {
    for (const [n, q] of mix.entries()) {
      const { ms, body } = await timedGet(`${base}${route}?${q.query}`);
      if (i >= WARMUP) samples[n].ms.push(ms);
      Object.assign(samples[n], { total: body.pagination.total, exact: body.pagination.totalIsExact, ids: body.addresses.map((a) => a.id) });
    }
  }
  return samples;
}

type LoadResult = { clients: number; cached: boolean; rps: number; ms: number[]; hits: number };

/**
 * `clients` concurrent loops over the mix and the short queries for LOAD_SECONDS, each starting at another
 * query. With the cache, one pass first fills it, as any visitor traffic would; the listings do not change
 * during the run, so the steady state is all hits.
 */
async function loadRun(base: string, clients: number, cached: boolean): Promise<LoadResult> {
  const mix = [...QUERY_MIX, ...SHORT_MIX];
  const url = (q: MixQuery) => `${base}/api/addresses/search?${q.query}`;
  const headers: Record<string, string> = cached ? {} : UNCACHED;
  if (cached) for (const q of mix) await timedGet(url(q), headers);
  const ms: number[] = [];
  let hits = 0;
  const started = performance.now();
  const until = started + LOAD_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = client * 7; performance.now() < until; i++) {
        const r = await timedGet(url(mix[i % mix.length]), headers);
        ms.push(r.ms);
        if (r.cache === "HIT") hits++;
      }
    }),
  );
  return { clients, cached, rps: ms.length / ((performance.now() - started) / 1000), ms, hits };
}

function printShapes(title: string, mix: MixQuery[], samples: Sample[]) {
  const head = `${title.padEnd(32)} ${"p50 ms".padStart(7)} ${"p95 ms".padStart(7)}   total`;
  console.log(`\n${head}\n${"-".repeat(head.length)}`);
  mix.forEach((q, i) => {
    const total = `${samples[i].total.toLocaleString("en-US")}${samples[i].exact ? "" : "+"}`;
    console.log(`${q.name.padEnd(32)} ${f(percentile(samples[i].ms, 50))} ${f(percentile(samples[i].ms, 95))}   ${total}`);
  });
}

const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)).padStart(7);

async function main() {
  const reuse = KEEP_DB !== null && fs.existsSync(path.join(KEEP_DB, "loaded.json"));
  tmp = KEEP_DB ?? fs.mkdtempSync(path.join(os.tmpdir(), "vanity-bench-search-"));
  fs.mkdirSync(tmp, { recursive: true });
  if (reuse) {
    console.log(`bench:search: reusing the listings loaded in ${tmp}`);
    // Migrations added since the load (they must keep working on a full database anyway).
    applyLocalMigrations(tmp, true);
  } else {
    await loadInto(tmp);
  }
  await run(tmp);
}

async function loadInto(dir: string) {
  console.log(`bench:search: ${ROWS.toLocaleString("en-US")} listings in ${dir}`);
  applyLocalMigrations(dir, true);
  const started = performance.now();
  let lastReport = 0;
  const load = await loadListings({
    // The bench config lives in the temp dir: same D1, and no .dev.vars secrets loaded for nothing.
    configPath: benchConfig(dir),
    persistDir: dir,
    rows: ROWS,
    seed: 20261122,
    now: Date.now(),
    naiveTable: NAIVE_TABLE,
    onProgress: (done) => {
      if (done !== lastReport && (done - lastReport >= 200_000 || done === ROWS)) {
        lastReport = done;
        process.stdout.write(`  inserted ${done.toLocaleString("en-US")}\n`);
      }
    },
  });
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `loaded in ${s(performance.now() - started)}: rows ${s(load.insertMs)}, indexes ${s(load.indexMs)}, trigram index + counts ${s(load.derivedMs)}, naive copy ${s(load.naiveMs)}`,
  );
  console.log(`database on disk: ${(dirBytes(dir) / 1e9).toFixed(2)} GB (with the naive copy)`);
  fs.writeFileSync(path.join(dir, "loaded.json"), JSON.stringify(load));
}

async function run(dir: string) {
  const port = await freePort(8795);
  const config = benchConfig(dir);
  worker = startChild(
    "wrangler",
    path.join(ROOT, "node_modules", ".bin", "wrangler"),
    ["dev", "--config", config, "--port", String(port), "--ip", "127.0.0.1", "--persist-to", dir, "--show-interactive-dev-session=false"],
    { silent: true, onExit: (code) => console.error(`wrangler dev exited early (${code})`) },
  );
  const base = `http://127.0.0.1:${port}`;
  if (!(await waitUntil(async () => (await fetch(`${base}/api/addresses/search?limit=20`)).ok, 120_000, 500))) {
    throw new Error("wrangler dev did not answer within 2 minutes");
  }

  const load = () => os.loadavg()[0].toFixed(1);
  const loadBefore = load();
  // Floors: the same HTTP round trip to the same Worker without the database, and with one trivial query.
  const floors = { "/api/prices/live": [] as number[], "/api/health": [] as number[] };
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    for (const [route, ms] of Object.entries(floors)) {
      const started = performance.now();
      await (await fetch(`${base}${route}`)).text();
      if (i >= WARMUP) ms.push(performance.now() - started);
    }
  }
  if (ONLY) {
    const mix = [...QUERY_MIX, ...SHORT_MIX, ...DEEP_MIX].filter((q) => ONLY.test(q.name));
    const samples = await measureMix(base, "/api/addresses/search", ITERATIONS, mix);
    console.log(
      `load average ${loadBefore} -> ${load()} on ${os.cpus().length} cores; floor (no database) p95 ${percentile(floors["/api/prices/live"], 95).toFixed(1)} ms`,
    );
    printShapes(`shapes matching ${ONLY.source}`, mix, samples);
    return;
  }
  const fast = await measureMix(base, "/api/addresses/search", ITERATIONS);
  console.log(
    `measured the indexed search: ${ITERATIONS} rounds of the mix after ${WARMUP} warm-up rounds (load average ${loadBefore} -> ${load()} on ${os.cpus().length} cores)`,
  );
  const naive = await measureMix(base, "/api/bench/naive-search", NAIVE_ITERATIONS);
  console.log(`measured the naive search: ${NAIVE_ITERATIONS} rounds (load average now ${load()})`);
  const short = await measureMix(base, "/api/addresses/search", ITERATIONS, SHORT_MIX);
  const deep = await measureMix(base, "/api/addresses/search", ITERATIONS, DEEP_MIX);
  console.log(`measured short and deep queries: ${ITERATIONS} rounds each (load average now ${load()})`);
  const loads: LoadResult[] = [];
  for (const cached of [false, true]) {
    for (const clients of LOAD_CLIENTS) loads.push(await loadRun(base, clients, cached));
  }
  console.log(`measured the mix under load: ${LOAD_SECONDS} s per line (load average now ${load()})`);

  // Same answers: the fast path must return the naive path's page and total (unless it stopped counting).
  const mismatches = QUERY_MIX.filter((_, i) => fast[i].ids.join() !== naive[i].ids.join() || (fast[i].exact && fast[i].total !== naive[i].total));

  const header = `${"query".padEnd(24)} ${"p50 ms".padStart(7)} ${"p95 ms".padStart(7)}   naive p50  naive p95   p95 ratio   total`;
  console.log(`\n${header}\n${"-".repeat(header.length)}`);
  QUERY_MIX.forEach((q, i) => {
    const [a, b] = [fast[i], naive[i]];
    const ratio = percentile(b.ms, 95) / percentile(a.ms, 95);
    const total = `${a.total.toLocaleString("en-US")}${a.exact ? "" : "+"}`;
    console.log(
      `${q.name.padEnd(24)} ${f(percentile(a.ms, 50))} ${f(percentile(a.ms, 95))}     ${f(percentile(b.ms, 50))}    ${f(percentile(b.ms, 95))}   ${(ratio.toFixed(0) + "x").padStart(8)}   ${total}`,
    );
  });
  const all = fast.flatMap((x) => x.ms);
  const allNaive = naive.flatMap((x) => x.ms);
  const p95 = percentile(all, 95);
  const ratio = percentile(allNaive, 95) / p95;
  console.log("-".repeat(header.length));
  console.log(
    `${"overall".padEnd(24)} ${f(percentile(all, 50))} ${f(p95)}     ${f(percentile(allNaive, 50))}    ${f(percentile(allNaive, 95))}   ${(ratio.toFixed(0) + "x").padStart(8)}`,
  );
  const floorLine = (name: string, ms: number[], what: string) =>
    console.log(`${name.padEnd(24)} ${f(percentile(ms, 50))} ${f(percentile(ms, 95))}     ${what}`);
  floorLine("floor: no database", floors["/api/prices/live"], "GET /api/prices/live, same Worker and HTTP path");
  floorLine("floor: one tiny query", floors["/api/health"], "GET /api/health (one single-row D1 read)");

  printShapes("short and odd queries", SHORT_MIX, short);
  printShapes("deepest pages (offset 9,980)", DEEP_MIX, deep);

  const loadHead = `${"load: clients".padEnd(16)} ${"edge cache".padEnd(11)} ${"requests/s".padStart(10)} ${"p50 ms".padStart(7)} ${"p95 ms".padStart(7)} ${"p99 ms".padStart(7)}   cache hits`;
  console.log(`\n${loadHead}\n${"-".repeat(loadHead.length)}`);
  for (const r of loads) {
    const hits = r.cached ? `${((100 * r.hits) / r.ms.length).toFixed(0)}%` : "";
    console.log(
      `${String(r.clients).padEnd(16)} ${(r.cached ? "on" : "off").padEnd(11)} ${r.rps.toFixed(0).padStart(10)} ${f(percentile(r.ms, 50))} ${f(percentile(r.ms, 95))} ${f(percentile(r.ms, 99))}   ${hits}`,
    );
  }

  const shapes = [
    ...QUERY_MIX.map((q, i) => [q.name, fast[i]] as const),
    ...SHORT_MIX.map((q, i) => [q.name, short[i]] as const),
    ...DEEP_MIX.map((q, i) => [q.name, deep[i]] as const),
  ];
  const slow = shapes.filter(([, x]) => percentile(x.ms, 95) >= GOAL_SHAPE_P95_MS).map(([name, x]) => `${name} ${percentile(x.ms, 95).toFixed(1)} ms`);
  const eight = loads.find((r) => r.clients === 8 && !r.cached)!;
  const cachedOne = loads.find((r) => r.clients === 1 && r.cached)!;
  const floorP95 = percentile(floors["/api/prices/live"], 95);
  const overFloor = percentile(cachedOne.ms, 95) - floorP95;
  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  console.log(
    `\ngoal: every query shape p95 < ${GOAL_SHAPE_P95_MS} ms at one client: ${met(slow.length === 0)}${slow.length ? ` (over: ${slow.join("; ")})` : ""}`,
  );
  console.log(
    `goal: overall p95 < ${GOAL_P95_MS} ms: ${met(p95 < GOAL_P95_MS)} (${p95.toFixed(1)} ms); naive/indexed at p95 >= ${GOAL_RATIO}x: ${met(ratio >= GOAL_RATIO)} (${ratio.toFixed(0)}x)`,
  );
  console.log(
    `goal: 8 clients uncached >= ${GOAL_LOAD_RPS} requests/s with p95 < ${GOAL_LOAD_P95_MS} ms: ${met(eight.rps >= GOAL_LOAD_RPS && percentile(eight.ms, 95) < GOAL_LOAD_P95_MS)} (${eight.rps.toFixed(0)}/s, p95 ${percentile(eight.ms, 95).toFixed(1)} ms)`,
  );
  console.log(
    `goal: cached p95 within ${GOAL_CACHED_OVER_FLOOR_MS} ms of the no-database floor: ${met(overFloor <= GOAL_CACHED_OVER_FLOOR_MS)} (${percentile(cachedOne.ms, 95).toFixed(1)} vs ${floorP95.toFixed(1)} ms)`,
  );
  if (mismatches.length > 0) {
    console.error(`\nindexed and naive answers differ for: ${mismatches.map((q) => q.name).join(", ")}`);
    process.exitCode = 1;
  } else {
    console.log("indexed and naive searches returned the same pages and totals for every query.");
  }
}

main()
  .catch((err: unknown) => {
    console.error(`bench:search failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  })
  .finally(shutdown);
