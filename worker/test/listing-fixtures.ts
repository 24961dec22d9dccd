// Real keys and signed-in callers for the listing tests: every address here is derived from its key, the
// way the ownership check demands.
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { env } from "cloudflare:test";
import { privateKeyToAddress } from "viem/accounts";
import type { SessionResponse } from "../../schema/auth";
import type { BulkRow } from "../../schema/listings";
import { adminAccount, buyerAccount, otherAccount, signInEthereum } from "./auth-helpers";

export type TestKey = { network: "ethereum" | "solana"; address: string; privateKey: string };

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

export function ethKey(): TestKey {
  const privateKey = `0x${hex(crypto.getRandomValues(new Uint8Array(32)))}` as const;
  return { network: "ethereum", address: privateKeyToAddress(privateKey), privateKey };
}

/** A Solana key; privateKey is the base58 64-byte secret key (seed || public key). */
export function solKey(): TestKey & { seed: Uint8Array } {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const pub = ed25519.getPublicKey(seed);
  return { network: "solana", address: base58.encode(pub), privateKey: base58.encode(new Uint8Array([...seed, ...pub])), seed };
}

/** A bulk CSV row whose pattern_matched is the address's first `matched` characters (after 0x). */
export function bulkRow(key: TestKey, matched = 4, extra: Partial<BulkRow> = {}): BulkRow {
  const body = key.network === "ethereum" ? key.address.slice(2) : key.address;
  return {
    address: key.address,
    private_key: key.privateKey,
    platform: key.network,
    pattern_type: "prefix",
    pattern_matched: body.slice(0, matched),
    ...extra,
  };
}

export type Caller = { cookie: string; userId: number; headers: Record<string, string> };

async function callerFor(account: typeof adminAccount): Promise<Caller> {
  const { cookie, body } = await signInEthereum(account);
  const userId = (body as Extract<SessionResponse, { authenticated: true }>).user.id;
  return { cookie, userId, headers: { cookie } };
}

/** The admin (anvil account 0, in ADMIN_WALLETS), an ordinary wallet, and a second ordinary wallet. */
export async function signInAll() {
  return { admin: await callerFor(adminAccount), user: await callerFor(buyerAccount), other: await callerFor(otherAccount) };
}

/** Row counts of every table a listing call writes, to prove a refused call changed nothing. */
export async function counts() {
  const tables = ["addresses", "encrypted_keys", "price_history", "listing_promotions"];
  const rows = await env.DB.batch(tables.map((t) => env.DB.prepare(`SELECT count(*) AS n, max(rowid) AS m FROM ${t}`)));
  const state = await env.DB.prepare(
    "SELECT group_concat(id || status || price || promotion_type || is_featured || is_listed, ',') AS s FROM addresses",
  ).first<{ s: string | null }>();
  return JSON.stringify([rows.map((r) => r.results[0]), state?.s]);
}

let txCounter = 0;
/** A transaction on a listing (an open one reserves it). */
export async function insertTransaction(
  addressId: number,
  t: { status?: string; buyerId?: number | null; sellerId?: number | null; createdAt?: number; price?: string } = {},
) {
  txCounter += 1;
  const id = `tx-${txCounter}-${crypto.randomUUID()}`;
  await env.DB.prepare(
    `INSERT INTO transactions (id, address_id, buyer_id, seller_id, network, price, price_units, currency, total_amount, total_units, status, created_at)
     VALUES (?, ?, ?, ?, 'ethereum', ?, 100000000, 'ETH', ?, 100000000, ?, ?)`,
  )
    .bind(id, addressId, t.buyerId ?? null, t.sellerId ?? null, t.price ?? "1", t.price ?? "1", t.status ?? "initiated", t.createdAt ?? Date.now())
    .run();
  return id;
}
