// The owner's controls: PATCH /api/addresses/{id} (price, promotion) and DELETE /api/addresses/{id}. Only
// the seller or an admin; sold listings keep their price; every change leaves its history row.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ListingView } from "../../schema/browse";
import { LISTING_CHANGE_LIMIT, PRICE_MESSAGES } from "../../schema/listings";
import { type Caller, counts, insertTransaction, signInAll } from "./listing-fixtures";
import { insertListing } from "./browse-fixtures";
import { client, refusal, unchecked } from "./client";
import { inFreshRateWindow, testRateWindowMs } from "./helpers";
import { ethWallet } from "./purchase-fixtures";

let admin: Caller;
let user: Caller;
let other: Caller;
beforeAll(async () => {
  ({ admin, user, other } = await signInAll());
});

const patch = (id: number | string, body: unknown, caller?: Caller, headers: Record<string, string> = {}) =>
  client(caller, headers).addresses[":id"].$patch({ param: { id: String(id) }, json: unchecked(body) });
const del = (id: number | string, caller?: Caller) => client(caller).addresses[":id"].$delete({ param: { id: String(id) } });

const history = (id: number) =>
  env.DB.prepare("SELECT price, previous_price, change_percentage, change_type FROM price_history WHERE address_id = ? ORDER BY id")
    .bind(id)
    .all()
    .then((r) => r.results);
const promotions = (id: number) =>
  env.DB.prepare("SELECT promotion_type, is_active, end_time IS NOT NULL AS ended, purchased_by FROM listing_promotions WHERE address_id = ? ORDER BY id")
    .bind(id)
    .all()
    .then((r) => r.results);

describe("PATCH price", () => {
  it("the owner changes the price: the listing view comes back, price_history records the change", async () => {
    const id = await insertListing({ sellerId: user.userId, price: "2" });
    const res = await patch(id, { price: "3" }, user, { "x-wallet-address": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ListingView;
    expect(body).toMatchObject({ id, price: "3", currency: "ETH", isOwner: true, status: "active" });
    expect(body.usdPrice).toBeGreaterThan(0);
    expect(await history(id)).toEqual([{ price: "3", previous_price: "2", change_percentage: "50.00", change_type: "price_update" }]);
    const units = await env.DB.prepare("SELECT price_units FROM addresses WHERE id = ?").bind(id).first<{ price_units: number }>();
    expect(units?.price_units).toBe(300_000_000);
  });

  it("a number price and a decrease", async () => {
    const id = await insertListing({ sellerId: user.userId, price: "4" });
    expect(((await (await patch(id, { price: 1 }, user)).json()) as ListingView).price).toBe("1");
    expect(await history(id)).toEqual([{ price: "1", previous_price: "4", change_percentage: "-75.00", change_type: "price_update" }]);
  });

  it("an admin may change anyone's price", async () => {
    const id = await insertListing({ sellerId: user.userId, price: "1" });
    const res = await patch(id, { price: "1.25" }, admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ price: "1.25", isOwner: false });
  });

  it("the same price again changes nothing and writes no history", async () => {
    const id = await insertListing({ sellerId: user.userId, price: "1.5" });
    expect((await patch(id, { price: "1.50" }, user)).status).toBe(200);
    expect(await history(id)).toEqual([]);
  });

  it("signed out 401, another wallet 403, a disagreeing x-wallet-address 403: nothing changes", async () => {
    const id = await insertListing({ sellerId: user.userId, price: "2" });
    const before = await counts();
    expect((await patch(id, { price: "9" })).status).toBe(401);
    const res = await patch(id, { price: "9" }, other);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Forbidden", message: "Only the listing's owner or an admin can change it" });
    // The header never makes anyone an owner: the session decides, and a header naming someone else is refused.
    expect((await patch(id, { price: "9" }, other, { "x-wallet-address": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" })).status).toBe(403);
    expect((await patch(id, { price: "9" }, user, { "x-wallet-address": "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" })).status).toBe(403);
    expect(await counts()).toBe(before);
  });

  it("a sold listing's price cannot change: 409", async () => {
    const id = await insertListing({ sellerId: user.userId, status: "sold", isListed: false });
    const res = await patch(id, { price: "5" }, user);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: "Conflict", message: "This listing has been sold; its price can no longer change" });
    expect((await patch(id, { price: "5" }, admin)).status).toBe(409);
    expect(await history(id)).toEqual([]);
  });

  it.each(["initiated", "pending"])("during a purchase (%s) the price cannot change: 409, the price and its history as they were", async (status) => {
    const id = await insertListing({ sellerId: user.userId, price: "2" });
    await insertTransaction(id, { status });
    const before = await counts();
    const res = await patch(id, { price: "5" }, user);
    expect(res.status).toBe(409);
    expect((await refusal(res)).message).toBe("A purchase of this listing is in progress; its price cannot change until it completes or expires");
    expect(await counts()).toBe(before);
    expect(await history(id)).toEqual([]);
  });

  it(`past ${LISTING_CHANGE_LIMIT.perWallet} changes a minute from one wallet: 429 with Retry-After, nothing changes; another wallet is not held back`, async () => {
    await inFreshRateWindow();
    const seller = await ethWallet();
    const id = await insertListing({ sellerId: seller.userId, price: "2" });
    // The limiter's counter row for this wallet's window, brought to the limit (worker/http/rate-limit.ts).
    const now = Date.now();
    await env.DB.prepare("INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, ?)")
      .bind(`listing-changes:user:${seller.userId}`, now - (now % testRateWindowMs()), LISTING_CHANGE_LIMIT.perWallet)
      .run();
    const before = await counts();
    const res = await client(seller, { "cf-connecting-ip": "198.51.100.77" }).addresses[":id"].$patch({
      param: { id: String(id) },
      json: { price: "3" },
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await refusal(res)).message).toMatch(new RegExp(`^Too many listing changes: at most ${LISTING_CHANGE_LIMIT.perWallet} per day from one wallet\\.`));
    expect(await counts()).toBe(before);
    expect(await history(id)).toEqual([]);
    // The owner of another listing is not held back.
    const mine = await insertListing({ sellerId: user.userId, price: "2" });
    expect((await patch(mine, { price: "2.5" }, user)).status).toBe(200);
  });

  it("a deleted listing: 409 for its owner, 404 for anyone else", async () => {
    const id = await insertListing({ sellerId: user.userId, status: "deleted", isListed: false });
    expect((await patch(id, { price: "5" }, user)).status).toBe(409);
    expect((await patch(id, { price: "5" }, other)).status).toBe(404);
  });

  it("unknown ids 404, malformed ids 400", async () => {
    expect((await patch(999_999, { price: "1" }, user)).status).toBe(404);
    expect((await patch("0", { price: "1" }, user)).status).toBe(400);
    expect((await patch("99999999999999999999", { price: "1" }, user)).status).toBe(400);
  });

  const bad: [string, unknown, string | RegExp][] = [
    ["zero", { price: "0" }, PRICE_MESSAGES.positive],
    ["negative", { price: "-2" }, PRICE_MESSAGES.negative],
    ["empty", { price: "" }, PRICE_MESSAGES.required],
    ["null", { price: null }, PRICE_MESSAGES.required],
    ["9 decimals", { price: "1.000000001" }, PRICE_MESSAGES.decimals],
    ["text", { price: "cheap" }, PRICE_MESSAGES.positive],
    ["object", { price: { amount: 1 } }, PRICE_MESSAGES.positive],
    ["huge", { price: "1".repeat(100_000) }, PRICE_MESSAGES.positive],
    ["nothing to change", {}, "Nothing to change: send price, or promotionType and isFeatured"],
    ["price and promotion together", { price: "1", isFeatured: true }, "Change the price and the promotion in separate requests"],
    ["bad promotionType", { promotionType: "gold" }, /promotionType must be standard, featured or promoted/],
    ["isFeatured not boolean", { isFeatured: "true" }, /isFeatured must be true or false/],
    ["standard with isFeatured", { promotionType: "standard", isFeatured: true }, "isFeatured can only be true for a featured or promoted listing"],
  ];
  it.each(bad)("%s: 400, nothing changes", async (_name, body, message) => {
    const id = await insertListing({ sellerId: user.userId, price: "2" });
    const before = await counts();
    const res = await patch(id, body, user);
    expect(res.status).toBe(400);
    const got = (await refusal(res)).message;
    if (typeof message === "string") expect(got).toBe(message);
    else expect(got).toMatch(message);
    expect(await counts()).toBe(before);
  });
});

describe("PATCH promotion", () => {
  it("featured <-> standard, each change recorded in listing_promotions", async () => {
    const id = await insertListing({ sellerId: user.userId });
    const featured = (await (await patch(id, { promotionType: "featured", isFeatured: true }, user)).json()) as ListingView;
    expect(featured).toMatchObject({ promotionType: "featured", isFeatured: true });
    expect(await promotions(id)).toEqual([{ promotion_type: "featured", is_active: 1, ended: 0, purchased_by: user.userId }]);
    const standard = (await (await patch(id, { promotionType: "standard", isFeatured: false }, user)).json()) as ListingView;
    expect(standard).toMatchObject({ promotionType: "standard", isFeatured: false });
    expect(await promotions(id)).toEqual([{ promotion_type: "featured", is_active: 0, ended: 1, purchased_by: user.userId }]);
    // isFeatured alone is enough.
    expect(await (await patch(id, { isFeatured: true }, user)).json()).toMatchObject({ promotionType: "featured", isFeatured: true });
    const flags = await env.DB.prepare("SELECT is_featured, is_promoted, promotion_weight FROM addresses WHERE id = ?").bind(id).first();
    expect(flags).toEqual({ is_featured: 1, is_promoted: 0, promotion_weight: 1 });
  });

  it("only admins promote", async () => {
    const id = await insertListing({ sellerId: user.userId });
    const res = await patch(id, { promotionType: "promoted", isFeatured: false }, user);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Forbidden", message: "Only admins can promote a listing" });
    expect(await promotions(id)).toEqual([]);
    expect(await (await patch(id, { promotionType: "promoted" }, admin)).json()).toMatchObject({ promotionType: "promoted" });
    // Featuring a promoted listing keeps it promoted.
    expect(await (await patch(id, { isFeatured: true }, user)).json()).toMatchObject({ promotionType: "promoted", isFeatured: true });
  });

  it("not on a sold listing, not by someone else", async () => {
    const sold = await insertListing({ sellerId: user.userId, status: "sold", isListed: false });
    expect((await patch(sold, { isFeatured: true }, user)).status).toBe(409);
    const id = await insertListing({ sellerId: user.userId });
    expect((await patch(id, { isFeatured: true }, other)).status).toBe(403);
    expect((await patch(id, { isFeatured: true })).status).toBe(401);
    expect(await promotions(id)).toEqual([]);
  });
});

describe("DELETE", () => {
  it("soft: status deleted, unlisted, gone from public reads; idempotent", async () => {
    const id = await insertListing({ sellerId: user.userId, promotionType: "featured", isFeatured: true });
    const res = await del(id, user);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, id, status: "deleted" });
    const row = await env.DB.prepare("SELECT status, is_listed, is_featured FROM addresses WHERE id = ?").bind(id).first();
    expect(row).toEqual({ status: "deleted", is_listed: 0, is_featured: 0 });
    expect((await client().addresses[":id"].$get({ param: { id: String(id) } })).status).toBe(404);
    expect((await del(id, user)).status).toBe(200);
  });

  it("signed out 401, someone else 403, an admin may", async () => {
    const id = await insertListing({ sellerId: user.userId });
    const before = await counts();
    expect((await del(id)).status).toBe(401);
    expect((await del(id, other)).status).toBe(403);
    expect(await counts()).toBe(before);
    expect((await del(id, admin)).status).toBe(200);
  });

  it("refused while a purchase is open, and for a sold listing: 409", async () => {
    const reserved = await insertListing({ sellerId: user.userId });
    await insertTransaction(reserved, { status: "initiated" });
    const res = await del(reserved, user);
    expect(res.status).toBe(409);
    expect((await refusal(res)).message).toMatch(/purchase of this listing is in progress/);
    const sold = await insertListing({ sellerId: user.userId, status: "sold", isListed: false });
    expect((await del(sold, user)).status).toBe(409);
    const states = await env.DB.prepare("SELECT status FROM addresses WHERE id IN (?, ?) ORDER BY id").bind(reserved, sold).all();
    expect(states.results).toEqual([{ status: "active" }, { status: "sold" }]);
  });

  it("a finished purchase does not block deletion", async () => {
    const id = await insertListing({ sellerId: user.userId });
    await insertTransaction(id, { status: "expired" });
    expect((await del(id, user)).status).toBe(200);
  });
});
