// A buyer's own reservation is recognised. A second Buy by the same buyer answers that purchase
// (200, the same id, nothing new written) instead of "reserved by another buyer"; the listing answers say that it
// is reserved and until when, the same to everyone (they are edge-cached), and only GET /api/transactions/open
// tells the signed-in buyer which reservations are theirs.
import { env } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { actors, ethWallet, initiate, listWithKey, purchaseRow, purchaseState, reserve, type Wallet } from "./purchase-fixtures";
import { client } from "./client";

let seller: Wallet;
let buyer: Wallet;
let other: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});
beforeEach(async () => {
  [buyer, other] = await Promise.all([ethWallet(), ethWallet()]);
});

describe("a second Buy by the same buyer", () => {
  it("initiate answers the open purchase again: 200, the same id and expiry, nothing written", async () => {
    const listing = await listWithKey(seller.userId);
    const first = await initiate(buyer, listing.id);
    expect(first.status).toBe(201);
    const a = await first.json();
    const before = await purchaseState();
    const again = await initiate(buyer, listing.id);
    expect(again.status).toBe(200);
    const b = await again.json();
    expect(b).toEqual(a);
    expect(await purchaseState()).toBe(before);
  });

  it("POST /api/transactions (the listing page's call) does the same", async () => {
    const listing = await listWithKey(seller.userId);
    const id = await reserve(buyer, listing.id);
    const res = await client(buyer).transactions.$post({ json: { addressId: listing.id, buyerId: buyer.address } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, transactionId: id });
  });

  it("with a payment reported (pending) the purchase is still answered, so the buyer gets back to it", async () => {
    const listing = await listWithKey(seller.userId);
    const id = await reserve(buyer, listing.id);
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = '0xab' WHERE id = ?").bind(id).run();
    const res = await initiate(buyer, listing.id);
    expect(res.status).toBe(200);
    expect((await res.json()).transactionId).toBe(id);
  });

  it("another buyer is still refused (409 reserved, until when), and gets nothing of the holder's purchase", async () => {
    const listing = await listWithKey(seller.userId);
    const id = await reserve(buyer, listing.id);
    const res = await initiate(other, listing.id);
    expect(res.status).toBe(409);
    const text = await res.text();
    expect(text).not.toContain(id);
    expect(JSON.parse(text)).toMatchObject({ message: "This listing is reserved by another buyer", reservedUntil: expect.any(String) });
  });

  it("a lapsed reservation is not reused: the buyer gets a new one (201), the old one is expired", async () => {
    const listing = await listWithKey(seller.userId);
    const id = await reserve(buyer, listing.id);
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, id)
      .run();
    const res = await initiate(buyer, listing.id);
    expect(res.status).toBe(201);
    expect((await res.json()).transactionId).not.toBe(id);
    expect((await purchaseRow(id))!.status).toBe("expired");
  });

  it("a cancelled reservation is not reused", async () => {
    const listing = await listWithKey(seller.userId);
    const id = await reserve(buyer, listing.id);
    expect((await client(buyer).transactions[":id"].cancel.$post({ param: { id } })).status).toBe(200);
    const res = await initiate(buyer, listing.id);
    expect(res.status).toBe(201);
    expect((await res.json()).transactionId).not.toBe(id);
  });

  it("a buyerId that is not the session's wallet is refused before any reuse (403)", async () => {
    const listing = await listWithKey(seller.userId);
    await reserve(buyer, listing.id);
    expect((await initiate(buyer, listing.id, { buyerId: other.address })).status).toBe(403);
  });
});

describe("GET /api/transactions/open", () => {
  it("the session's own open purchases only, no-store", async () => {
    const [l1, l2, l3] = await Promise.all([listWithKey(seller.userId), listWithKey(seller.userId), listWithKey(seller.userId)]);
    const mine = await reserve(buyer, l1.id);
    const theirs = await reserve(other, l2.id);
    const lapsed = await reserve(buyer, l3.id);
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, lapsed)
      .run();
    const res = await client(buyer).transactions.open.$get();
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const body = await res.json();
    expect(body.purchases).toEqual([
      { transactionId: mine, addressId: l1.id, status: "initiated", expiresAt: new Date(Number((await purchaseRow(mine))!.expires_at)).toISOString() },
    ]);
    expect(JSON.stringify(body)).not.toContain(theirs);
  });

  it("signed out: 401", async () => {
    expect((await client().transactions.open.$get()).status).toBe(401);
  });
});

describe("the listing answers say reserved, and until when, to everyone", () => {
  it("GET /api/addresses/{id}: reservation {until, paymentReported}, no buyer or purchase id; null when free again", async () => {
    const listing = await listWithKey(seller.userId);
    const free = await (await client().addresses[":id"].$get({ param: { id: String(listing.id) } })).json();
    expect(free.reservation).toBeNull();
    const id = await reserve(buyer, listing.id);
    const row = (await purchaseRow(id))!;
    for (const viewer of [undefined, other, buyer]) {
      const res = await client(viewer).addresses[":id"].$get({ param: { id: String(listing.id) } });
      const text = await res.text();
      expect(text).not.toContain(id);
      expect(text.toLowerCase()).not.toContain(buyer.address.toLowerCase());
      expect(JSON.parse(text).reservation).toEqual({ until: new Date(Number(row.expires_at)).toISOString(), paymentReported: false });
    }
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = '0xab' WHERE id = ?").bind(id).run();
    expect((await (await client().addresses[":id"].$get({ param: { id: String(listing.id) } })).json()).reservation).toMatchObject({
      paymentReported: true,
    });
    await env.DB.prepare("UPDATE transactions SET status = 'initiated', expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, id)
      .run();
    expect((await (await client().addresses[":id"].$get({ param: { id: String(listing.id) } })).json()).reservation).toBeNull();
  });

  it("search carries the reservation of each listing it returns", async () => {
    const [held, free] = await Promise.all([listWithKey(seller.userId), listWithKey(seller.userId)]);
    await reserve(buyer, held.id);
    const res = await client().addresses.search.$get({ query: { limit: "50", sortBy: "createdAt", sortOrder: "desc" } });
    const body = await res.json();
    const byId = new Map(body.addresses.map((a) => [a.id, a]));
    expect(byId.get(held.id)?.reservation).toMatchObject({ paymentReported: false, until: expect.any(String) });
    expect(byId.get(free.id)?.reservation).toBeNull();
  });
});

// My Purchases and the purchase page read the same status and failure reason from the API.
describe("the buyer's purchase list agrees with the purchase view", () => {
  it.each([
    ["initiated", null],
    ["pending", null],
    ["cancelled", null],
    ["expired", "expired"],
    ["failed", "underpaid"],
    ["failed", "listing-sold"],
  ] as const)("%s (%s)", async (status, reason) => {
    const w = await ethWallet();
    const listing = await listWithKey(seller.userId);
    const id = await reserve(w, listing.id);
    await env.DB.prepare("UPDATE transactions SET status = ?, failure_reason = ?, tx_hash = CASE WHEN ? = 'initiated' THEN NULL ELSE '0xab' END WHERE id = ?")
      .bind(status, reason, status, id)
      .run();
    const list = await (await client(w).transactions.purchases.$get({ query: {} })).json();
    const view = await (await client(w).transactions[":id"].$get({ param: { id } })).json();
    const item = list.purchases.find((p) => p.id === id)!;
    expect({ status: item.status, failureReason: item.failureReason }).toEqual({ status, failureReason: reason });
    expect({ status: view.status, failureReason: view.failureReason }).toEqual({ status: item.status, failureReason: item.failureReason });
  });
});
