// The seed step of `npm start`: idempotent, safe to run on every start. It works on the same local D1 that
// `wrangler dev` uses (through wrangler's platform proxy), so the data it writes is what the app shows.
import { eq } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getPlatformProxy } from "wrangler";
import { parseBulkCsv } from "../schema/bulk-csv";
import { users } from "../schema/db";
import { createDb } from "../worker/db/database";
import { deriveUsername, normalizeWallet } from "../worker/domain/users";
import { importListings } from "../worker/listings/import";
import { MIN_SECRET_LENGTH } from "../worker/vault";
import { demoImportOptions } from "./demo-listings";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Admin wallets from wrangler.toml get a users row, so demo listings have a seller. */
export async function seedAdmins(env: Env) {
  const db = createDb(env.DB);
  const wallets = env.ADMIN_WALLETS.split(",")
    .map((w) => w.trim())
    .filter(Boolean);
  for (const wallet of wallets) {
    const network = wallet.startsWith("0x") ? "ethereum" : "solana";
    await db
      .insert(users)
      .values({ username: deriveUsername(network, wallet), walletAddress: normalizeWallet(network, wallet), network, isAdmin: true, isVerified: true })
      .onConflictDoNothing();
  }
  return wallets.length;
}

export const DEMO_CSV = path.join(root, "scripts", "demo", "listings.csv");

/**
 * Demo listings (docs/listings.md#demo-listings): scripts/demo/listings.csv through the same import as a bulk upload,
 * sold by the first admin wallet, dressed by demo-listings.ts. Rows already listed come back as duplicates,
 * so running it on every start adds only rows new to the file. KEY_ENCRYPTION_SECRET from the environment
 * wins over .dev.vars, so a caller that starts the Worker with its own secret can seal under that one.
 */
export async function seedDemoListings(env: Env, csvPath = DEMO_CSV, now = Date.now()): Promise<string> {
  if (!fs.existsSync(csvPath)) return `${path.relative(root, csvPath)} not found yet: no demo listings`;
  const secret = process.env.KEY_ENCRYPTION_SECRET || env.KEY_ENCRYPTION_SECRET;
  if (!secret || secret.length < MIN_SECRET_LENGTH) return "KEY_ENCRYPTION_SECRET is not set: demo listings skipped (their keys could not be sealed)";
  const parsed = parseBulkCsv(fs.readFileSync(csvPath, "utf8"));
  if (!parsed.ok) return `${path.relative(root, csvPath)}: ${parsed.message}; demo listings skipped`;
  const db = createDb(env.DB);
  const admin = env.ADMIN_WALLETS.split(",")
    .map((w) => w.trim())
    .find(Boolean);
  const seller =
    admin &&
    (await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.walletAddress, normalizeWallet(admin.startsWith("0x") ? "ethereum" : "solana", admin)))
      .get());
  if (!seller) return "no admin wallet in ADMIN_WALLETS: demo listings skipped";
  const vault = { KEY_ENCRYPTION_SECRET: secret, KEY_ENCRYPTION_VERSION: env.KEY_ENCRYPTION_VERSION };
  const results = await importListings(db, vault, seller.id, parsed.rows, demoImportOptions(parsed.rows, now));
  const added = results.filter((r) => r.status === "success").length;
  const failed = results.filter((r) => r.status === "error");
  const duplicates = failed.filter((r) => r.reason === "duplicate").length;
  const refused = failed.filter((r) => r.reason !== "duplicate");
  const why = [...new Set(refused.map((r) => r.reason))].join(", ");
  return `${added} demo listing(s) added, ${duplicates} already there${refused.length ? `, ${refused.length} refused (${why})` : ""}`;
}

async function main() {
  // SEED_PERSIST_TO lets the browser tests seed their own throw-away database.
  const persistTo = process.env.SEED_PERSIST_TO;
  const proxy = await getPlatformProxy<Env>({
    configPath: path.join(root, "wrangler.toml"),
    persist: persistTo ? { path: path.join(persistTo, "v3") } : true,
    remoteBindings: false,
  });
  try {
    const admins = await seedAdmins(proxy.env);
    console.log(`  seed: ${admins} admin wallet(s) ensured`);
    console.log(`  seed: ${await seedDemoListings(proxy.env)}`);
  } finally {
    await proxy.dispose();
  }
}

// Importable (tests) without seeding anything.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
