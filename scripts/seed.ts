// The seed step of `npm start`: idempotent, safe to run on every start. It works on the same local D1 that
// `wrangler dev` uses (through wrangler's platform proxy), so the data it writes is what the app shows.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getPlatformProxy } from "wrangler";
import { users } from "../schema/db";
import { createDb } from "../worker/db";
import { deriveUsername, normalizeWallet } from "../worker/domain/users";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Admin wallets from wrangler.toml get a users row, so demo listings have a seller. */
export async function seedAdmins(env: Env) {
  const db = createDb(env.DB);
  const wallets = env.ADMIN_WALLETS.split(",").map((w) => w.trim()).filter(Boolean);
  for (const wallet of wallets) {
    const network = wallet.startsWith("0x") ? "ethereum" : "solana";
    await db
      .insert(users)
      .values({ username: deriveUsername(network, wallet), walletAddress: normalizeWallet(network, wallet), network, isAdmin: true, isVerified: true })
      .onConflictDoNothing();
  }
  return wallets.length;
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
  } finally {
    await proxy.dispose();
  }
}

await main();
