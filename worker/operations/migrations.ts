// The database's migrations against the ones this Worker was built with (Admin > Health,
// docs/operations.md#health). The build embeds the file names through drizzle-kit's journal, which lists every
// migrations/*.sql file (schema/migrations-journal.test.ts holds it to that); D1 records each migration it applied
// by file name in its own d1_migrations table.
import journal from "../../migrations/meta/_journal.json";
import type { MigrationsHealth } from "../../schema/health";

/** The migration files this Worker was built with, in order ("0043_sealed_intake.sql"). */
export const BUILT_MIGRATIONS: readonly string[] = journal.entries.map((e) => `${e.tag}.sql`);

/** The applied migrations (`applied`, in the order D1 applied them) against `built`. */
export function compareMigrations(applied: string[], built: readonly string[] = BUILT_MIGRATIONS): MigrationsHealth {
  const done = new Set(applied);
  const known = new Set(built);
  return {
    applied: applied.length,
    newest: applied.length === 0 ? null : applied.reduce((a, b) => (b > a ? b : a)),
    built: built.length,
    missing: built.filter((name) => !done.has(name)),
    newer: applied.filter((name) => !known.has(name)),
  };
}

/** Reads d1_migrations (a few dozen rows) and compares it with the build's list. */
export async function migrationsHealth(d1: D1Database): Promise<MigrationsHealth> {
  const { results } = await d1.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
  return compareMigrations(results.map((r) => r.name));
}
