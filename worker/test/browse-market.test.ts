// GET /api/market-stats, /api/prices/live, /api/transactions/recent, and the price source behind every USD figure.
import { env } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RECENT_TRANSACTIONS_LIMIT, type RecentTransaction } from "../../schema/browse";
import { createApp } from "../app";
import { createDb } from "../db/database";
import { isReturningBuyer } from "../http/rate-limit";
import { recomputeMarketTrends } from "../jobs/market-trends";
import { getUsdPrices, PRICE_STALE_LIMIT_MS, PRICE_TTL_MS, resetPriceCache } from "../prices/price-feed";
import { clearBrowseData, insertListing, insertListings, insertUser, toUnits } from "./browse-fixtures";
import { client, clientOf } from "./client";

const DAY = 24 * 60 * 60 * 1000;
const FEED = "https://prices.test/usd";
const withFeed = { ...env, PRICE_FEED_URL: FEED };

/** Replaces fetch for the feed URL only (the network boundary); returns how many times the feed was asked. */
function stubFeed(answer: () => Response | Promise<Response>) {
  const original = globalThis.fetch;
  const calls = { n: 0 };
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url !== FEED) return original(input, init);
    calls.n += 1;
    return answer();
  }) as typeof fetch;
  return { calls, restore: () => (globalThis.fetch = original) };
}

let restore: (() => void) | null = null;
beforeEach(() => resetPriceCache());
afterEach(() => {
  restore?.();
  restore = null;
});

type TxSeed = {
  listing: number;
  buyer?: number | null;
  seller?: number | null;
  price: string;
  currency: "ETH" | "SOL";
  status: string;
  createdAt: number;
  completedAt?: number;
  test?: boolean;
};
let txCounter = 0;
async function insertTransaction(t: TxSeed): Promise<string> {
  txCounter += 1;
  const id = `tx-${txCounter}`;
  await env.DB.prepare(
    `INSERT INTO transactions (id, address_id, buyer_id, seller_id, buyer_wallet, network, price, price_units, currency, total_amount, total_units, status, tx_hash, is_test_data, created_at, completed_at)
     VALUES (?, ?, ?, ?, '0xbuyerwallet', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      id,
      t.listing,
      t.buyer ?? null,
      t.seller ?? null,
      t.currency === "ETH" ? "ethereum" : "solana",
      t.price,
      toUnits(t.price),
      t.currency,
      t.price,
      toUnits(t.price),
      t.status,
      `0xhash${txCounter}`,
      t.test ? 1 : 0,
      t.createdAt,
      t.completedAt ?? (t.status === "completed" ? t.createdAt + 1000 : null),
    )
    .run();
  return id;
}

describe("GET /api/prices/live", () => {
  it("without PRICE_FEED_URL: the spec's fallback rates", async () => {
    const res = await client().prices.live.$get();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ethPrice: 3796, solPrice: 184, source: "fallback", updatedAt: null });
    expect(res.headers.get("cache-control")).toBe("public, max-age=30");
  });

  it.each([
    ["CoinGecko shape", { ethereum: { usd: 2500.5 }, solana: { usd: 150.25 } }],
    ["own shape", { ethPrice: 2500.5, solPrice: 150.25 }],
    ["numeric strings", { ETH: "2500.5", SOL: "150.25" }],
  ])("reads the feed (%s) and caches it", async (_name, payload) => {
    const feed = stubFeed(() => Response.json(payload));
    restore = feed.restore;
    const app = createApp();
    const api = clientOf((input, init) => app.request(input, init, withFeed));
    for (let i = 0; i < 3; i++) {
      const body = await (await api.prices.live.$get()).json();
      expect(body).toMatchObject({ ethPrice: 2500.5, solPrice: 150.25, source: "feed" });
    }
    expect(feed.calls.n).toBe(1);
  });

  it.each([
    ["server error", () => new Response("oops", { status: 500 })],
    ["not JSON", () => new Response("<html>")],
    ["zero", () => Response.json({ ethPrice: 0, solPrice: 184 })],
    ["negative", () => Response.json({ ethPrice: -5, solPrice: 184 })],
    ["absurd", () => Response.json({ ethPrice: 1e12, solPrice: 184 })],
    ["not numbers", () => Response.json({ ethPrice: "abc", solPrice: null })],
    ["network failure", () => Promise.reject(new TypeError("fetch failed"))],
  ])("a broken feed (%s) falls back to the spec's rates", async (_name, answer) => {
    const feed = stubFeed(answer);
    restore = feed.restore;
    const res = await clientOf((input, init) => createApp().request(input, init, withFeed)).prices.live.$get();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ethPrice: 3796, solPrice: 184, source: "fallback", updatedAt: null });
  });

  it("a feed that hangs is abandoned after the timeout", async () => {
    const feed = stubFeed(() => new Promise<Response>(() => {}));
    restore = feed.restore;
    // The stub ignores the abort signal, so this proves the caller does not wait on it forever.
    const started = Date.now();
    const prices = await Promise.race([getUsdPrices(withFeed), new Promise((r) => setTimeout(() => r("still waiting"), 5000))]);
    expect(prices).not.toBe("still waiting");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("serves the last good price while the feed is down, then the fallback once it is too old", async () => {
    let up = true;
    const feed = stubFeed(() => (up ? Response.json({ ethPrice: 2000, solPrice: 100 }) : new Response("down", { status: 503 })));
    restore = feed.restore;
    const t0 = 1_800_000_000_000;
    expect(await getUsdPrices(withFeed, t0)).toMatchObject({ ethPrice: 2000, source: "feed", updatedAt: new Date(t0).toISOString() });
    up = false;
    expect(await getUsdPrices(withFeed, t0 + PRICE_TTL_MS + 1)).toMatchObject({ ethPrice: 2000, source: "feed" });
    expect(await getUsdPrices(withFeed, t0 + PRICE_STALE_LIMIT_MS + 1)).toMatchObject({ ethPrice: 3796, source: "fallback" });
    up = true;
    expect(await getUsdPrices(withFeed, t0 + PRICE_STALE_LIMIT_MS + 60_000)).toMatchObject({ ethPrice: 2000, source: "feed" });
  });
});

describe("GET /api/market-stats", () => {
  const wallets: Record<"buyer" | "oldBuyer" | "orderBuyer", number> = { buyer: 0, oldBuyer: 0, orderBuyer: 0 };
  beforeAll(async () => {
    await clearBrowseData();
    const now = Date.now();
    const [buyer, seller, browser, oldBuyer, expired] = [
      await insertUser("buyer", "0xb1"),
      await insertUser("seller", "0xb2"),
      await insertUser("browser", "0xb3"),
      await insertUser("old", "0xb4"),
      await insertUser("expired", "0xb5"),
    ];
    const lister = await insertUser("lister", "0xb6");
    const oldLister = await insertUser("old-lister", "0xb7");
    const [eth1, , eth2] = await insertListings([
      { price: "1", currency: "ETH", sellerId: lister, createdAt: now - 2 * DAY },
      { price: "1.5", currency: "ETH", sellerId: oldLister, createdAt: now - 45 * DAY, status: "inactive" },
      { price: "0.5", currency: "ETH" },
      { price: "10", currency: "SOL" },
    ]);
    const soldEth = await insertListing({ price: "2", currency: "ETH", status: "sold", isListed: false });
    const soldSol = await insertListing({ price: "5", currency: "SOL", status: "sold", isListed: false });
    await insertListings([
      { price: "100", status: "deleted" },
      { price: "100", status: "inactive" },
      { price: "100", isListed: false },
    ]);

    await insertTransaction({ listing: soldEth, buyer, seller, price: "1.1", currency: "ETH", status: "completed", createdAt: now - 10 * DAY });
    await insertTransaction({ listing: soldSol, buyer, seller, price: "5", currency: "SOL", status: "completed", createdAt: now - 5 * DAY });
    await insertTransaction({ listing: eth1, buyer: oldBuyer, price: "3", currency: "ETH", status: "pending", createdAt: now - 40 * DAY });
    // A listing is sold once (transactions_one_sale_per_listing): the test-data sale is of another sold listing.
    const soldTest = await insertListing({ price: "7", currency: "ETH", status: "sold", isListed: false });
    await insertTransaction({ listing: soldTest, buyer: oldBuyer, price: "7", currency: "ETH", status: "completed", createdAt: now - 1 * DAY, test: true });
    await insertTransaction({ listing: soldEth, price: "9", currency: "ETH", status: "failed", createdAt: now });
    await insertTransaction({ listing: eth2, buyer: browser, price: "1", currency: "ETH", status: "pending", createdAt: now - DAY });
    // A custom order's purchase, completed half a day ago: its hidden listing (no seller, never listed, inactive once
    // settled) is the address the order found. Not a market sale: no volume, no active buyer, no trend.
    const orderBuyer = await insertUser("order-buyer", "0xb8");
    Object.assign(wallets, { buyer, oldBuyer, orderBuyer });
    const orderListing = await insertListing({ price: "4", currency: "ETH", status: "inactive", isListed: false });
    await env.DB.prepare(
      `INSERT INTO custom_orders (buyer_id, buyer_wallet, public_key, prefix, suffix, case_sensitive, difficulty_bits, price, price_units, currency, status, found_address, created_at, updated_at)
       SELECT ?, '0xb8', 'pk', 'ab', '', 0, 8, '4', ?, 'ETH', 'delivered', address, ?, ? FROM addresses WHERE id = ?`,
    )
      .bind(orderBuyer, toUnits("4"), now, now, orderListing)
      .run();
    await insertTransaction({ listing: orderListing, buyer: orderBuyer, price: "4", currency: "ETH", status: "completed", createdAt: now - DAY / 2 });
    await env.DB.batch([
      env.DB.prepare("INSERT INTO sessions (id_hash, user_id, network, wallet_address, expires_at) VALUES ('s1', ?, 'ethereum', '0xb3', ?)").bind(
        browser,
        now + DAY,
      ),
      env.DB.prepare("INSERT INTO sessions (id_hash, user_id, network, wallet_address, expires_at) VALUES ('s2', ?, 'ethereum', '0xb1', ?)").bind(
        buyer,
        now + DAY,
      ),
      env.DB.prepare("INSERT INTO sessions (id_hash, user_id, network, wallet_address, expires_at) VALUES ('s3', ?, 'ethereum', '0xb5', ?)").bind(
        expired,
        now - 1,
      ),
    ]);
  });

  it("follows the README definitions", async () => {
    const res = await client()["market-stats"].$get();
    expect(res.status).toBe(200);
    const stats = await res.json();
    const solInEth = (sol: number) => (sol * 184) / 3796;
    expect(stats).toEqual({
      // active and listed only
      totalAddresses: 3,
      // completed, real transactions, SOL converted at the current rates
      totalVolume: Math.round((1.1 + solInEth(5)) * 1e8) / 1e8,
      // buyer + seller (a completed purchase within 30 days) + lister (listed within 30 days); a live session
      // alone (browser), a pending purchase, an old listing, test data or an expired session count for nothing
      activeUsers: 3,
      // average asking price of the active listed listings, in ETH
      avgPrice: Math.round(((1 + 0.5 + solInEth(10)) / 3) * 1e8) / 1e8,
    });
    expect(res.headers.get("cache-control")).toBe("public, max-age=30");
  });

  it("market trends count the market sales of the last 24 hours only: not the test-data sale, not the custom order's purchase", async () => {
    await recomputeMarketTrends(createDb(env.DB), Date.now());
    const sold = await env.DB.prepare("SELECT sum(sold_count) AS n, sum(total_volume) AS volume FROM market_trends WHERE period = '24h'").first();
    expect(sold).toEqual({ n: 0, volume: 0 });
  });

  it("a returning buyer is one who paid for a purchase, a custom order's included (it paid a price and fees too); a test-data sale does not count", async () => {
    const db = createDb(env.DB);
    expect(await isReturningBuyer(db, wallets.buyer)).toBe(true);
    expect(await isReturningBuyer(db, wallets.oldBuyer)).toBe(false);
    expect(await isReturningBuyer(db, wallets.orderBuyer)).toBe(true);
  });

  it("follows listing changes through the counts the triggers keep", async () => {
    await env.DB.prepare("UPDATE addresses SET status = 'inactive' WHERE price = '0.5'").run();
    expect(await (await client()["market-stats"].$get()).json()).toMatchObject({
      totalAddresses: 2,
      avgPrice: Math.round(((1 + (10 * 184) / 3796) / 2) * 1e8) / 1e8,
    });
    await env.DB.prepare("UPDATE addresses SET price = '2', price_units = 200000000 WHERE price = '1' AND status = 'active'").run();
    expect(await (await client()["market-stats"].$get()).json()).toMatchObject({
      totalAddresses: 2,
      avgPrice: Math.round(((2 + (10 * 184) / 3796) / 2) * 1e8) / 1e8,
    });
  });

  it("uses the live rate for SOL amounts", async () => {
    const feed = stubFeed(() => Response.json({ ethPrice: 1000, solPrice: 100 }));
    restore = feed.restore;
    const stats = await (await clientOf((input, init) => createApp().request(input, init, withFeed))["market-stats"].$get()).json();
    expect(stats.totalVolume).toBe(1.6);
  });

  it("an empty market is all zeros", async () => {
    await clearBrowseData();
    expect(await (await client()["market-stats"].$get()).json()).toEqual({ totalAddresses: 0, totalVolume: 0, activeUsers: 0, avgPrice: 0 });
  });
});

describe("GET /api/transactions/recent", () => {
  // A completed sale is a public fact; an open reservation is not public activity, and nothing is
  // said about the buyer beyond what the chain shows (the chain never links the payer to the address bought).
  let sales: string[];
  let open: string[];
  let late: string;
  beforeAll(async () => {
    await clearBrowseData();
    const now = Date.now();
    const alice = await insertUser("alice", "0xa1");
    const bob = await insertUser("bob", "0xa2");
    const listings = await insertListings(Array.from({ length: 21 }, (_, i) => ({ rarity: 5 + i / 10, network: i % 2 ? "solana" : "ethereum" })));
    const completed: { id: string; at: number }[] = [];
    open = [];
    for (let i = 0; i < 15; i++) {
      const currency = i % 2 ? "SOL" : "ETH";
      const seed = { listing: listings[i], buyer: alice, seller: i === 0 ? null : bob, price: "0.5", currency, createdAt: now - i * 60_000 } as const;
      if (i % 3 === 0) open.push(await insertTransaction({ ...seed, status: "pending" }));
      else completed.push({ id: await insertTransaction({ ...seed, status: "completed", completedAt: now - i * 60_000 + 1000 }), at: now - i * 60_000 + 1000 });
    }
    // Reserved before all of them but paid last, the next day: a sale is as recent as its completion.
    completed.push({
      id: await insertTransaction({
        listing: listings[15],
        buyer: bob,
        seller: alice,
        price: "2",
        currency: "ETH",
        status: "completed",
        createdAt: now - DAY,
        completedAt: now + DAY,
      }),
      at: now + DAY,
    });
    // Open reservations newer than every sale, one per open status (a made-up hash on a pending one, as a hostile buyer could report).
    for (const [k, status] of (["initiated", "pending"] as const).entries()) {
      open.push(await insertTransaction({ listing: listings[16 + k], buyer: alice, price: "9", currency: "ETH", status, createdAt: now + 10_000 + k }));
    }
    await insertTransaction({ listing: listings[19], buyer: alice, price: "1", currency: "ETH", status: "failed", createdAt: now + 1000 });
    await insertTransaction({ listing: listings[19], buyer: alice, price: "1", currency: "ETH", status: "cancelled", createdAt: now + 2000 });
    await insertTransaction({
      listing: listings[20],
      buyer: alice,
      price: "1",
      currency: "SOL",
      status: "completed",
      createdAt: now + 3000,
      completedAt: now + 9000,
      test: true,
    });
    // Newest day first, and within a day by id: never by the time of completion (docs/public-surface.md#what-a-public-sale-shows).
    const day = (at: number) => Math.floor(at / DAY);
    sales = completed.sort((a, b) => day(b.at) - day(a.at) || (a.id < b.id ? 1 : -1)).map((c) => c.id);
    late = completed.find((c) => c.at === now + DAY)!.id;
    expect(sales.length).toBeGreaterThan(RECENT_TRANSACTIONS_LIMIT);
  });

  it(`the latest ${RECENT_TRANSACTIONS_LIMIT} completed sales, newest day first, naming neither buyer nor seller`, async () => {
    const res = await client().transactions.recent.$get();
    expect(res.status).toBe(200);
    const body = (await res.json()) as RecentTransaction[];
    expect(body.map((t) => t.id)).toEqual(sales.slice(0, RECENT_TRANSACTIONS_LIMIT));
    expect(body.every((t) => t.status === "completed" && /^\d{4}-\d{2}-\d{2}$/.test(t.completedAt ?? ""))).toBe(true);
    expect(body[0].id).toBe(late);
    expect(Object.keys(body[1]).sort()).toEqual(["address", "buyer", "completedAt", "createdAt", "currency", "id", "network", "price", "seller", "status"]);
    expect(body[0]).toMatchObject({ status: "completed", price: "2", currency: "ETH", network: "ethereum", buyer: null, seller: null });
    const sol = body.find((t) => t.network === "solana")!;
    expect(sol).toMatchObject({ status: "completed", currency: "SOL", buyer: null, seller: null });
    expect(Object.keys(sol.address).sort()).toEqual(["address", "id", "network", "rarityScore"]);
    expect(sol.address.rarityScore).toMatch(/^5\.\d$/);
  });

  it("never an open reservation (initiated, pending), a failed or cancelled purchase, or test data", async () => {
    const body = (await (await client().transactions.recent.$get()).json()) as RecentTransaction[];
    const ids = body.map((t) => t.id);
    for (const id of open) expect(ids).not.toContain(id);
    expect(body.some((t) => t.status !== "completed")).toBe(false);
    expect(body.some((t) => t.price === "1" || t.price === "9")).toBe(false);
  });

  it("nothing about the buyer: no username, wallet, hash or key", async () => {
    const res = await client().transactions.recent.$get();
    const text = await res.text();
    expect((JSON.parse(text) as RecentTransaction[]).every((t) => t.buyer === null)).toBe(true);
    expect(text).not.toContain('"buyer":{');
    expect(text).not.toMatch(/0xa1|0xa2|buyerwallet|0xhash|wallet|private/i);
  });

  it("nothing about the seller either: a username is part of their wallet (eth_0xf39fd6b92266), not a name", async () => {
    const text = await (await client().transactions.recent.$get()).text();
    expect((JSON.parse(text) as RecentTransaction[]).every((t) => t.seller === null)).toBe(true);
    expect(text).not.toMatch(/alice|bob|"username"/);
  });
});
