import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes flat SQL migrations into migrations/ (applied by
// `wrangler d1 migrations apply` and, in tests, by applyD1Migrations).
export default defineConfig({
  dialect: "sqlite",
  schema: "./schema/db.ts",
  out: "./migrations",
});
