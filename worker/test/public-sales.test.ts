// Completed sales are public facts; their public views (GET /api/transactions/sales, /sales/{id})
// show the listing sold, its price, the day (never the time) and network, never the buyer nor the payment that would
// name them,
// and nothing else is a sale: open, failed, cancelled or expired purchases and test data are not
// listed and have no sale page.
import { env } from "cloudflare:test";
import { base58 } from "@scure/base";
import { beforeAll, describe, expect, it } from "vitest";
import type { PublicSale } from "../../schema/browse";
import type { ListingContext } from "../../schema/listing-context";
import { actors, ethWallet, listWithKey, reserve, solWallet, type Wallet } from "./purchase-fixtures";
import { client, unchecked } from "./client";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const hash = () => `0x${Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("")}`;

async function sale(buyer: Wallet, network: "ethereum" | "solana" = "ethereum", completedAt = Date.now()) {
  const listing = await listWithKey(seller.userId, { network });
  const id = await reserve(buyer, listing.id);
  const txHash = network === "ethereum" ? hash() : base58.encode(crypto.getRandomValues(new Uint8Array(64)));
  await env.DB.prepare("UPDATE transactions SET status = 'completed', tx_hash = ?, completed_at = ? WHERE id = ?").bind(txHash, completedAt, id).run();
  await env.DB.prepare("UPDATE addresses SET status = 'sold' WHERE id = ?").bind(listing.id).run();
  return { id, listing, txHash };
}

const sales = async (query: { network?: "ethereum" | "solana"; page?: string; limit?: string } = {}) =>
  (await client().transactions.sales.$get({ query })).json();

describe("GET /api/transactions/sales/{id}: one public sale", () => {
  it("the address, price, day, network and the listing; cacheable; nothing that names the buyer", async () => {
    for (const network of ["ethereum", "solana"] as const) {
      const buyer = network === "ethereum" ? await ethWallet() : await solWallet();
      const s = await sale(buyer, network);
      const res = await client().transactions.sales[":id"].$get({ param: { id: s.id } });
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toBe("public, max-age=30");
      const text = await res.text();
      const body = JSON.parse(text) as PublicSale;
      expect(Object.keys(body).sort()).toEqual(["address", "currency", "id", "listingId", "network", "price", "rarityScore", "soldOn"]);
      expect(body).toMatchObject({ id: s.id, listingId: s.listing.id, network });
      // Not the buyer's wallet, and not the payment: one explorer lookup of its hash gives the buyer's wallet.
      expect(text.toLowerCase()).not.toContain(network === "ethereum" ? buyer.address.toLowerCase().slice(2) : buyer.address.toLowerCase());
      expect(text).not.toContain(s.txHash.slice(network === "ethereum" ? 2 : 0, 40));
      expect(text).not.toMatch(/buyer|wallet|username|private|key|hash|signature/i);
    }
  });

  it("an open, cancelled, expired or failed purchase, test data, an unknown id: 404 (to everyone, its buyer too)", async () => {
    const buyer = await ethWallet();
    const open = await reserve(buyer, (await listWithKey(seller.userId)).id);
    expect((await client().transactions.sales[":id"].$get({ param: { id: open } })).status).toBe(404);
    expect((await client(buyer).transactions.sales[":id"].$get({ param: { id: open } })).status).toBe(404);
    for (const status of ["pending", "cancelled", "expired", "failed"]) {
      const id = await reserve(await ethWallet(), (await listWithKey(seller.userId)).id);
      await env.DB.prepare("UPDATE transactions SET status = ?, tx_hash = ? WHERE id = ?").bind(status, hash(), id).run();
      expect((await client().transactions.sales[":id"].$get({ param: { id } })).status, status).toBe(404);
    }
    const test = await sale(await ethWallet());
    await env.DB.prepare("UPDATE transactions SET is_test_data = 1 WHERE id = ?").bind(test.id).run();
    expect((await client().transactions.sales[":id"].$get({ param: { id: test.id } })).status).toBe(404);
    expect((await client().transactions.sales[":id"].$get({ param: { id: crypto.randomUUID() } })).status).toBe(404);
  });

  it("a malformed id: 400, never a 500", async () => {
    for (const id of ["1", "x'--", "%00", "a".repeat(300)]) {
      const res = await client().transactions.sales[":id"].$get({ param: { id } });
      expect(res.status, id).toBe(400);
    }
  });
});

describe("GET /api/addresses/{id}/context: a sold listing's own sale", () => {
  const context = async (id: number) => (await (await client().addresses[":id"].context.$get({ param: { id: String(id) } })).json()) as ListingContext;

  it("sold: the sale's id (its page), price, currency and day, as /sales/{id} shows them", async () => {
    const soldAt = Date.UTC(2026, 2, 5, 14, 30);
    const s = await sale(await ethWallet(), "ethereum", soldAt);
    const ctx = await context(s.listing.id);
    const page = (await (await client().transactions.sales[":id"].$get({ param: { id: s.id } })).json()) as PublicSale;
    expect(ctx.sale).toEqual(page);
    expect(ctx.sale).toMatchObject({ id: s.id, listingId: s.listing.id, soldOn: "2026-03-05" });
  });

  it("not sold, or sold as test data: no sale", async () => {
    expect((await context((await listWithKey(seller.userId)).id)).sale).toBeNull();
    const test = await sale(await ethWallet());
    await env.DB.prepare("UPDATE transactions SET is_test_data = 1 WHERE id = ?").bind(test.id).run();
    expect((await context(test.listing.id)).sale).toBeNull();
  });
});

describe("GET /api/transactions/sales: the activity page", () => {
  it("completed sales only, newest day first, paged, by network", async () => {
    const base = Date.now() + 10 * DAY; // newer than anything else in this database
    const eth = await Promise.all([0, 1, 2].map(async (i) => sale(await ethWallet(), "ethereum", base + i * DAY)));
    const sol = await sale(await solWallet(), "solana", base + 5 * DAY);
    const open = await reserve(await ethWallet(), (await listWithKey(seller.userId)).id);

    const first = await sales({ limit: "2" });
    expect(first.sales.map((s) => s.id)).toEqual([sol.id, eth[2].id]);
    expect(first.pagination).toMatchObject({ page: 1, hasPrevPage: false, hasNextPage: true });
    const second = await sales({ limit: "2", page: "2" });
    expect(second.sales.map((s) => s.id)).toEqual([eth[1].id, eth[0].id]);
    expect(first.pagination.total).toBe(second.pagination.total);

    const onlyEth = await sales({ network: "ethereum", limit: "3" });
    expect(onlyEth.sales.map((s) => s.id)).toEqual([eth[2].id, eth[1].id, eth[0].id]);
    expect(onlyEth.sales.every((s) => s.network === "ethereum")).toBe(true);
    const onlySol = await sales({ network: "solana", limit: "1" });
    expect(onlySol.sales.map((s) => s.id)).toEqual([sol.id]);

    const all = JSON.stringify(await sales({ limit: "50" }));
    expect(all).not.toContain(open);
    // No payment hash in the feed either.
    for (const s of [...eth, sol]) expect(all).not.toContain(s.txHash.slice(2, 40));
    expect(all).not.toMatch(/txHash|signature/i);
  });

  it("never a time finer than the day: each sale says its UTC day, and sales of one day are in no order of time", async () => {
    // A day far ahead of the other tests' sales, so this day's page holds these alone.
    const day = Date.UTC(2031, 2, 4);
    const times = [day + 13 * HOUR + 37 * 60_000 + 21_123, day + 9 * HOUR + 1, day + 23 * HOUR + 59 * 60_000 + 59_999, day + 1];
    const made: Awaited<ReturnType<typeof sale>>[] = [];
    for (const at of times) made.push(await sale(await ethWallet(), "ethereum", at));
    const page = await sales({ limit: "4" });
    expect(page.sales.map((s) => s.soldOn)).toEqual(["2031-03-04", "2031-03-04", "2031-03-04", "2031-03-04"]);
    // Within the day: by the sale's random id, never by when it completed.
    expect(page.sales.map((s) => s.id)).toEqual(
      made
        .map((m) => m.id)
        .sort()
        .reverse(),
    );
    const one = await (await client().transactions.sales[":id"].$get({ param: { id: made[0].id } })).text();
    const recent = await (await client().transactions.recent.$get()).text();
    for (const text of [JSON.stringify(page), one, recent]) {
      // No clock time in any form: no "T13:37", no epoch milliseconds or seconds of these sales.
      expect(text).not.toMatch(/T\d{2}:\d{2}/);
      for (const at of times) {
        expect(text).not.toContain(String(at));
        expect(text).not.toContain(String(Math.floor(at / 1000)));
      }
    }
    expect(JSON.parse(one)).toMatchObject({ soldOn: "2031-03-04" });
    const feed = JSON.parse(recent) as { id: string; completedAt: string; createdAt: string }[];
    expect(feed.filter((r) => made.some((m) => m.id === r.id)).map((r) => [r.completedAt, r.createdAt])).toEqual(times.map(() => ["2031-03-04", "2031-03-04"]));
  });

  it("bad parameters: 400 with a message, never a 500", async () => {
    for (const query of [{ network: "bitcoin" }, { page: "0" }, { page: "-1" }, { limit: "0" }, { limit: "51" }, { limit: "abc" }, { page: "1e9" }]) {
      const res = await client().transactions.sales.$get({ query: unchecked(query) });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(await res.json()).toMatchObject({ message: expect.any(String) });
    }
  });
});
