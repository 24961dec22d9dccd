// Rows written straight into the e2e run's D1 (the state directory global-setup.ts provides as "persistTo"),
// through wrangler's platform proxy, while the Worker under test keeps running on the same database. The
// triggers keep listing_counts and the search index in step, as for rows any route writes.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { getPlatformProxy } from "wrangler";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The part of D1's binding these helpers use (the e2e project has no Workers types). */
type Statement = { bind: (...values: unknown[]) => Statement; first: <T>() => Promise<T | null>; run: () => Promise<unknown> };
type Database = { prepare: (sql: string) => Statement; batch: (statements: Statement[]) => Promise<{ results: unknown[] }[]> };

export type ListingRow = {
  address: string;
  network: "ethereum" | "solana";
  price: string;
  rarity: number;
  category: string;
  pattern: string;
  patternLength: number;
  status?: "active" | "sold" | "deleted" | "inactive";
  isListed?: boolean;
  isFeatured?: boolean;
  promotionType?: "standard" | "featured" | "promoted";
  promotionWeight?: number;
  sellerId?: number | null;
  createdAt: number;
};

export type TransactionRow = {
  id: string;
  addressId: number;
  buyerId: number;
  sellerId: number;
  price: string;
  currency: "ETH" | "SOL";
  status: string;
  createdAt: number;
};

/** 1e-8 units of a decimal string with at most 8 decimals. */
const units = (price: string) => {
  const [whole, frac = ""] = price.split(".");
  return Number(whole) * 1e8 + Number(frac.padEnd(8, "0"));
};

export async function withDb<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  const proxy = await getPlatformProxy<Record<string, unknown>>({
    configPath: path.join(ROOT, "wrangler.toml"),
    persist: { path: path.join(inject("persistTo"), "v3") },
    remoteBindings: false,
  });
  try {
    return await fn(proxy.env.DB as Database);
  } finally {
    await proxy.dispose();
  }
}

/** Inserts the listings in one batch; answers their ids in order. */
export function insertListings(rows: ListingRow[]): Promise<number[]> {
  return withDb(async (db) => {
    const statements = rows.map((r) =>
      db
        .prepare(
          `INSERT INTO addresses (address, network, price, price_units, currency, rarity_score, category, pattern, pattern_length,
             status, is_listed, is_featured, promotion_type, promotion_weight, seller_id, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        )
        .bind(
          r.address,
          r.network,
          r.price,
          units(r.price),
          r.network === "ethereum" ? "ETH" : "SOL",
          r.rarity,
          r.category,
          r.pattern,
          r.patternLength,
          r.status ?? "active",
          r.isListed === false ? 0 : 1,
          r.isFeatured ? 1 : 0,
          r.promotionType ?? "standard",
          r.promotionWeight ?? 0,
          r.sellerId ?? null,
          r.createdAt,
          r.createdAt,
        ),
    );
    const results = await db.batch(statements);
    return results.map((r) => (r.results[0] as { id: number }).id);
  });
}

/** Inserts a user unless the wallet has one; answers the id. */
export function ensureUser(username: string, walletAddress: string, network: "ethereum" | "solana" = "ethereum"): Promise<number> {
  return withDb(async (db) => {
    const wallet = network === "ethereum" ? walletAddress.toLowerCase() : walletAddress;
    await db.prepare("INSERT INTO users (username, wallet_address, network) VALUES (?, ?, ?) ON CONFLICT DO NOTHING").bind(username, wallet, network).run();
    const row = await db.prepare("SELECT id FROM users WHERE wallet_address = ?").bind(wallet).first<{ id: number }>();
    return row!.id;
  });
}

export function insertTransactions(rows: TransactionRow[]): Promise<void> {
  return withDb(async (db) => {
    await db.batch(
      rows.map((t) =>
        db
          .prepare(
            `INSERT INTO transactions (id, address_id, buyer_id, seller_id, buyer_wallet, network, price, price_units, currency, total_amount, total_units, status, created_at, completed_at)
             VALUES (?, ?, ?, ?, '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .bind(
            t.id,
            t.addressId,
            t.buyerId,
            t.sellerId,
            t.currency === "ETH" ? "ethereum" : "solana",
            t.price,
            units(t.price),
            t.currency,
            t.price,
            units(t.price),
            t.status,
            t.createdAt,
            t.status === "completed" ? t.createdAt + 1000 : null,
          ),
      ),
    );
  });
}
