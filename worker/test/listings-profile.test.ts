// The admin profile's lists: GET /api/addresses/user ("My Listings") and GET /api/transactions/user
// ("Transaction History": sales and purchases merged, newest first). Admin only; the session decides whose.
import { beforeAll, describe, expect, it } from "vitest";
import type { ListingView } from "../../schema/browse";
import type { UserTransaction } from "../../schema/listings";
import { type Caller, insertTransaction, signInAll } from "./listing-fixtures";
import { insertListing } from "./browse-fixtures";
import { client } from "./client";

let admin: Caller;
let user: Caller;
let other: Caller;
beforeAll(async () => {
  ({ admin, user, other } = await signInAll());
});

describe("GET /api/addresses/user", () => {
  let mine: number[];
  beforeAll(async () => {
    const t = Date.now() - 50_000;
    mine = [
      await insertListing({ sellerId: admin.userId, createdAt: t }),
      await insertListing({ sellerId: admin.userId, status: "sold", isListed: false, createdAt: t + 1 }),
    ];
    await insertListing({ sellerId: admin.userId, status: "deleted", isListed: false, createdAt: t + 2 });
    await insertListing({ sellerId: user.userId, createdAt: t + 3 });
  });

  it("the admin's own listings, newest first, deleted ones left out; walletAddress cannot pick someone else", async () => {
    const res = await client(admin).addresses.user.$get({ query: { walletAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ListingView[];
    expect(body.map((l) => l.id)).toEqual([mine[1], mine[0]]);
    expect(body.every((l) => l.isOwner)).toBe(true);
    expect(body[0]).toMatchObject({ status: "sold", currency: "ETH" });
  });

  it("paging with limit and offset", async () => {
    const body = (await (await client(admin).addresses.user.$get({ query: { limit: "1", offset: "1" } })).json()) as ListingView[];
    expect(body.map((l) => l.id)).toEqual([mine[0]]);
  });

  it("401 signed out, 403 for a non-admin (the spec's admin-only list), 400 for bad paging", async () => {
    expect((await client().addresses.user.$get({ query: {} })).status).toBe(401);
    expect((await client(user).addresses.user.$get({ query: {} })).status).toBe(403);
    for (const query of [{ limit: "0" }, { limit: "501" }, { limit: "x" }, { offset: "-1" }, { walletAddress: "a".repeat(200) }]) {
      expect((await client(admin).addresses.user.$get({ query })).status, JSON.stringify(query)).toBe(400);
    }
  });
});

describe("GET /api/transactions/user", () => {
  let ids: { sale: string; purchase: string; older: string };
  beforeAll(async () => {
    const t = Date.now() - 100_000;
    const sold = await insertListing({ sellerId: admin.userId, status: "sold", isListed: false, rarity: 0 });
    const bought = await insertListing({ sellerId: other.userId, rarity: 0 });
    const older = await insertTransaction(sold, { status: "failed", buyerId: user.userId, sellerId: admin.userId, createdAt: t });
    const sale = await insertTransaction(sold, { status: "completed", buyerId: user.userId, sellerId: admin.userId, createdAt: t + 10, price: "2" });
    const purchase = await insertTransaction(bought, { status: "pending", buyerId: admin.userId, sellerId: other.userId, createdAt: t + 20 });
    await insertTransaction(bought, { status: "failed", buyerId: user.userId, sellerId: other.userId, createdAt: t + 30 });
    ids = { sale, purchase, older };
  });

  it("sales and purchases merged, newest first, with the address, usernames and role", async () => {
    const res = await client(admin).transactions.user.$get({ query: { walletAddress: "anything" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as UserTransaction[];
    expect(body.map((t) => [t.id, t.role])).toEqual([
      [ids.purchase, "purchase"],
      [ids.sale, "sale"],
      [ids.older, "sale"],
    ]);
    expect(body[1]).toMatchObject({
      status: "completed",
      price: "2",
      currency: "ETH",
      buyer: { username: expect.any(String) },
      seller: { username: expect.any(String) },
    });
    expect(body[1].address).toMatchObject({ network: "ethereum", rarityScore: "0.0" });
    expect(Date.parse(body[0].createdAt)).toBeGreaterThan(Date.parse(body[1].createdAt));
  });

  it("401 signed out, 403 for a non-admin", async () => {
    expect((await client().transactions.user.$get({ query: {} })).status).toBe(401);
    expect((await client(user).transactions.user.$get({ query: {} })).status).toBe(403);
  });
});
