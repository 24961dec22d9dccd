// Helpers for the watchlist, saved-search and notification tests: calls as a signed-in wallet from a given client
// address, the cron job's collectors task, and rows written straight into D1 to bring a bound within reach.
import { env } from "cloudflare:test";
import { clientKey } from "../collectors/client-key";
import { runCollectorJob } from "../collectors/notification-job";
import { createDb } from "../db/database";
import type { Wallet } from "./purchase-fixtures";
import { client } from "./client";

/** A random Ethereum address with no pattern to speak of (browse-fixtures' filler addresses repeat past 96). */
export const randomAddress = () => `0x${[...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;

export const starFrom = (ip: string, wallet: Wallet, listingId: number | string) =>
  client(wallet, { "cf-connecting-ip": ip }).watchlist[":id"].$put({ param: { id: String(listingId) } });

export const saveFrom = (ip: string, wallet: Wallet, name: string, filters: Record<string, unknown>) =>
  client(wallet, { "cf-connecting-ip": ip })["saved-searches"].$post({ json: { name, filters } });

/** The collectors task of the cron job, as it runs there. */
export const tick = (now = Date.now()) => runCollectorJob(createDb(env.DB), now);

/** The stored key of a client address, as the routes compute it. */
export const keyOf = (ip: string) => clientKey(env.SESSION_SECRET, ip);

export async function rowCount(table: string, where = "1", ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...binds)
    .first<{ n: number }>();
  return row!.n;
}

/** Users made straight in D1 (no session): owners for rows that fill a bound. */
export async function makeUsers(count: number, tag: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const row = await env.DB.prepare("INSERT INTO users (username, wallet_address, network) VALUES (?, ?, 'ethereum') RETURNING id")
      .bind(`${tag}_${i}`, `0x${tag}${String(i).padStart(8, "0")}`)
      .first<{ id: number }>();
    ids.push(row!.id);
  }
  return ids;
}
