// The collectors' writes (star, unstar, save or delete a search, mark notifications read) are counted together per
// wallet and per client network (COLLECTOR_WRITE_LIMIT, docs/public-surface.md): a wallet is free, so many wallets
// from one client are held to the network's count. Past either: 429 with Retry-After, and the refused call writes
// nothing. The window's count is brought within reach by writing the counter row the limiter keeps.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { COLLECTOR_WRITE_LIMIT } from "../../schema/collectors";
import { clientNetwork } from "../http/rate-limit";
import { randomAddress, rowCount, saveFrom, starFrom } from "./collectors-fixtures";
import { insertListing } from "./browse-fixtures";
import { inFreshRateWindow, testRateWindowMs } from "./helpers";
import { ethWallet } from "./purchase-fixtures";
import { type Answer, client, refusal } from "./client";

/** Sets this window's count of `key` (rate_limits, worker/http/rate-limit.ts) to `count`. */
async function spent(key: string, count: number) {
  const now = Date.now();
  const windowStart = now - (now % testRateWindowMs());
  await env.DB.prepare(
    "INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, ?) ON CONFLICT (key, window_start) DO UPDATE SET count = excluded.count",
  )
    .bind(key, windowStart, count)
    .run();
}

async function expectTooMany(res: Answer, pattern: RegExp) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(testRateWindowMs() / 1000);
  const body = await refusal(res);
  expect(body.message).toMatch(pattern);
}

describe(`collectors' writes: ${COLLECTOR_WRITE_LIMIT.perWallet} a minute per wallet, ${COLLECTOR_WRITE_LIMIT.perClient} per client network`, () => {
  it("one wallet past its count is refused from any network, and writes nothing; another wallet is not held back", async () => {
    await inFreshRateWindow();
    const w = await ethWallet();
    const id = await insertListing({ address: randomAddress() });
    await spent(`collectors:user:${w.userId}`, COLLECTOR_WRITE_LIMIT.perWallet - 1);
    // The last write the window allows goes through.
    expect((await starFrom("198.51.100.41", w, id)).status).toBe(201);
    await expectTooMany(await client(w, { "cf-connecting-ip": "198.51.100.42" }).watchlist[":id"].$delete({ param: { id: String(id) } }), /from one wallet/);
    await expectTooMany(await saveFrom("198.51.100.43", w, "Refused", { network: "ethereum", minCharLength: "5" }), /from one wallet/);
    await expectTooMany(await client(w, { "cf-connecting-ip": "198.51.100.44" }).notifications["read-all"].$post(), /from one wallet/);
    expect(await rowCount("watchlist", "user_id = ?", w.userId)).toBe(1);
    expect(await rowCount("saved_searches", "user_id = ?", w.userId)).toBe(0);
    const other = await ethWallet();
    expect((await starFrom("198.51.100.41", other, id)).status).toBe(201);
  });

  it("many fresh wallets from one client network share its count; another network is not held back", async () => {
    await inFreshRateWindow();
    const ip = "2001:db8:91::1";
    await spent(`collectors:net:${clientNetwork(ip)}`, COLLECTOR_WRITE_LIMIT.perClient);
    const id = await insertListing({ address: randomAddress() });
    for (let i = 0; i < 3; i++) {
      const fresh = await ethWallet();
      // Another address of the same IPv6 /64 is the same client network.
      await expectTooMany(await starFrom(`2001:db8:91::${i + 2}`, fresh, id), /from your network/);
      await expectTooMany(await saveFrom(`2001:db8:91::${i + 2}`, fresh, "Refused", { network: "solana" }), /from your network/);
      expect(await rowCount("watchlist", "user_id = ?", fresh.userId)).toBe(0);
      expect(await rowCount("saved_searches", "user_id = ?", fresh.userId)).toBe(0);
    }
    const elsewhere = await ethWallet();
    expect((await starFrom("2001:db8:92::1", elsewhere, id)).status).toBe(201);
  });

  it("a visitor's and a malformed call are refused before they are counted", async () => {
    await inFreshRateWindow();
    const ip = "198.51.100.77";
    const before = await rowCount("rate_limits", "key = ?", `collectors:net:${ip}`);
    for (let i = 0; i < 5; i++) {
      expect((await client(undefined, { "cf-connecting-ip": ip }).watchlist[":id"].$put({ param: { id: "1" } })).status).toBe(401);
      expect((await client(undefined, { "cf-connecting-ip": ip })["saved-searches"].$post({ json: { name: "x", filters: {} } })).status).toBe(401);
    }
    const w = await ethWallet();
    expect((await client(w, { "cf-connecting-ip": ip }).watchlist[":id"].$put({ param: { id: "not-a-number" } })).status).toBe(400);
    expect((await saveFrom(ip, w, "", { network: "ethereum" })).status).toBe(400);
    expect(await rowCount("rate_limits", "key = ?", `collectors:net:${ip}`)).toBe(before);
  });
});
