// Reserving a listing: POST /api/transactions/initiate and POST /api/transactions, their guards, expiry and
// cancelling. No chain node runs in this project: reserving must not need one.
import { env } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_OPEN_RESERVATIONS } from "../../schema/purchases";
import { expireReservations } from "../purchases/payment-jobs";
import { createDb } from "../db/database";
import { actors, call, ethWallet, initiate, listWithKey, purchaseRow, purchaseState, reserve, solWallet, type Wallet } from "./purchase-fixtures";
import { inFreshRateWindow } from "./helpers";
import { client, unchecked, refusal } from "./client";

let seller: Wallet;
let buyer: Wallet;
let other: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});
// Fresh wallets per test: initiate is rate limited per wallet.
beforeEach(async () => {
  [buyer, other] = await Promise.all([ethWallet(), ethWallet()]);
});

describe("who may reserve", () => {
  it("signed out: 401, nothing written", async () => {
    const listing = await listWithKey(seller.userId);
    const before = await purchaseState();
    const res = await client().transactions.initiate.$post({ json: { addressId: listing.id, buyerId: buyer.address } });
    expect(res.status).toBe(401);
    expect(await purchaseState()).toBe(before);
  });

  it("a buyerId that is not the session's wallet: 403", async () => {
    const listing = await listWithKey(seller.userId);
    const res = await initiate(buyer, listing.id, { buyerId: other.address });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "Forbidden", message: expect.stringContaining("buyerId") });
  });

  it("buyerId in another letter case is the same Ethereum wallet", async () => {
    const listing = await listWithKey(seller.userId);
    expect((await initiate(buyer, listing.id, { buyerId: buyer.address.toUpperCase().replace("0X", "0x") })).status).toBe(201);
  });

  it("a Solana wallet cannot buy an Ethereum listing (and the other way round): 403", async () => {
    const eth = await listWithKey(seller.userId);
    const sol = await listWithKey(seller.userId, { network: "solana" });
    const solBuyer = await solWallet();
    expect((await initiate(solBuyer, eth.id)).status).toBe(403);
    expect((await initiate(buyer, sol.id)).status).toBe(403);
    expect((await initiate(solBuyer, sol.id)).status).toBe(201);
  });

  it("the seller cannot buy their own listing: 403", async () => {
    const listing = await listWithKey(buyer.userId);
    expect((await initiate(buyer, listing.id)).status).toBe(403);
  });
});

describe("what may be reserved", () => {
  it("a missing or deleted listing: 404", async () => {
    expect((await initiate(buyer, 987654)).status).toBe(404);
    const deleted = await listWithKey(seller.userId, { status: "deleted" });
    expect((await initiate(buyer, deleted.id)).status).toBe(404);
  });

  it("sold or inactive: 409 not available", async () => {
    for (const status of ["sold", "inactive"]) {
      const listing = await listWithKey(seller.userId, { status });
      const res = await initiate(buyer, listing.id);
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ message: "This listing is not available for purchase" });
    }
  });

  it("listed = false: 409", async () => {
    const listing = await listWithKey(seller.userId);
    await env.DB.prepare("UPDATE addresses SET is_listed = 0 WHERE id = ?").bind(listing.id).run();
    expect((await initiate(buyer, listing.id)).status).toBe(409);
  });

  it("a client price that differs from the server's: 409 with the current price, nothing reserved", async () => {
    const listing = await listWithKey(seller.userId, { price: "0.5" });
    const before = await purchaseState();
    const res = await initiate(buyer, listing.id, { price: 0.4 });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: "Conflict", currentPrice: "0.5" });
    expect(await purchaseState()).toBe(before);
  });

  it("the same price as a number or a string is accepted", async () => {
    const a = await listWithKey(seller.userId, { price: "0.5" });
    const b = await listWithKey(seller.userId, { price: "0.5" });
    expect((await initiate(buyer, a.id, { price: 0.5, currency: "ETH", membershipTier: "basic" })).status).toBe(201);
    expect((await initiate(other, b.id, { price: "0.50000000" })).status).toBe(201);
  });

  it("a currency other than the listing's: 409", async () => {
    const listing = await listWithKey(seller.userId);
    expect((await initiate(buyer, listing.id, { currency: "SOL" })).status).toBe(409);
  });
});

describe("a reservation", () => {
  it("201 with the server's fees, a 15-minute expiry, and the amount in wei computed exactly", async () => {
    const w = await ethWallet();
    const listing = await listWithKey(seller.userId, { price: "0.12345678" });
    const t0 = Date.now();
    const res = await initiate(w, listing.id);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.feeCalculation).toEqual({ listingPrice: "0.12345678", gasFee: "0.0001", totalAmount: "0.12355678" });
    const expires = Date.parse(body.expiresAt) - t0;
    expect(expires).toBeGreaterThanOrEqual(15 * 60_000 - 50);
    expect(expires).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    const row = await purchaseRow(body.transactionId);
    expect(row).toMatchObject({
      status: "initiated",
      buyer_id: w.userId,
      seller_id: seller.userId,
      price: "0.12345678",
      total_amount: "0.12345678",
      amount_base_units: "123456780000000000",
    });
    // Gas estimate recorded (the node is down in this project: the spec's fallback).
    const gas = await env.DB.prepare("SELECT estimated_cost FROM gas_estimation_audit WHERE transaction_id = ?").bind(body.transactionId).first();
    expect(gas).toEqual({ estimated_cost: "0.0001" });
  });

  it("Solana: lamports = units x 10, and a fresh 32-byte reference key", async () => {
    const w = await solWallet();
    const listing = await listWithKey(seller.userId, { network: "solana", price: "1.23456789" });
    const id = await reserve(w, listing.id);
    const row = await purchaseRow(id);
    expect(row).toMatchObject({ amount_base_units: "1234567890", currency: "SOL" });
    expect(String(row!.payment_reference)).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  });

  it("POST /api/transactions {addressId}: the other buy-flow variant", async () => {
    const w = await ethWallet();
    const listing = await listWithKey(seller.userId);
    const res = await client(w).transactions.$post({ json: { addressId: String(listing.id) } });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.id).toBe(body.transactionId);
  });

  it("a second buyer: 409 reserved, saying until when", async () => {
    const listing = await listWithKey(seller.userId);
    const id = await reserve(buyer, listing.id);
    const res = await initiate(other, listing.id);
    expect(res.status).toBe(409);
    const body = await refusal(res);
    expect(body).toMatchObject({ message: "This listing is reserved by another buyer" });
    expect(Date.parse(body.reservedUntil as string)).toBe(Number((await purchaseRow(id))!.expires_at));
  });

  it("50 buyers at once on one listing: exactly one reservation", async () => {
    const listing = await listWithKey(seller.userId);
    const wallets = await Promise.all(Array.from({ length: 50 }, () => ethWallet()));
    const statuses = await Promise.all(wallets.map((w) => initiate(w, listing.id).then((r) => r.status as number)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM transactions WHERE address_id = ?").bind(listing.id).first<{ n: number }>();
    expect(n!.n).toBe(1);
  }, 30_000);

  it(`a buyer holds at most ${MAX_OPEN_RESERVATIONS} open reservations, even asking for 6 at once`, async () => {
    const w = await ethWallet();
    const listings = await Promise.all(Array.from({ length: 6 }, () => listWithKey(seller.userId)));
    const statuses = await Promise.all(listings.map((l) => initiate(w, l.id).then((r) => r.status as number)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_OPEN_RESERVATIONS);
    expect(statuses.filter((s) => s === 409)).toHaveLength(6 - MAX_OPEN_RESERVATIONS);
    // Asking again for a listing that lost the race is refused for the limit (one that won would answer the
    // buyer's own open purchase: which three win is up to the race).
    const refused = listings[statuses.indexOf(409)];
    const fourth = await initiate(w, refused.id);
    expect(fourth.status).toBe(409);
    expect(await fourth.json()).toMatchObject({ message: expect.stringContaining("3 open reservations") });
  });

  it("initiate is rate limited per wallet: 429 after 10 a minute", async () => {
    await inFreshRateWindow();
    const w = await ethWallet();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await initiate(w, 999_000 + i)).status);
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("expiry and cancelling", () => {
  it("after 15 minutes unpaid the listing is free again: a new buyer gets it, the old reservation is expired", async () => {
    const listing = await listWithKey(seller.userId);
    const id = await reserve(buyer, listing.id);
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, id)
      .run();
    expect((await initiate(other, listing.id)).status).toBe(201);
    expect((await purchaseRow(id))!.status).toBe("expired");
  });

  it("the cron job's expiry: only initiated reservations past their time", async () => {
    const a = await listWithKey(seller.userId);
    const b = await listWithKey(seller.userId);
    const w = await ethWallet();
    const old = await reserve(w, a.id);
    const fresh = await reserve(w, b.id);
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, old)
      .run();
    const pending = await reserve(w, (await listWithKey(seller.userId)).id);
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = '0xab', expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, pending)
      .run();
    await expireReservations(createDb(env.DB));
    expect((await purchaseRow(old))!.status).toBe("expired");
    expect((await purchaseRow(fresh))!.status).toBe("initiated");
    // A reported payment is verified (and then settled or failed), never silently expired.
    expect((await purchaseRow(pending))!.status).toBe("pending");
  });

  it("the buyer cancels an unpaid reservation; the listing is available again", async () => {
    const listing = await listWithKey(seller.userId);
    const id = await reserve(buyer, listing.id);
    expect((await client(other).transactions[":id"].cancel.$post({ param: { id } })).status).toBe(404);
    const res = await client(buyer).transactions[":id"].cancel.$post({ param: { id } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, status: "cancelled" });
    expect((await client(buyer).transactions[":id"].cancel.$post({ param: { id } })).status).toBe(409);
    expect((await initiate(other, listing.id)).status).toBe(201);
  });

  it("a reservation with a reported payment cannot be cancelled", async () => {
    const listing = await listWithKey(seller.userId);
    const w = await ethWallet();
    const id = await reserve(w, listing.id);
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = '0xab' WHERE id = ?").bind(id).run();
    expect((await client(w).transactions[":id"].cancel.$post({ param: { id } })).status).toBe(409);
    expect((await client().transactions[":id"].cancel.$post({ param: { id } })).status).toBe(401);
  });
});

describe("hostile input never yields a 500 or changes data", () => {
  const bodies: [string, unknown][] = [
    ["no body fields", {}],
    ["addressId missing", { buyerId: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }],
    ["addressId negative", { addressId: -1, buyerId: "x" }],
    ["addressId fractional", { addressId: 1.5, buyerId: "x" }],
    ["addressId huge", { addressId: "9".repeat(400), buyerId: "x" }],
    ["addressId an object", { addressId: { $gt: 0 }, buyerId: "x" }],
    ["buyerId huge", { addressId: 1, buyerId: "x".repeat(10_000) }],
    ["buyerId a number", { addressId: 1, buyerId: 5 }],
    ["price an array", { addressId: 1, buyerId: "x", price: [1] }],
    ["currency unknown", { addressId: 1, buyerId: "x", currency: "BTC" }],
    ["membershipTier premium", { addressId: 1, buyerId: "x", membershipTier: "gold" }],
    ["an array body", [1, 2]],
    ["a string body", '"hi"'],
    ["broken JSON", "{"],
  ];
  it.each(bodies)("%s: 400 Validation Error", async (_name, body) => {
    const before = await purchaseState();
    // String cases are sent as they are (JSON text that is not an object, broken JSON), not JSON-encoded again.
    const res =
      typeof body === "string"
        ? await call("POST", client().transactions.initiate.$path(), buyer, body)
        : await client(buyer).transactions.initiate.$post({ json: unchecked(body) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "Validation Error", message: expect.any(String) });
    expect(await purchaseState()).toBe(before);
  });

  it("a price with SQL in it is just a differing price", async () => {
    const listing = await listWithKey(seller.userId);
    const res = await initiate(buyer, listing.id, { price: "1; DROP TABLE transactions" });
    expect(res.status).toBe(409);
  });
});
