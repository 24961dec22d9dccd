import { Hono } from "hono";
import { latestAppliedMigration } from "../db/database";
import { operationsHealth } from "../operations/health";
import { BUILT_MIGRATIONS } from "../operations/migrations";
import { paymentReadiness } from "../deployment/payment-readiness";
import type { AppEnv } from "../types";

/**
 * The newest migration this Worker was built with, from drizzle-kit's journal (schema/migrations-journal.test.ts keeps the journal listing
 * every migrations/*.sql file). "At least" rather than "equal", so a database migrated by a newer deploy
 * still reports healthy while an older Worker version serves.
 */
export const LATEST_MIGRATION = BUILT_MIGRATIONS[BUILT_MIGRATIONS.length - 1];

export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const { databaseReachable, applied } = await latestAppliedMigration(c.env.DB);
  // Names start with a zero-padded number, so they compare in order as text.
  const migrationsCurrent = applied !== null && applied >= LATEST_MIGRATION;
  const secretsConfigured = Object.values(c.var.deployment.secrets).every(Boolean);
  // Unsafe payment settings leave the site up (browsing works) but refuse every payment: "degraded", still 200,
  // with the problems (docs/production-settings.md). They name settings and public values only, never an RPC
  // URL (it may carry an API key).
  const payments = await paymentReadiness(c.var.deployment);
  const ok = databaseReachable && migrationsCurrent;
  // Chains, the last cron run and the refunds due are for admins only (docs/operations.md#health): a visitor
  // learns nothing about the platform's nodes or money from them.
  const operations = c.var.session?.isAdmin && databaseReachable ? await operationsHealth(c.var.db, c.env) : undefined;
  return c.json(
    {
      status: !ok ? "unavailable" : payments.ok ? "ok" : "degraded",
      database: databaseReachable ? "reachable" : "unreachable",
      migration: { expected: LATEST_MIGRATION, applied },
      secretsConfigured,
      payments: payments.ok ? { ready: true, production: payments.settings.production, problems: [] } : { ready: false, problems: payments.problems },
      ...(operations ? { operations } : {}),
    },
    ok ? 200 : 503,
  );
});
