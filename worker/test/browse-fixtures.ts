// Listings, users and transactions for the browse tests, written straight into D1 (the triggers keep
// listing_counts and the trigram index in step, exactly as for rows any other route writes).
import { env } from "cloudflare:test";
import type { SearchResponse } from "../../schema/browse";
import type { ListingStatus } from "../../schema/listing-lifecycle";
import { client } from "./client";
import { api } from "./helpers";
import { currencyOf } from "../../schema/network";

export type ListingSeed = {
  address?: string;
  network?: "ethereum" | "solana";
  price?: string;
  currency?: "ETH" | "SOL";
  rarity?: number;
  category?: string;
  pattern?: string;
  patternLength?: number;
  status?: ListingStatus;
  isListed?: boolean;
  isFeatured?: boolean;
  featuredUntil?: number | null;
  promotionType?: "standard" | "featured" | "promoted";
  promotionWeight?: number;
  sellerId?: number | null;
  createdAt?: number;
};

let counter = 0;
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** A unique filler address: Ethereum "0x" + 40 hex, Solana 44 base58 characters (no vanity pattern). */
export function fillerAddress(network: "ethereum" | "solana"): string {
  counter += 1;
  if (network === "ethereum") return `0x${"7".repeat(30)}${counter.toString(16).padStart(10, "6")}`;
  let n = counter;
  let tail = "";
  for (let i = 0; i < 8; i++) {
    tail = BASE58[n % 58] + tail;
    n = Math.floor(n / 58);
  }
  return `${"H".repeat(36)}${tail}`;
}

/** 1e-8 units of a decimal string with at most 8 decimals. */
export function toUnits(price: string): number {
  const [whole, frac = ""] = price.split(".");
  return Number(whole) * 1e8 + Number(frac.padEnd(8, "0"));
}

/**
 * A listing written straight into D1 (no key), the one such fixture of the worker tests: browse, admin, owner
 * and collectors tests alike. Unset fields get browse-friendly defaults (price 0.1, rarity 5, pattern length 4,
 * listed, a filler address); a sold or deleted row stays listed unless the seed says `isListed: false`, so a
 * test can prove the status alone hides it.
 */
export async function insertListing(seed: ListingSeed = {}): Promise<number> {
  const network = seed.network ?? (seed.currency === "SOL" ? "solana" : "ethereum");
  const currency = seed.currency ?? currencyOf(network);
  const price = seed.price ?? "0.1";
  const row = await env.DB.prepare(
    `INSERT INTO addresses (address, network, price, price_units, currency, rarity_score, category, pattern, pattern_length,
       status, is_listed, is_featured, featured_until, promotion_type, promotion_weight, seller_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(
      seed.address ?? fillerAddress(network),
      network,
      price,
      toUnits(price),
      currency,
      seed.rarity ?? 5,
      seed.category ?? "custom",
      seed.pattern ?? "custom",
      seed.patternLength ?? 4,
      seed.status ?? "active",
      seed.isListed === false ? 0 : 1,
      seed.isFeatured ? 1 : 0,
      seed.featuredUntil ?? null,
      seed.promotionType ?? "standard",
      seed.promotionWeight ?? 0,
      seed.sellerId ?? null,
      seed.createdAt ?? Date.now(),
    )
    .first<{ id: number }>();
  return row!.id;
}

export async function insertListings(seeds: ListingSeed[]): Promise<number[]> {
  const ids: number[] = [];
  for (const seed of seeds) ids.push(await insertListing(seed));
  return ids;
}

export async function insertUser(username: string, walletAddress: string, network: "ethereum" | "solana" = "ethereum"): Promise<number> {
  const row = await env.DB.prepare("INSERT INTO users (username, wallet_address, network) VALUES (?, ?, ?) RETURNING id")
    .bind(username, walletAddress, network)
    .first<{ id: number }>();
  return row!.id;
}

/** Empties every table the browse tests write, children first (D1 enforces foreign keys). */
export async function clearBrowseData() {
  await env.DB.batch(
    ["transactions", "sessions", "encrypted_keys", "watchlist", "custom_orders", "addresses", "users"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
  );
}

export async function search(query: string, init: RequestInit = {}): Promise<{ status: number; body: SearchResponse & { message?: string } }> {
  // The query string as a browser's address bar would carry it, malformed ones included: kept raw on the typed path.
  const res = await api(`${client().addresses.search.$path()}${query ? `?${query}` : ""}`, init);
  return { status: res.status, body: await res.json() };
}

/** Everything a GET must leave untouched, to prove a refused request changed nothing. */
export async function snapshot(): Promise<string> {
  const rows = await env.DB.batch([
    env.DB.prepare("SELECT count(*) AS n, total(price_units) AS u, max(updated_at) AS t FROM addresses"),
    env.DB.prepare("SELECT group_concat(state || network || currency || category || pattern_length || ':' || listings, ',') AS c FROM listing_counts"),
  ]);
  return JSON.stringify(rows.map((r) => r.results));
}
