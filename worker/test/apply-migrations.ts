import { applyD1Migrations, env, type D1Migration } from "cloudflare:test";

// Every worker test file starts from a database with all migrations applied (TEST_MIGRATIONS is read
// from migrations/ by vitest.config.ts).
const { TEST_MIGRATIONS } = env as Env & { TEST_MIGRATIONS: D1Migration[] };
await applyD1Migrations(env.DB, TEST_MIGRATIONS);
