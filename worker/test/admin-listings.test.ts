// The admin panel's API: every /api/admin route refuses visitors and non-admins; the listings table (search,
// filters, paging), the stat cards, the bulk actions with their listingIds checks, single edits and deletes.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminListingsResponse, AdminStats, BulkActionResponse } from "../../schema/listings";
import { type Caller, counts, insertListing, insertTransaction, send, signInAll } from "./listing-fixtures";

let admin: Caller;
let user: Caller;
beforeAll(async () => {
  ({ admin, user } = await signInAll());
});

const ADMIN_CALLS: [string, string, unknown][] = [
  ["GET", "/api/admin/addresses", undefined],
  ["GET", "/api/admin/stats", undefined],
  ["POST", "/api/admin/addresses/bulk", { rows: [{}] }],
  ["PUT", "/api/admin/addresses/bulk-status", { listingIds: [1], status: "active" }],
  ["PUT", "/api/admin/addresses/bulk-featured", { listingIds: [1], isFeatured: true }],
  ["DELETE", "/api/admin/addresses/bulk-delete", { listingIds: [1] }],
  ["PUT", "/api/admin/addresses/1", { status: "inactive" }],
  ["DELETE", "/api/admin/addresses/1", undefined],
];

describe("every admin route", () => {
  it.each(ADMIN_CALLS)("%s %s: 401 signed out, 403 for a non-admin, nothing changed", async (method, path, body) => {
    await insertListing({ sellerId: user.userId });
    const before = await counts();
    const anonymous = await send(method, path, body);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: "Unauthorized", message: "Sign in with your wallet first" });
    // The spec's x-wallet-address header naming the admin changes nothing: the session decides.
    const res = await send(method, path, body, user, { "x-wallet-address": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" });
    expect(res.status).toBe(403);
    expect((await send(method, path, body, user)).status).toBe(403);
    expect(await counts()).toBe(before);
  });
});

describe("GET /api/admin/addresses and /stats", () => {
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    await env.DB.batch(["transactions", "price_history", "listing_promotions", "encrypted_keys", "addresses"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
    const t = Date.now() - 100_000;
    ids.a = await insertListing({
      address: "0x00000000DEADBEEF000000000000000000000001",
      category: "leading-zeros",
      pattern: "00000000",
      createdAt: t + 1,
      price: "1.5",
    });
    ids.b = await insertListing({ category: "palindrome", pattern: "abccba", status: "inactive", createdAt: t + 2 });
    ids.c = await insertListing({ network: "solana", category: "word-like", pattern: "Pump", createdAt: t + 3, isFeatured: true, promotionType: "featured" });
    ids.d = await insertListing({ status: "sold", createdAt: t + 4 });
    ids.e = await insertListing({ status: "pending", createdAt: t + 5 });
    ids.f = await insertListing({ status: "deleted", createdAt: t + 6 });
  });

  const list = async (query = "") => {
    const res = await send("GET", `/api/admin/addresses${query}`, undefined, admin);
    expect(res.status).toBe(200);
    return (await res.json()) as AdminListingsResponse;
  };

  it("newest first, deleted excluded, the spec's listing fields", async () => {
    const body = await list();
    expect(body.addresses.map((l) => l.id)).toEqual([ids.e, ids.d, ids.c, ids.b, ids.a]);
    expect(body.pagination).toEqual({ total: 5, limit: 20, offset: 0, page: 1, totalPages: 1, hasPrevPage: false, hasNextPage: false });
    const a = body.addresses.find((l) => l.id === ids.a)!;
    expect(Object.keys(a).sort()).toEqual(
      [
        "id",
        "address",
        "network",
        "price",
        "currency",
        "usdPrice",
        "formattedUsd",
        "category",
        "pattern",
        "rarityScore",
        "status",
        "isFeatured",
        "isListed",
        "promotionType",
        "createdAt",
      ].sort(),
    );
    expect(a).toMatchObject({ price: "1.5", currency: "ETH", usdPrice: 5694, formattedUsd: "$5,694.00", category: "leading-zeros", rarityScore: "0.0" });
  });

  it("search over address, category and pattern, case-insensitive; wildcards are literal", async () => {
    expect((await list("?search=deadbeef")).addresses.map((l) => l.id)).toEqual([ids.a]);
    expect((await list("?search=PALIN")).addresses.map((l) => l.id)).toEqual([ids.b]);
    expect((await list("?search=pump")).addresses.map((l) => l.id)).toEqual([ids.c]);
    expect((await list("?search=%25")).addresses).toEqual([]);
    expect((await list("?search=_")).addresses).toEqual([]);
  });

  it("network and status filters", async () => {
    expect((await list("?network=solana")).addresses.map((l) => l.id)).toEqual([ids.c]);
    expect((await list("?status=inactive")).addresses.map((l) => l.id)).toEqual([ids.b]);
    expect((await list("?status=sold")).addresses.map((l) => l.id)).toEqual([ids.d]);
    expect((await list("?status=pending")).addresses.map((l) => l.id)).toEqual([ids.e]);
    expect((await list("?status=active&network=ethereum")).addresses.map((l) => l.id)).toEqual([ids.a]);
  });

  it("paging", async () => {
    const page = await list("?limit=20&offset=3");
    expect(page.addresses.map((l) => l.id)).toEqual([ids.b, ids.a]);
    expect(page.pagination).toMatchObject({ total: 5, offset: 3, hasPrevPage: true, hasNextPage: false });
    for (const limit of [50, 100, 250]) expect((await list(`?limit=${limit}`)).pagination.limit).toBe(limit);
  });

  it.each([
    "?limit=30",
    "?limit=-1",
    "?limit=abc",
    "?offset=-5",
    "?offset=1.5",
    "?network=bitcoin",
    "?status=deleted",
    "?status=ACTIVE",
    `?search=${"x".repeat(101)}`,
    "?search=%00",
  ])("bad query %s: 400", async (query) => {
    expect((await send("GET", `/api/admin/addresses${query}`, undefined, admin)).status).toBe(400);
  });

  it("stats: total, active, featured (deleted excluded) and users", async () => {
    const res = await send("GET", "/api/admin/stats", undefined, admin);
    const users = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    expect((await res.json()) as AdminStats).toEqual({ totalListings: 5, activeListings: 2, featuredListings: 1, totalUsers: users!.n });
  });
});

describe("bulk actions", () => {
  const put = (path: string, body: unknown) => send("PUT", `/api/admin/addresses/${path}`, body, admin);
  const state = (id: number) => env.DB.prepare("SELECT status, is_listed, is_featured, promotion_type FROM addresses WHERE id = ?").bind(id).first();

  it("bulk-status activates and deactivates; sold listings are skipped", async () => {
    const a = await insertListing({ status: "inactive" });
    const b = await insertListing();
    const sold = await insertListing({ status: "sold" });
    let res = await put("bulk-status", { listingIds: [a, b, sold], status: "inactive" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, updated: 2, skipped: [{ id: sold, reason: "sold" }] } satisfies BulkActionResponse);
    expect(await state(b)).toMatchObject({ status: "inactive" });
    res = await put("bulk-status", { listingIds: [a, b], status: "active" });
    expect(await res.json()).toMatchObject({ updated: 2 });
    expect(await state(a)).toMatchObject({ status: "active", is_listed: 1 });
    expect(await state(sold)).toMatchObject({ status: "sold" });
  });

  it("bulk-featured features and unfeatures, recording promotions", async () => {
    const a = await insertListing();
    const b = await insertListing({ promotionType: "promoted", isFeatured: true });
    let res = await put("bulk-featured", { listingIds: [a, b, a], isFeatured: true });
    expect(await res.json()).toMatchObject({ success: true, updated: 1 });
    expect(await state(a)).toMatchObject({ is_featured: 1, promotion_type: "featured" });
    expect(await state(b)).toMatchObject({ is_featured: 1, promotion_type: "promoted" });
    res = await put("bulk-featured", { listingIds: [a, b], isFeatured: false });
    expect(await res.json()).toMatchObject({ updated: 2 });
    expect(await state(a)).toMatchObject({ is_featured: 0, promotion_type: "standard" });
    expect(await state(b)).toMatchObject({ is_featured: 0, promotion_type: "standard" });
    const rows = await env.DB.prepare("SELECT promotion_type, is_active FROM listing_promotions WHERE address_id = ?").bind(a).all();
    expect(rows.results).toEqual([{ promotion_type: "featured", is_active: 0 }]);
  });

  it("bulk-delete soft-deletes, skipping sold listings and open purchases", async () => {
    const a = await insertListing();
    const sold = await insertListing({ status: "sold" });
    const reserved = await insertListing();
    await insertTransaction(reserved, { status: "pending" });
    const res = await send("DELETE", "/api/admin/addresses/bulk-delete", { listingIds: [a, sold, reserved] }, admin);
    expect(await res.json()).toEqual({
      success: true,
      updated: 1,
      skipped: [
        { id: sold, reason: "sold" },
        { id: reserved, reason: "purchase in progress" },
      ],
    });
    expect(await state(a)).toMatchObject({ status: "deleted", is_listed: 0 });
    expect(await state(reserved)).toMatchObject({ status: "active" });
    // Deleted listings are gone: naming them again is a 404.
    expect((await send("DELETE", "/api/admin/addresses/bulk-delete", { listingIds: [a] }, admin)).status).toBe(404);
  });

  const badIds: [string, unknown, number, RegExp][] = [
    ["empty", [], 400, /No Listings Selected/],
    ["too many", Array.from({ length: 501 }, (_, i) => i + 1), 400, /at most 500/],
    ["strings", ["1"], 400, /listingIds must hold listing ids/],
    ["zero", [0], 400, /from 1/],
    ["negative", [-3], 400, /from 1/],
    ["fractions", [1.5], 400, /whole numbers/],
    ["huge", [2 ** 60], 400, /whole numbers/],
    ["not an array", "1,2", 400, /array of listing ids/],
    ["missing", undefined, 400, /listingIds/],
    ["unknown ids", [987654, 987655], 404, /^Listings not found: 987654, 987655$/],
  ];
  it.each(badIds)("listingIds %s: %i, nothing changed", async (_name, listingIds, status, message) => {
    const before = await counts();
    for (const [method, path, extra] of [
      ["PUT", "bulk-status", { status: "inactive" }],
      ["PUT", "bulk-featured", { isFeatured: true }],
      ["DELETE", "bulk-delete", {}],
    ] as const) {
      const res = await send(method, `/api/admin/addresses/${path}`, { listingIds, ...extra }, admin);
      expect(res.status, path).toBe(status);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
    }
    expect(await counts()).toBe(before);
  });

  it("one missing id among existing ones: 404 naming it, the others untouched", async () => {
    const a = await insertListing();
    const before = await counts();
    const res = await put("bulk-status", { listingIds: [a, 987656], status: "inactive" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Not Found", message: "Listing not found: 987656", missingIds: [987656] });
    expect(await counts()).toBe(before);
  });

  it("a bad status or flag: 400", async () => {
    const a = await insertListing();
    expect((await put("bulk-status", { listingIds: [a], status: "sold" })).status).toBe(400);
    expect((await put("bulk-featured", { listingIds: [a], isFeatured: "yes" })).status).toBe(400);
  });
});

describe("single listing", () => {
  it("PUT changes status and featured, returning the listing", async () => {
    const id = await insertListing({ sellerId: user.userId });
    const res = await send("PUT", `/api/admin/addresses/${id}`, { status: "inactive", isFeatured: true }, admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, status: "inactive", isFeatured: true, promotionType: "featured" });
  });

  it("PUT refusals: nothing to change 400, sold 409, unknown 404, bad values 400", async () => {
    const sold = await insertListing({ status: "sold" });
    expect((await send("PUT", `/api/admin/addresses/${sold}`, {}, admin)).status).toBe(400);
    expect((await send("PUT", `/api/admin/addresses/${sold}`, { status: "active" }, admin)).status).toBe(409);
    expect((await send("PUT", "/api/admin/addresses/987657", { status: "active" }, admin)).status).toBe(404);
    expect((await send("PUT", `/api/admin/addresses/${sold}`, { status: "deleted" }, admin)).status).toBe(400);
    expect((await send("PUT", "/api/admin/addresses/0", { status: "active" }, admin)).status).toBe(400);
    expect(await (await send("GET", `/api/addresses/${sold}`, undefined)).json()).toMatchObject({ status: "sold" });
  });

  it("DELETE soft-deletes; then 404", async () => {
    const id = await insertListing();
    const res = await send("DELETE", `/api/admin/addresses/${id}`, undefined, admin);
    expect(await res.json()).toEqual({ success: true, updated: 1, skipped: [] });
    expect((await send("DELETE", `/api/admin/addresses/${id}`, undefined, admin)).status).toBe(404);
    const sold = await insertListing({ status: "sold" });
    expect((await send("DELETE", `/api/admin/addresses/${sold}`, undefined, admin)).status).toBe(409);
  });
});
