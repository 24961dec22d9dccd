import { Hono } from "hono";
import journal from "../../migrations/meta/_journal.json";
import { missingSecrets } from "../config";
import type { AppEnv } from "../types";

/** The newest migration this build expects the database to have. */
export const LATEST_MIGRATION = `${journal.entries[journal.entries.length - 1].tag}.sql`;

export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  let applied: string | null = null;
  let databaseReachable = true;
  try {
    const row = await c.env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id DESC LIMIT 1").first<{ name: string }>();
    applied = row?.name ?? null;
  } catch {
    databaseReachable = false;
  }
  // At or past the newest migration drizzle-kit's journal lists: hand-written migrations (numbered NNNN_name.sql)
  // may be applied before the journal is regenerated, and names sort in the order they apply.
  const migrationsCurrent = applied !== null && applied >= LATEST_MIGRATION;
  const secretsConfigured = missingSecrets(c.env).length === 0;
  const ok = databaseReachable && migrationsCurrent;
  return c.json(
    {
      status: ok ? "ok" : "unavailable",
      database: databaseReachable ? "reachable" : "unreachable",
      migration: { expected: LATEST_MIGRATION, applied },
      secretsConfigured,
    },
    ok ? 200 : 503,
  );
});
