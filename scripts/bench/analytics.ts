// npm run bench:analytics: Admin > Analytics at scale. A million generated listings (the search
// bench's generator and loader) and 100,000 completed sales over 90 days (purchases, sales_analytics rows and
// key-release audit rows), 30,000 reservations that ended otherwise, 2,000 custom orders and 5,000 promotions,
// in a throw-away local D1 (workerd's SQLite, as wrangler dev runs it); then every analytics query of the tab
// (worker/operations/analytics.ts, the code the route runs) timed for each period. Prints p50/p95 per call.
//
//   BENCH_ROWS=100000 BENCH_SALES=10000 npm run bench:analytics   # a smaller run
//   BENCH_ITERATIONS=20
//   BENCH_KEEP_DB=/tmp/x npm run bench:analytics                  # keep the loaded database; reuse it later
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getPlatformProxy } from "wrangler";
import { applyLocalMigrations } from "../stack.ts";
import { createDb } from "../../worker/db/database.ts";
import * as analytics from "../../worker/operations/analytics.ts";
import { NAIVE_TABLE } from "./naive-search.ts";
import { loadListings } from "./search-load.ts";
import { percentile } from "./search-mix.ts";
import { benchWranglerConfig } from "./bench-wrangler-config.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SALES = Number(process.env.BENCH_SALES ?? 100_000);
const OTHER = Math.round(SALES * 0.3);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20);
const WARMUP = 2;
/** Every analytics query under half a second at p95; the whole tab (D1 runs them one after another) under 1 s. */
const GOAL_P95_MS = 500;
const GOAL_TAB_P95_MS = 1000;
const KEEP_DB = process.env.BENCH_KEEP_DB ? path.resolve(process.env.BENCH_KEEP_DB) : null;
const DAY = 86_400_000;

/** Sales and the other tables, generated in SQL from the loaded listings (ids 1..ROWS). */
async function seedSales(db: D1Database, now: number) {
  const since = now - 90 * DAY;
  const chunk = 20_000;
  for (let from = 0; from < SALES + OTHER; from += chunk) {
    const to = Math.min(SALES + OTHER, from + chunk);
    // Listing k (1-based) gets one purchase: completed for k <= SALES, otherwise cancelled/expired/failed.
    await db.batch([
      db
        .prepare(
          `WITH RECURSIVE k(n) AS (SELECT ?1 + 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?2)
         INSERT INTO transactions (id, address_id, network, price, price_units, currency, total_amount, total_units, status, failure_reason, created_at, completed_at, updated_at)
         SELECT 'bench-' || a.id, a.id, a.network, a.price, a.price_units, a.currency, a.price, a.price_units,
                CASE WHEN k.n <= ?3 THEN 'completed' WHEN k.n % 3 = 0 THEN 'cancelled' WHEN k.n % 3 = 1 THEN 'expired' ELSE 'failed' END,
                CASE WHEN k.n > ?3 AND k.n % 3 = 2 THEN (CASE WHEN k.n % 2 = 0 THEN 'payment reverted' ELSE 'underpaid' END) END,
                ?4 + (k.n * 7919) % (?5 - ?4), CASE WHEN k.n <= ?3 THEN ?4 + (k.n * 7919) % (?5 - ?4) + 60000 END, ?5
         FROM k JOIN addresses a ON a.id = k.n`,
        )
        .bind(from, to, SALES, since, now),
    ]);
  }
  await db.batch([
    db.prepare(
      `INSERT INTO sales_analytics (transaction_id, address_id, network, rarity_score, category, actual_sale_price, sale_date, leading_zeros, patterns)
       SELECT t.id, a.id, a.network, a.rarity_score, a.category, t.price, t.completed_at, a.leading_zero_count, json_array(a.pattern)
       FROM transactions t JOIN addresses a ON a.id = t.address_id WHERE t.status = 'completed' AND t.id LIKE 'bench-%'`,
    ),
    db.prepare(
      `INSERT INTO transaction_audit (transaction_id, address_id, action, performed_by, timestamp)
       SELECT t.id, t.address_id, 'key_revealed', 'bench', t.completed_at + 1000 + (abs(random()) % 600000)
       FROM transactions t WHERE t.status = 'completed' AND t.id LIKE 'bench-%'`,
    ),
    db
      .prepare(
        `WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 5000)
       INSERT INTO listing_promotions (address_id, promotion_type, price, currency, start_time)
       SELECT n, CASE n % 3 WHEN 0 THEN 'featured' WHEN 1 THEN 'promoted' ELSE 'standard' END, '0.01', 'ETH', ?1 + (n * 104729) % (?2 - ?1) FROM k`,
      )
      .bind(since, now),
  ]);
  const users = await db
    .prepare("INSERT INTO users (username, wallet_address, network) VALUES ('bench-buyer', '0xbench', 'ethereum') ON CONFLICT DO NOTHING RETURNING id")
    .first<{ id: number }>();
  const buyer = users?.id ?? (await db.prepare("SELECT id FROM users WHERE username = 'bench-buyer'").first<{ id: number }>())!.id;
  await db
    .prepare(
      `WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 2000)
     INSERT INTO custom_orders (buyer_id, buyer_wallet, public_key, prefix, suffix, case_sensitive, difficulty_bits, price, price_units, status, created_at, updated_at)
     SELECT ?1, '0xbench', '0x04' || hex(randomblob(64)), 'ab', '', 0, 8, '0.01', 1000000,
            CASE n % 6 WHEN 0 THEN 'open' WHEN 1 THEN 'grinding' WHEN 2 THEN 'found' WHEN 3 THEN 'delivered' WHEN 4 THEN 'expired' ELSE 'cancelled' END,
            ?2 + (n * 7919) % (?3 - ?2), ?3 FROM k`,
    )
    .bind(buyer, since, now)
    .run();
}

async function main() {
  const dir = KEEP_DB ?? fs.mkdtempSync(path.join(os.tmpdir(), "vanity-bench-analytics-"));
  fs.mkdirSync(dir, { recursive: true });
  const marker = path.join(dir, "analytics-loaded.json");
  const configPath = benchWranglerConfig(dir, "vanity-market-bench-analytics");
  const now = fs.existsSync(marker) ? (JSON.parse(fs.readFileSync(marker, "utf8")) as { now: number }).now : Date.now();
  try {
    applyLocalMigrations(dir, true);
    if (!fs.existsSync(marker)) {
      console.log(`bench:analytics: ${ROWS.toLocaleString("en-US")} listings, ${SALES.toLocaleString("en-US")} sales in ${dir}`);
      const started = performance.now();
      await loadListings({ configPath, persistDir: dir, rows: ROWS, seed: 20261127, now, naiveTable: NAIVE_TABLE });
      const proxy = await getPlatformProxy<{ DB: D1Database }>({ configPath, persist: { path: `${dir}/v3` } });
      try {
        await seedSales(proxy.env.DB, now);
        await proxy.env.DB.prepare("ANALYZE").run();
      } finally {
        await proxy.dispose();
      }
      fs.writeFileSync(marker, JSON.stringify({ now }));
      console.log(`loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const proxy = await getPlatformProxy<{ DB: D1Database }>({ configPath, persist: { path: `${dir}/v3` } });
    try {
      const db = createDb(proxy.env.DB);
      const counts = await proxy.env.DB.prepare(
        "SELECT (SELECT count(*) FROM addresses) AS listings, (SELECT count(*) FROM sales_analytics) AS sales, (SELECT count(*) FROM transactions) AS purchases",
      ).first<{ listings: number; sales: number; purchases: number }>();
      console.log(
        `database: ${counts!.listings.toLocaleString("en-US")} listings, ${counts!.sales.toLocaleString("en-US")} sales, ${counts!.purchases.toLocaleString("en-US")} purchases`,
      );
      const calls: [string, (since: number) => Promise<unknown>][] = [
        ["salesByDay", (since) => analytics.salesByDay(db, since)],
        ["averagePrice", (since) => analytics.averagePrice(db, since)],
        ["reservationOutcomes", (since) => analytics.reservationOutcomes(db, since)],
        ["depthToRelease", (since) => analytics.depthToRelease(db, since)],
        ["customOrdersByState", (since) => analytics.customOrdersByState(db, since)],
        ["supplyByTier", () => analytics.supplyByTier(db)],
        ["promotionsByType", (since) => analytics.promotionsByType(db, since)],
        ["whole tab (parallel)", (since) => analytics.analytics(db, Math.round((now - since) / DAY), now)],
      ];
      let worst = 0;
      let worstTab = 0;
      for (const days of [7, 30, 90]) {
        const since = now - days * DAY;
        const head = `${`${days} days`.padEnd(24)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)}`;
        console.log(`\n${head}\n${"-".repeat(head.length)}`);
        for (const [name, call] of calls) {
          const ms: number[] = [];
          for (let i = 0; i < WARMUP + ITERATIONS; i++) {
            const t0 = performance.now();
            await call(since);
            if (i >= WARMUP) ms.push(performance.now() - t0);
          }
          const p95 = percentile(ms, 95);
          if (name.startsWith("whole tab")) worstTab = Math.max(worstTab, p95);
          else worst = Math.max(worst, p95);
          console.log(`${name.padEnd(24)} ${percentile(ms, 50).toFixed(1).padStart(8)} ${p95.toFixed(1).padStart(8)}`);
        }
      }
      console.log(`\nworst call p95 ${worst.toFixed(1)} ms (goal: every call under ${GOAL_P95_MS} ms at p95): ${worst <= GOAL_P95_MS ? "met" : "NOT MET"}`);
      console.log(
        `worst whole-tab p95 ${worstTab.toFixed(1)} ms (goal: under ${GOAL_TAB_P95_MS} ms at p95): ${worstTab <= GOAL_TAB_P95_MS ? "met" : "NOT MET"}`,
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
