// The edge cache for anonymous browse reads (worker/http/edge-cache.ts): visitors and signed-in callers never
// share an answer, and a sold or deleted listing leaves cached answers within the stated time.
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ListingView, SearchResponse } from "../../schema/browse";
import { createApp } from "../app";
import { resetPriceCache } from "../prices/price-feed";
import { CACHE_STATUS_HEADER, edgeCacheKey } from "../http/edge-cache";
import { forgetListingsVersion } from "../listings/version";
import { buyerAccount, signInEthereum } from "./auth-helpers";
import { clearBrowseData, insertListing } from "./browse-fixtures";
import { api } from "./helpers";
import { type Answer, client, clientOf, unchecked } from "./client";

const cacheStatus = (res: Answer) => res.headers.get(CACHE_STATUS_HEADER);
const ids = (body: SearchResponse) => body.addresses.map((a) => a.id);
const version = async () => (await env.DB.prepare("SELECT version FROM listings_version").first<{ version: number }>())!.version;

beforeEach(async () => {
  resetPriceCache();
  forgetListingsVersion();
  await clearBrowseData();
});

describe("the listings version moves on any listing or transaction change (triggers, not app code)", () => {
  it("insert, update and delete of an address, and a transaction's insert and update", async () => {
    let last = await version();
    const moved = async () => {
      const now = await version();
      const changed = now !== last;
      last = now;
      return changed;
    };
    const id = await insertListing();
    expect(await moved()).toBe(true);
    await env.DB.prepare("UPDATE addresses SET status = 'sold', is_listed = 0 WHERE id = ?").bind(id).run();
    expect(await moved()).toBe(true);
    await env.DB.prepare(
      `INSERT INTO transactions (id, address_id, network, price, price_units, currency, total_amount, total_units, status, created_at)
       VALUES ('tx-cache', ?, 'ethereum', '0.1', 10000000, 'ETH', '0.1', 10000000, 'pending', ?)`,
    )
      .bind(id, Date.now())
      .run();
    expect(await moved()).toBe(true);
    await env.DB.prepare("UPDATE transactions SET status = 'completed' WHERE id = 'tx-cache'").run();
    expect(await moved()).toBe(true);
    await env.DB.prepare("DELETE FROM transactions").run();
    await env.DB.prepare("DELETE FROM addresses WHERE id = ?").bind(id).run();
    expect(await moved()).toBe(true);
    // A read moves nothing.
    await client().addresses.search.$get();
    expect(await moved()).toBe(false);
  });
});

describe("cache keys", () => {
  it("depend on the version, the USD rates, the path and the query, not on the parameters' order", () => {
    const rates = { ethPrice: 3796, solPrice: 184 };
    const key = edgeCacheKey("https://m.test/api/addresses/search?b=2&a=1", 7, rates);
    expect(edgeCacheKey("https://m.test/api/addresses/search?a=1&b=2", 7, rates)).toBe(key);
    expect(edgeCacheKey("https://m.test/api/addresses/search?a=1&b=2", 8, rates)).not.toBe(key);
    expect(edgeCacheKey("https://m.test/api/addresses/search?a=1&b=2", 7, { ...rates, ethPrice: 3800 })).not.toBe(key);
    expect(edgeCacheKey("https://m.test/api/addresses/search?a=1&b=3", 7, rates)).not.toBe(key);
    expect(edgeCacheKey("https://m.test/api/addresses/featured?a=1&b=2", 7, rates)).not.toBe(key);
  });
});

describe("visitors and signed-in callers never share an answer", () => {
  let cookie: string;
  let mine: number;
  let path: string;

  beforeEach(async () => {
    ({ cookie } = await signInEthereum(buyerAccount));
    const user = await env.DB.prepare("SELECT id FROM users WHERE wallet_address = ?").bind(buyerAccount.address.toLowerCase()).first<{ id: number }>();
    mine = await insertListing({ sellerId: user!.id, rarity: 9 });
    // A path of its own per test, so no earlier test's entry can answer it.
    // x: a query key of no meaning, so the path has a cache entry of its own (raw: the schema has no such key).
    path = `${client().addresses.search.$path()}?limit=20&network=ethereum&x=${crypto.randomUUID()}`;
  });

  it("a visitor's answer is stored and served again; the signed-in owner still gets their own", async () => {
    const first = await api(path);
    expect(cacheStatus(first)).toBe("MISS");
    const again = await api(path);
    expect(cacheStatus(again)).toBe("HIT");
    expect(await again.json()).toEqual(await first.json());

    const owner = await api(path, { headers: { cookie } });
    expect(cacheStatus(owner)).toBe("BYPASS");
    expect(owner.headers.get("cache-control")).toBe("private, no-store");
    const body = (await owner.json()) as SearchResponse;
    expect(body.addresses.find((a) => a.id === mine)?.isOwner).toBe(true);
  });

  it("a signed-in caller's answer is never stored for visitors", async () => {
    const owner = await api(path, { headers: { cookie } });
    expect(cacheStatus(owner)).toBe("BYPASS");
    const visitor = await api(path);
    expect(cacheStatus(visitor)).toBe("MISS");
    const body = (await visitor.json()) as SearchResponse;
    expect(body.addresses.find((a) => a.id === mine)?.isOwner).toBe(false);
    // Same for one listing and the featured list.
    for (const route of [client().addresses[":id"].$path({ param: { id: String(mine) } }), client().addresses.featured.$path()]) {
      expect(cacheStatus(await api(route, { headers: { cookie } }))).toBe("BYPASS");
      const seen = await api(route);
      expect(cacheStatus(seen)).toBe("MISS");
      const view = (await seen.json()) as ListingView | ListingView[];
      expect((Array.isArray(view) ? view : [view]).every((l) => !l.isOwner)).toBe(true);
    }
  });

  it("a stale or unknown session cookie is treated as signed in: not cached, and its cookie-clearing answer is not stored", async () => {
    const stale = `session=${"a".repeat(43)}`;
    const res = await api(path, { headers: { cookie: stale } });
    expect(cacheStatus(res)).toBe("BYPASS");
    const visitor = await api(path);
    expect(cacheStatus(visitor)).toBe("MISS");
    expect(visitor.headers.get("set-cookie")).toBeNull();
  });

  it("errors are not stored", async () => {
    const res = await client().addresses.search.$get({ query: { limit: "7" } });
    expect(res.status).toBe(400);
    expect(cacheStatus(res)).toBe("BYPASS");
    expect(cacheStatus(await client().addresses[":id"].$get({ param: { id: "99999999" } }))).toBe("BYPASS");
  });

  it("market stats and recent transactions are cached for visitors too", async () => {
    for (const route of [client()["market-stats"].$path(), `${client().transactions.recent.$path()}?x=${crypto.randomUUID()}`]) {
      expect(cacheStatus(await api(route))).toBe("MISS");
      const hit = await api(route);
      expect(cacheStatus(hit)).toBe("HIT");
      // The browser gets the route's own lifetime, not the cache's.
      expect(hit.headers.get("cache-control")).toBe("public, max-age=30");
    }
  });
});

describe("a listing bought or deleted leaves cached search within 2 x LISTINGS_VERSION_TTL_MS", () => {
  // The production setting (1 s) scaled down so the test waits less; the rule is the same.
  const TTL_MS = 300;
  const app = createApp();
  const api = clientOf((input, init) => app.request(input, init, { ...env, LISTINGS_VERSION_TTL_MS: String(TTL_MS) })).addresses;
  // x is no search field (the schema ignores it): a key of its own in the edge cache for each test.
  const search = (x: string) => api.search.$get({ query: unchecked({ x }) });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  afterEach(() => forgetListingsVersion());

  it.each([
    ["bought (marked sold by the purchase, as any writer would)", "UPDATE addresses SET status = 'sold', is_listed = 0 WHERE id = ?"],
    ["deleted by its seller", "UPDATE addresses SET status = 'deleted', is_listed = 0 WHERE id = ?"],
    ["removed from the table", "DELETE FROM addresses WHERE id = ?"],
  ])("%s", async (_, change) => {
    const gone = await insertListing({ rarity: 9 });
    const stays = await insertListing({ rarity: 8 });
    const x = crypto.randomUUID();
    const first = await search(x);
    expect(cacheStatus(first)).toBe("MISS");
    expect(ids((await first.json()) as SearchResponse)).toEqual([gone, stays]);
    expect(cacheStatus(await search(x))).toBe("HIT");

    const changedAt = Date.now();
    await env.DB.prepare(change).bind(gone).run();
    // Within the window the old answer may still be served: that is the stated staleness, not a bug.
    const during = await search(x);
    if (Date.now() - changedAt < TTL_MS) expect(cacheStatus(during)).toBe("HIT");

    await sleep(2 * TTL_MS + 50);
    const after = await search(x);
    expect(cacheStatus(after)).toBe("MISS");
    expect(ids((await after.json()) as SearchResponse)).toEqual([stays]);
    const detail = await api[":id"].$get({ param: { id: String(gone) } });
    if (detail.status === 200) expect(((await detail.json()) as ListingView).status).toBe("sold");
    else expect(detail.status).toBe(404);
  });
});
