// The admin panel's API: every /api/admin route refuses visitors and non-admins; the listings table (search,
// filters, paging), the stat cards, the bulk actions with their listingIds checks, single edits and deletes.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ListingStatus } from "../../schema/listing-lifecycle";
import { ADMIN_EXPORT_CAP, type AdminExportResponse, type AdminListingsResponse, type AdminStats, type BulkActionResponse } from "../../schema/listings";
import { FALLBACK_USD_RATES } from "../../schema/prices";
import { createDb } from "../db/database";
import { adminExport } from "../listings/admin";
import { type Caller, counts, insertTransaction, signInAll } from "./listing-fixtures";
import { insertListing, insertListings } from "./browse-fixtures";
import { call } from "./purchase-fixtures";
import { type Answer, client, refusal, unchecked } from "./client";

let admin: Caller;
let user: Caller;
beforeAll(async () => {
  ({ admin, user } = await signInAll());
});

type AdminApi = ReturnType<typeof client>["admin"];
/** Every admin route, by name, called as someone (bodies as small as the route accepts). */
const ADMIN_CALLS: [string, string, (api: AdminApi) => Promise<Answer>][] = [
  ["GET", "/api/admin/addresses", (api) => api.addresses.$get({ query: {} })],
  ["GET", "/api/admin/addresses/export", (api) => api.addresses.export.$get({ query: {} })],
  ["GET", "/api/admin/stats", (api) => api.stats.$get()],
  ["POST", "/api/admin/addresses/bulk", (api) => api.addresses.bulk.$post({ json: { rows: [{}] } })],
  ["GET", "/api/admin/intake-key", (api) => api["intake-key"].$get()],
  [
    "POST",
    "/api/admin/addresses/sealed",
    (api) => api.addresses.sealed.$post({ json: { rows: [{ keyId: "0".repeat(16), enc: "A".repeat(43), ciphertext: "AA" }] } }),
  ],
  ["PUT", "/api/admin/addresses/bulk-status", (api) => api.addresses["bulk-status"].$put({ json: { listingIds: [1], status: "active" } })],
  ["PUT", "/api/admin/addresses/bulk-featured", (api) => api.addresses["bulk-featured"].$put({ json: { listingIds: [1], isFeatured: true } })],
  ["DELETE", "/api/admin/addresses/bulk-delete", (api) => api.addresses["bulk-delete"].$delete({ json: { listingIds: [1] } })],
  ["PUT", "/api/admin/addresses/1", (api) => api.addresses[":id"].$put({ param: { id: "1" }, json: { status: "inactive" } })],
  ["DELETE", "/api/admin/addresses/1", (api) => api.addresses[":id"].$delete({ param: { id: "1" } })],
];

describe("every admin route", () => {
  it.each(ADMIN_CALLS)("%s %s: 401 signed out, 403 for a non-admin, nothing changed", async (_method, _path, call) => {
    await insertListing({ sellerId: user.userId });
    const before = await counts();
    const anonymous = await call(client().admin);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: "Unauthorized", message: "Sign in with your wallet first" });
    // The spec's x-wallet-address header naming the admin changes nothing: the session decides.
    const res = await call(client(user, { "x-wallet-address": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" }).admin);
    expect(res.status).toBe(403);
    expect((await call(client(user).admin)).status).toBe(403);
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
      rarity: 0,
    });
    ids.b = await insertListing({ category: "palindrome", pattern: "abccba", status: "inactive", createdAt: t + 2 });
    ids.c = await insertListing({ network: "solana", category: "word-like", pattern: "Pump", createdAt: t + 3, isFeatured: true, promotionType: "featured" });
    ids.d = await insertListing({ status: "sold", isListed: false, createdAt: t + 4 });
    ids.e = await insertListing({ status: "inactive", isListed: false, createdAt: t + 5 });
    ids.f = await insertListing({ status: "deleted", isListed: false, createdAt: t + 6 });
  });

  const list = async (query = "") => {
    // Query strings as the admin table writes them, kept raw (some of them the schema refuses).
    const res = await call("GET", `${client().admin.addresses.$path()}${query}`, admin);
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
        "customOrder",
      ].sort(),
    );
    expect(a).toMatchObject({
      customOrder: null,
      price: "1.5",
      currency: "ETH",
      usdPrice: 5694,
      formattedUsd: "$5,694.00",
      category: "leading-zeros",
      rarityScore: "0.0",
    });
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
    expect((await list("?status=inactive")).addresses.map((l) => l.id)).toEqual([ids.e, ids.b]);
    expect((await list("?status=sold")).addresses.map((l) => l.id)).toEqual([ids.d]);
    expect((await list("?status=active&network=ethereum")).addresses.map((l) => l.id)).toEqual([ids.a]);
  });

  it("the database refuses a status outside the listing lifecycle, written or changed to, and leaves the row as it was", async () => {
    const before = await env.DB.prepare("SELECT status, updated_at FROM addresses WHERE id = ?").bind(ids.b).first();
    for (const status of ["pending", "Active", "reserved", ""]) {
      await expect(insertListing({ status: status as ListingStatus })).rejects.toThrow(/not a listing status/);
      await expect(env.DB.prepare("UPDATE addresses SET status = ?, updated_at = 1 WHERE id = ?").bind(status, ids.b).run()).rejects.toThrow(
        /not a listing status/,
      );
    }
    expect(await env.DB.prepare("SELECT status, updated_at FROM addresses WHERE id = ?").bind(ids.b).first()).toEqual(before);
    // A row's other columns still change while its status is one of the lifecycle's.
    await env.DB.prepare("UPDATE addresses SET search_tags = 'x' WHERE id = ?").bind(ids.b).run();
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
    // pending was a listing status nothing wrote; migration 0049 dropped it, and the filter with it.
    "?status=pending",
    "?status=ACTIVE",
    `?search=${"x".repeat(101)}`,
    "?search=%00",
  ])("bad query %s: 400", async (query) => {
    expect((await call("GET", `${client().admin.addresses.$path()}${query}`, admin)).status).toBe(400);
  });

  it("stats: total, active, featured (deleted excluded) and users", async () => {
    const res = await client(admin).admin.stats.$get();
    const users = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    expect((await res.json()) as AdminStats).toEqual({ totalListings: 5, activeListings: 2, featuredListings: 1, totalUsers: users!.n });
  });
});

describe("GET /api/admin/addresses/export: every listing the filters match, not one page", () => {
  let matching: number[];
  let outside: number[];
  beforeAll(async () => {
    await env.DB.batch(["transactions", "price_history", "listing_promotions", "encrypted_keys", "addresses"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
    const t = Date.now() - 500_000;
    // 25 active Ethereum palindromes: more than the table's default page of 20. Around them, listings that differ
    // in one filter each: the network, the status (inactive, sold, deleted) and the search.
    const seeds = Array.from({ length: 25 }, (_, i) => ({ category: "palindrome", pattern: "abcba", createdAt: t + i * 10 }));
    matching = (await insertListings(seeds)).reverse(); // newest first, as the table orders them
    outside = await insertListings([
      { network: "solana", category: "palindrome", pattern: "abcba", createdAt: t + 1 },
      { category: "palindrome", pattern: "abcba", status: "inactive", createdAt: t + 2 },
      { category: "palindrome", pattern: "abcba", status: "sold", isListed: false, createdAt: t + 3 },
      { category: "palindrome", pattern: "abcba", status: "deleted", isListed: false, createdAt: t + 4 },
      { category: "word-like", pattern: "dead", createdAt: t + 5 },
    ]);
  });
  const filters = { search: "PALIN", network: "ethereum", status: "active" } as const;

  it("the table shows one page of them; the export carries all 25, in the table's order, and nothing outside the filters", async () => {
    const page = (await (await client(admin).admin.addresses.$get({ query: filters })).json()) as AdminListingsResponse;
    expect(page.addresses).toHaveLength(20);
    expect(page.pagination).toMatchObject({ total: 25, hasNextPage: true });
    const res = await client(admin).admin.addresses.export.$get({ query: filters });
    expect(res.status).toBe(200);
    const body = (await res.json()) as AdminExportResponse;
    expect(body.total).toBe(25);
    expect(body.cap).toBe(ADMIN_EXPORT_CAP);
    expect(body.addresses.map((l) => l.id)).toEqual(matching);
    for (const id of outside) expect(body.addresses.map((l) => l.id)).not.toContain(id);
    expect(body.addresses.every((l) => l.network === "ethereum" && l.status === "active" && l.category === "palindrome")).toBe(true);
    // The same rows as paging the table through to its end.
    const second = (await (await client(admin).admin.addresses.$get({ query: { ...filters, offset: "20" } })).json()) as AdminListingsResponse;
    expect([...page.addresses, ...second.addresses].map((l) => l.id)).toEqual(body.addresses.map((l) => l.id));
  });

  it("no filter: every listing but the deleted one", async () => {
    const body = (await (await client(admin).admin.addresses.export.$get({ query: {} })).json()) as AdminExportResponse;
    expect(body.total).toBe(matching.length + outside.length - 1);
    expect(body.addresses.map((l) => l.id).sort((x, y) => x - y)).toEqual([...matching, ...outside.filter((id) => id !== outside[3])].sort((x, y) => x - y));
  });

  it("past the cap: the newest `cap` listings, and how many matched", async () => {
    const capped = await adminExport(createDb(env.DB), { ...filters, search: "palin" }, FALLBACK_USD_RATES, 10);
    expect(capped.addresses.map((l) => l.id)).toEqual(matching.slice(0, 10));
    expect(capped).toMatchObject({ total: 25, cap: 10 });
  });

  it.each(["?network=bitcoin", "?status=deleted", `?search=${"x".repeat(101)}`, "?search=%00"])("bad query %s: 400", async (query) => {
    expect((await call("GET", `${client().admin.addresses.export.$path()}${query}`, admin)).status).toBe(400);
  });
});

describe("bulk actions", () => {
  // Bodies here include what the schema refuses (a "sold" status, isFeatured "yes"): sent unchecked on purpose.
  const put = (path: "bulk-status" | "bulk-featured", body: unknown) =>
    path === "bulk-status"
      ? client(admin).admin.addresses["bulk-status"].$put({ json: unchecked(body) })
      : client(admin).admin.addresses["bulk-featured"].$put({ json: unchecked(body) });
  const state = (id: number) => env.DB.prepare("SELECT status, is_listed, is_featured, promotion_type FROM addresses WHERE id = ?").bind(id).first();

  it("bulk-status activates and deactivates; sold listings are skipped", async () => {
    const a = await insertListing({ status: "inactive" });
    const b = await insertListing();
    const sold = await insertListing({ status: "sold", isListed: false });
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
    const sold = await insertListing({ status: "sold", isListed: false });
    const reserved = await insertListing();
    await insertTransaction(reserved, { status: "pending" });
    const res = await client(admin).admin.addresses["bulk-delete"].$delete({ json: { listingIds: [a, sold, reserved] } });
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
    expect((await client(admin).admin.addresses["bulk-delete"].$delete({ json: { listingIds: [a] } })).status).toBe(404);
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
    const api = client(admin).admin.addresses;
    for (const [path, call] of [
      ["bulk-status", () => api["bulk-status"].$put({ json: unchecked({ listingIds, status: "inactive" }) })],
      ["bulk-featured", () => api["bulk-featured"].$put({ json: unchecked({ listingIds, isFeatured: true }) })],
      ["bulk-delete", () => api["bulk-delete"].$delete({ json: unchecked({ listingIds }) })],
    ] as const) {
      const res = await call();
      expect(res.status, path).toBe(status);
      expect((await refusal(res)).message).toMatch(message);
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
    const res = await client(admin).admin.addresses[":id"].$put({ param: { id: String(id) }, json: { status: "inactive", isFeatured: true } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, status: "inactive", isFeatured: true, promotionType: "featured" });
  });

  it("PUT refusals: nothing to change 400, sold 409, unknown 404, bad values 400", async () => {
    const sold = await insertListing({ status: "sold", isListed: false });
    expect((await client(admin).admin.addresses[":id"].$put({ param: { id: String(sold) }, json: {} })).status).toBe(400);
    expect((await client(admin).admin.addresses[":id"].$put({ param: { id: String(sold) }, json: { status: "active" } })).status).toBe(409);
    expect((await client(admin).admin.addresses[":id"].$put({ param: { id: "987657" }, json: { status: "active" } })).status).toBe(404);
    expect((await client(admin).admin.addresses[":id"].$put({ param: { id: String(sold) }, json: unchecked({ status: "deleted" }) })).status).toBe(400);
    expect((await client(admin).admin.addresses[":id"].$put({ param: { id: "0" }, json: { status: "active" } })).status).toBe(400);
    expect(await (await client().addresses[":id"].$get({ param: { id: String(sold) } })).json()).toMatchObject({ status: "sold" });
  });

  it("DELETE soft-deletes; then 404", async () => {
    const id = await insertListing();
    const res = await client(admin).admin.addresses[":id"].$delete({ param: { id: String(id) } });
    expect(await res.json()).toEqual({ success: true, updated: 1, skipped: [] });
    expect((await client(admin).admin.addresses[":id"].$delete({ param: { id: String(id) } })).status).toBe(404);
    const sold = await insertListing({ status: "sold", isListed: false });
    expect((await client(admin).admin.addresses[":id"].$delete({ param: { id: String(sold) } })).status).toBe(409);
  });
});
