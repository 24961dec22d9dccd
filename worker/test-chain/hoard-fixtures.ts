// Many open reservations at once, as a party signing in free wallets would hold them (docs/payments.md): each on a
// listing of its own, from a wallet of its own, unpaid and not yet expired. Written in two statements over JSON
// arrays (json_each), so any number of rows binds one parameter each.
import { base58 } from "@scure/base";
import { env } from "cloudflare:test";
import { currencyOf } from "../../schema/network";

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * `n` open reservations on `network`, made five minutes ago and expiring in ten, on listings of `sellerId`.
 * Ethereum ones start their scan at `scanFrom` (the block the reservation saw as the head).
 */
export async function hoard(
  network: "ethereum" | "solana",
  n: number,
  sellerId: number,
  scanFrom: number | null = null,
): Promise<{ wallets: string[]; references: string[] }> {
  const now = Date.now();
  const rows = Array.from({ length: n }, () => {
    const wallet = network === "ethereum" ? `0x${hex(crypto.getRandomValues(new Uint8Array(20)))}` : base58.encode(crypto.getRandomValues(new Uint8Array(32)));
    return {
      listing: network === "ethereum" ? `0x${hex(crypto.getRandomValues(new Uint8Array(20)))}` : base58.encode(crypto.getRandomValues(new Uint8Array(32))),
      id: crypto.randomUUID(),
      wallet,
      reference: network === "solana" ? base58.encode(crypto.getRandomValues(new Uint8Array(32))) : null,
    };
  });
  const json = JSON.stringify(rows);
  const currency = currencyOf(network);
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO addresses (address, network, seller_id, price, price_units, currency, status, is_listed, category, pattern)
       SELECT value ->> 'listing', ?2, ?3, '0.01', 1000000, ?4, 'active', 1, 'custom', 'hoard' FROM json_each(?1)`,
    ).bind(json, network, sellerId, currency),
    env.DB.prepare(
      `INSERT INTO transactions (id, address_id, buyer_wallet, network, price, price_units, currency, total_amount, total_units, status, payment_reference,
                                 amount_base_units, scan_from_block, reserved_block, created_at, updated_at, expires_at)
       SELECT j.value ->> 'id', a.id, j.value ->> 'wallet', ?2, '0.01', 1000000, ?3, '0.01', 1000000, 'initiated', j.value ->> 'reference',
              ?4, ?5, ?5, ?6, ?6, ?7
       FROM json_each(?1) j JOIN addresses a ON a.address = j.value ->> 'listing'`,
    ).bind(json, network, currency, network === "ethereum" ? "10000000000000000" : "10000000", scanFrom, now - 5 * 60_000, now + 10 * 60_000),
  ]);
  return { wallets: rows.map((r) => r.wallet), references: rows.flatMap((r) => (r.reference ? [r.reference] : [])) };
}
