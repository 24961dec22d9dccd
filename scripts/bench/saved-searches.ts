// npm run bench:saved-searches: the cron job's collectors task with 100,000 saved searches and 1,000 new
// listings (docs/collectors.md#how-matching-stays-cheap). In a throw-away local D1 (workerd's SQLite, as wrangler
// dev runs it): generated users and saved searches stored as the Worker stores them (canonical query, validated
// criteria, bucket keys), then new listings inserted as any writer inserts them (the triggers record one event
// each). Each iteration puts the same events back and times runCollectorJob, the code the cron runs: read the
// events, find each listing's candidate searches through the keys, check them with the search's predicate, write
// the notifications. Prints the time per run, what it checked, and what checking every search against every
// listing would have meant.
//
//   BENCH_SEARCHES=10000 npm run bench:saved-searches   # fewer saved searches
//   BENCH_LISTINGS=100 BENCH_ITERATIONS=20
//   BENCH_KEEP_DB=/tmp/x npm run bench:saved-searches    # keep the loaded database; a later run with the same
//                                                         # setting (and the same counts) skips the load
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getPlatformProxy } from "wrangler";
import { runCollectorJob } from "../../worker/collectors/notification-job.ts";
import { criteriaOf } from "../../worker/collectors/saved-searches.ts";
import { createDb } from "../../worker/db/database.ts";
import { compileMatcher, plannedQuery, prepareListing } from "../../worker/listings/search-match.ts";
import { applyLocalMigrations } from "../stack.ts";
import { generateListings, generateSearches } from "./saved-search-data.ts";
import { percentile } from "./search-mix.ts";
import { benchWranglerConfig } from "./bench-wrangler-config.ts";

const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 100_000);
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 1_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 10);
const WARMUP = 2;
/** Saved searches per user: the per-wallet bound is 20. */
const PER_USER = 17;
/** The cron runs every minute; one run's collectors task should take a small part of it. */
const GOAL_P95_MS = 2_000;
/** Rows per bulk INSERT (one JSON parameter each). */
const CHUNK = 2_000;
const KEEP_DB = process.env.BENCH_KEEP_DB ? path.resolve(process.env.BENCH_KEEP_DB) : null;

async function seed(db: D1Database, now: number) {
  const users = Math.ceil(SEARCHES / PER_USER);
  await db
    .prepare(
      `WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?1)
       INSERT INTO users (username, wallet_address, network) SELECT 'bench_' || n, '0xbench' || n, 'ethereum' FROM k`,
    )
    .bind(users)
    .run();
  const first = (await db.prepare("SELECT min(id) AS id FROM users WHERE username LIKE 'bench_%'").first<{ id: number }>())!.id;
  const searches = generateSearches(SEARCHES, first, users, 20261128);
  for (let i = 0; i < searches.length; i += CHUNK) {
    const chunk = searches.slice(i, i + CHUNK).map((s, j) => ({ ...s, id: i + j + 1 }));
    await db.batch([
      db
        .prepare(
          `INSERT INTO saved_searches (id, user_id, name, query, criteria, client_key, created_at)
           SELECT json_extract(value, '$.id'), json_extract(value, '$.userId'), json_extract(value, '$.name'), json_extract(value, '$.query'),
                  json_extract(value, '$.criteria'), 'bench', ?2 FROM json_each(?1)`,
        )
        .bind(JSON.stringify(chunk.map(({ id, userId, name, query, criteria }) => ({ id, userId, name, query, criteria }))), now),
      db
        .prepare(
          `INSERT INTO saved_search_keys (key, search_id, user_id, exact)
           SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') FROM json_each(?1)`,
        )
        .bind(JSON.stringify(chunk.flatMap((s) => s.keys.map((k) => [k.key, s.id, s.userId, k.exact ? 1 : 0])))),
    ]);
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
          .bind(l.address, l.network, l.price, Math.round(Number(l.price) * 1e8), l.network === "ethereum" ? "ETH" : "SOL", l.category, l.patternLength, now),
      ),
    );
  }
  // The events the triggers wrote, kept to be put back before every run (the job deletes what it has read).
  await db.batch([db.prepare("CREATE TABLE bench_events AS SELECT * FROM collector_events"), db.prepare("ANALYZE")]);
  return { users, keys: searches.reduce((n, s) => n + s.keys.length, 0) };
}

/** Puts the first `count` events back and the cursor before them; clears what a previous run wrote. */
async function resetEvents(db: D1Database, count: number) {
  await db.batch([
    db.prepare("DELETE FROM notifications"),
    db.prepare("DELETE FROM collector_events"),
    db.prepare("INSERT INTO collector_events SELECT * FROM bench_events ORDER BY id LIMIT ?1").bind(count),
    db.prepare("UPDATE collector_cursor SET last_event_id = (SELECT min(id) - 1 FROM bench_events) WHERE id = 1"),
  ]);
}

/** Every search against every listing in code, for `sample` listings: what the index saves. */
async function naiveSample(db: D1Database, sample: number): Promise<{ ms: number; pairs: number }> {
  const t0 = performance.now();
  const { results: searches } = await db.prepare("SELECT criteria FROM saved_searches").all<{ criteria: string }>();
  const matchers = searches.map((s) => {
    const planned = plannedQuery(criteriaOf(s.criteria));
    return planned ? compileMatcher(planned) : () => false;
  });
  const { results: listings } = await db
    .prepare("SELECT address, network, category, pattern_length AS patternLength, status, is_listed AS isListed FROM addresses LIMIT ?1")
    .bind(sample)
    .all<{ address: string; network: "ethereum" | "solana"; category: string; patternLength: number; status: string; isListed: number }>();
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

async function main() {
  const dir = KEEP_DB ?? fs.mkdtempSync(path.join(os.tmpdir(), "vanity-bench-saved-searches-"));
  fs.mkdirSync(dir, { recursive: true });
  const marker = path.join(dir, `saved-searches-${SEARCHES}-${LISTINGS}.json`);
  const configPath = benchWranglerConfig(dir, "vanity-market-bench-saved-searches");
  const loaded = fs.existsSync(marker) ? (JSON.parse(fs.readFileSync(marker, "utf8")) as { now: number; users: number; keys: number }) : null;
  const now = loaded?.now ?? Date.now();
  try {
    applyLocalMigrations(dir, true);
    const proxy = await getPlatformProxy<{ DB: D1Database }>({ configPath, persist: { path: `${dir}/v3` } });
    try {
      const d1 = proxy.env.DB;
      const loadStarted = performance.now();
      const { users, keys } = loaded ?? (await seed(d1, now));
      if (!loaded) fs.writeFileSync(marker, JSON.stringify({ now, users, keys }));
      console.log(
        `bench:saved-searches: ${SEARCHES.toLocaleString("en-US")} saved searches (${keys.toLocaleString("en-US")} bucket keys) of ` +
          `${users.toLocaleString("en-US")} wallets, ${LISTINGS.toLocaleString("en-US")} new listings; loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
      );
      const db = createDb(d1);
      const head = `${"new listings".padEnd(14)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"key hits".padStart(9)} ${"searches read".padStart(14)} ${"checked".padStart(10)} ${"matched".padStart(9)} ${"notices".padStart(8)}`;
      console.log(`\n${head}\n${"-".repeat(head.length)}`);
      let worst = 0;
      for (const count of [...new Set([Math.min(100, LISTINGS), LISTINGS])]) {
        const ms: number[] = [];
        let last: Awaited<ReturnType<typeof runCollectorJob>> | null = null;
        let notices = 0;
        for (let i = 0; i < WARMUP + ITERATIONS; i++) {
          await resetEvents(d1, count);
          const t0 = performance.now();
          last = await runCollectorJob(db, now);
          if (i >= WARMUP) ms.push(performance.now() - t0);
          notices = (await d1.prepare("SELECT count(*) AS n FROM notifications").first<{ n: number }>())!.n;
        }
        if (last!.events !== count) throw new Error(`the run read ${last!.events} events, expected ${count}`);
        const p95 = percentile(ms, 95);
        if (count === LISTINGS) worst = p95;
        console.log(
          `${count.toLocaleString("en-US").padEnd(14)} ${percentile(ms, 50).toFixed(1).padStart(8)} ${p95.toFixed(1).padStart(8)} ${last!.keyHits.toLocaleString("en-US").padStart(9)} ${last!.searchesRead.toLocaleString("en-US").padStart(14)} ${last!.candidatesChecked.toLocaleString("en-US").padStart(10)} ${last!.savedSearchMatches.toLocaleString("en-US").padStart(9)} ${notices.toLocaleString("en-US").padStart(8)}`,
        );
      }
      const sample = Math.min(50, LISTINGS);
      const naive = await naiveSample(d1, sample);
      const perListing = naive.ms / sample;
      console.log(
        `\nnaive, every search against every listing in code: ${naive.pairs.toLocaleString("en-US")} pairs for ${sample} listings in ${naive.ms.toFixed(0)} ms ` +
          `(${perListing.toFixed(1)} ms a listing; ${LISTINGS.toLocaleString("en-US")} listings ≈ ${((perListing * LISTINGS) / 1000).toFixed(1)} s, ` +
          `${(SEARCHES * LISTINGS).toLocaleString("en-US")} pairs)`,
      );
      console.log(
        `\nrun with ${LISTINGS.toLocaleString("en-US")} new listings p95 ${worst.toFixed(1)} ms (goal: under ${GOAL_P95_MS} ms): ${worst <= GOAL_P95_MS ? "met" : "NOT MET"}`,
      );
    } finally {
      await proxy.dispose();
    }
  } finally {
    if (!KEEP_DB) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
