// The wrangler config a bench's throw-away local D1 runs under (getPlatformProxy, or wrangler dev): the Worker, the compatibility
// settings and the D1 binding of wrangler.toml, and the repository's migrations, under the bench's own name.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../stack.ts";

/** Writes `dir`/wrangler.bench.toml for the Worker named `name` (its entry `main`, the app's by default); returns its path. */
export function benchWranglerConfig(dir: string, name: string, main = "worker/index.ts"): string {
  const toml = fs.readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
  const field = (key: string) => new RegExp(`^${key}\\s*=\\s*"([^"]+)"`, "m").exec(toml)![1];
  const file = path.join(dir, "wrangler.bench.toml");
  fs.writeFileSync(
    file,
    [
      `name = "${name}"`,
      `main = ${JSON.stringify(path.join(ROOT, main))}`,
      `compatibility_date = "${field("compatibility_date")}"`,
      `compatibility_flags = ["nodejs_compat"]`,
      `[[d1_databases]]`,
      `binding = "DB"`,
      `database_name = "${field("database_name")}"`,
      `database_id = "${field("database_id")}"`,
      `migrations_dir = ${JSON.stringify(path.join(ROOT, "migrations"))}`,
    ].join("\n"),
  );
  return file;
}
