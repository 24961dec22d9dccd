// Listings with real sealed keys and signed-in buyers, for the purchase tests (worker and chain projects).
import { env } from "cloudflare:test";
import type { PrivateKeyAccount } from "viem/accounts";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { SessionResponse } from "../../schema/auth";
import { sealKey } from "../vault";
import { adminAccount, buyerAccount, freshClient, otherAccount, signInEthereum, signInSolana, type SolanaKey, solanaKey } from "./auth-helpers";
import { api } from "./helpers";
import { ethKey, solKey, type TestKey } from "./listing-fixtures";
import { client, type HeaderCarrier } from "./client";
import { currencyOf } from "../../schema/network";

export type Wallet = { cookie: string; userId: number; address: string; headers: Record<string, string> };

/**
 * Each wallet calls from a client network of its own, as separate people do: the bounds per client network
 * (docs/public-surface.md) then never couple unrelated wallets of one test file. A test about one network's
 * many wallets passes its own cf-connecting-ip.
 */
export const walletOf = (address: string, cookie: string, body: SessionResponse, ip = freshClient()): Wallet => ({
  cookie,
  address,
  userId: (body as Extract<SessionResponse, { authenticated: true }>).user.id,
  headers: { cookie, "cf-connecting-ip": ip },
});

export async function ethWallet(account: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey())): Promise<Wallet> {
  const { cookie, body } = await signInEthereum(account);
  return walletOf(account.address, cookie, body);
}

export async function solWallet(key: SolanaKey = solanaKey()): Promise<Wallet & { key: SolanaKey }> {
  const { cookie, body } = await signInSolana(key);
  return { ...walletOf(key.address, cookie, body), key };
}

/** The admin (seller of every fixture listing), the anvil buyer and the anvil second buyer. */
export async function actors() {
  return { seller: await ethWallet(adminAccount), buyer: await ethWallet(buyerAccount), other: await ethWallet(otherAccount) };
}

export type Listed = { id: number; key: TestKey; price: string };

/** An active listing with its key sealed in the vault, as the listing API would leave it. */
export async function listWithKey(sellerId: number, seed: { network?: "ethereum" | "solana"; price?: string; status?: string } = {}): Promise<Listed> {
  const network = seed.network ?? "ethereum";
  const key = network === "ethereum" ? ethKey() : solKey();
  const price = seed.price ?? "0.5";
  const [whole, frac = ""] = price.split(".");
  const units = BigInt(whole) * 100_000_000n + BigInt(frac.padEnd(8, "0") || "0");
  const row = await env.DB.prepare(
    `INSERT INTO addresses (address, network, seller_id, price, price_units, currency, status, is_listed, category, pattern)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'custom', 'abc') RETURNING id`,
  )
    .bind(key.address, network, sellerId, price, Number(units), currencyOf(network), seed.status ?? "active", seed.status && seed.status !== "active" ? 0 : 1)
    .first<{ id: number }>();
  const id = row!.id;
  const record = await sealKey({ secret: env.KEY_ENCRYPTION_SECRET!, listingId: id, address: key.address, privateKey: key.privateKey });
  await env.DB.prepare("INSERT INTO encrypted_keys (address_id, encrypted_private_key, salt, iv, wrapped_key, mac, key_version) VALUES (?, ?, ?, ?, ?, ?, ?)")
    .bind(id, record.encryptedPrivateKey, record.salt, record.iv, record.wrappedKey, record.mac, record.keyVersion)
    .run();
  return { id, key, price };
}

/**
 * A raw call on a string path, as `who`: only for what the typed client (./client.ts) cannot send, such as a
 * body that is not JSON, a path no route declares, or a query string kept as written.
 */
export function call(method: string, path: string, who?: HeaderCarrier, body?: unknown, headers: Record<string, string> = {}) {
  return api(path, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(who?.headers ?? {}), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

export async function initiate(wallet: Wallet, addressId: number, extra: Record<string, unknown> = {}) {
  return client(wallet).transactions.initiate.$post({ json: { addressId, buyerId: wallet.address, ...extra } });
}

/** Reserves and returns the transaction id (fails the test on anything but 201). */
export async function reserve(wallet: Wallet, addressId: number): Promise<string> {
  const res = await initiate(wallet, addressId);
  if (res.status !== 201) throw new Error(`initiate: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { transactionId: string }).transactionId;
}

export async function purchaseRow(id: string) {
  return env.DB.prepare("SELECT * FROM transactions WHERE id = ?").bind(id).first<Record<string, unknown>>();
}

/** Row counts and state of every table a purchase call writes, to prove a refused call changed nothing. */
export async function purchaseState() {
  const tables = ["transactions", "escrow_transactions", "sales_analytics", "price_history", "encrypted_keys"];
  const rows = await env.DB.batch(tables.map((t) => env.DB.prepare(`SELECT count(*) AS n FROM ${t}`)));
  const tx = await env.DB.prepare("SELECT group_concat(id || status || coalesce(tx_hash, '-') || private_key_destroyed, ',') AS s FROM transactions").first<{
    s: string | null;
  }>();
  const listings = await env.DB.prepare("SELECT group_concat(id || status || is_listed, ',') AS s FROM addresses").first<{ s: string | null }>();
  return JSON.stringify([rows.map((r) => r.results[0]), tx?.s, listings?.s]);
}
