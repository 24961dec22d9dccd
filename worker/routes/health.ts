import { Hono } from "hono";
import journal from "../../migrations/meta/_journal.json";
import { missingSecrets } from "../config";
import type { AppEnv } from "../types";

/** The newest migration this build expects the database to have. */
export const LATEST_MIGRATION = `${journal.entries[journal.entries.length - 1].tag}.sql`;

export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  let applied: string | null = null;
  let databaseReachable = true;
  let migrationsCurrent = false;
  try {
    const row = await c.env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id DESC LIMIT 1").first<{ name: string }>();
    applied = row?.name ?? null;
    // Hand-written migrations may be newer than drizzle's journal until it is reconciled: current means the
    // journal's newest is applied, whatever came after it.
    migrationsCurrent = (await c.env.DB.prepare("SELECT 1 FROM d1_migrations WHERE name = ?").bind(LATEST_MIGRATION).first()) !== null;
  } catch {
    databaseReachable = false;
  }
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
