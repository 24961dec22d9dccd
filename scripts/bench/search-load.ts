// Loads the generated listings into a local D1 (already migrated) the way a bulk import would: the
// addresses indexes and triggers are set aside, rows go in as big multi-row INSERTs, then the indexes are
// built once, the triggers restored, and the derived data (trigram index, listing_counts) rebuilt with the
// same statements as migrations/0003_browse_search_sql.sql. The end state is the migrated schema, full.
import { getPlatformProxy } from "wrangler";
import { insertStatements } from "./search-data.ts";

// D1 refuses statements over 100 KB; 500 generated rows are about 85 KB.
const ROWS_PER_STATEMENT = 500;
const STATEMENTS_PER_BATCH = 40;

export type LoadReport = { rows: number; insertMs: number; indexMs: number; derivedMs: number; naiveMs: number };

type Proxy = Awaited<ReturnType<typeof getPlatformProxy<{ DB: D1Database }>>>;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, performance.now() - started];
}

export async function loadListings(opts: {
  configPath: string;
  persistDir: string;
  rows: number;
  seed: number;
  now: number;
  naiveTable: string;
  onProgress?: (done: number) => void;
}): Promise<LoadReport> {
  const proxy: Proxy = await getPlatformProxy<{ DB: D1Database }>({ configPath: opts.configPath, persist: { path: `${opts.persistDir}/v3` } });
  try {
    const db = proxy.env.DB;
    const { results: objects } = await db
      .prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'addresses' AND type IN ('index', 'trigger') AND sql IS NOT NULL")
      .all<{ type: string; name: string; sql: string }>();
    const indexes = objects.filter((o) => o.type === "index");
    const triggers = objects.filter((o) => o.type === "trigger");
    if (!indexes.some((o) => o.name === "addresses_search_rarity") || !triggers.some((o) => o.name === "addresses_counts_ai")) {
      throw new Error("the database is not migrated (search indexes or triggers missing)");
    }
    for (const o of objects) await db.exec(`DROP ${o.type.toUpperCase()} ${o.name}`);

    const [, insertMs] = await timed(async () => {
      let batch: D1PreparedStatement[] = [];
      let done = 0;
      for (const statement of insertStatements(opts.rows, opts.seed, opts.now, ROWS_PER_STATEMENT)) {
        batch.push(db.prepare(statement));
        if (batch.length === STATEMENTS_PER_BATCH) {
          await db.batch(batch);
          done += batch.length * ROWS_PER_STATEMENT;
          opts.onProgress?.(Math.min(done, opts.rows));
          batch = [];
        }
      }
      if (batch.length) await db.batch(batch);
      opts.onProgress?.(opts.rows);
    });

    const [, indexMs] = await timed(async () => {
      for (const o of indexes) await db.prepare(o.sql).run();
    });

    const [, derivedMs] = await timed(async () => {
      await db.prepare("DELETE FROM listing_counts").run();
      await db
        .prepare(
          `INSERT INTO listing_counts (state, network, currency, category, pattern_length, listings, price_units)
           SELECT CASE WHEN status = 'sold' THEN 'sold' ELSE 'available' END AS s, network, currency, category, pattern_length, count(*), total(price_units)
           FROM addresses WHERE status = 'sold' OR (status = 'active' AND is_listed = 1)
           GROUP BY s, network, currency, category, pattern_length`,
        )
        .run();
      await db.prepare("INSERT INTO addresses_fts (addresses_fts) VALUES ('rebuild')").run();
      for (const o of triggers) await db.prepare(o.sql).run();
    });

    // The naive baseline's copy: same rows, no index at all.
    const [, naiveMs] = await timed(async () => {
      await db.prepare(`DROP TABLE IF EXISTS ${opts.naiveTable}`).run();
      await db
        .prepare(
          `CREATE TABLE ${opts.naiveTable} AS SELECT id, address, network, pattern, category, pattern_length, rarity_score, price, price_units,
             currency, status, is_listed, promotion_type, is_featured, seller_id, created_at FROM addresses`,
        )
        .run();
    });

    const check = await db
      .prepare(`SELECT (SELECT count(*) FROM addresses) AS n, (SELECT count(*) FROM ${opts.naiveTable}) AS naive`)
      .first<{ n: number; naive: number }>();
    if (check?.n !== opts.rows || check.naive !== opts.rows) throw new Error(`loaded ${check?.n} rows (naive copy ${check?.naive}), expected ${opts.rows}`);
    return { rows: opts.rows, insertMs, indexMs, derivedMs, naiveMs };
  } finally {
    await proxy.dispose();
  }
}
