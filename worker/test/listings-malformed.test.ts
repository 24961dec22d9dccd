// No input, however malformed, makes a listing route answer 500 or change anything: every listing and admin call
// with hostile bodies, as the admin (the caller who gets furthest), and every route's id. Sent raw on purpose:
// bodies, query strings and ids the typed client (client.ts) would refuse to build.
import { beforeAll, describe, expect, it } from "vitest";
import { idMessage } from "../../schema/ids";
import { refusal } from "./client";
import { type Caller, counts, signInAll } from "./listing-fixtures";
import { call } from "./purchase-fixtures";
import { insertListing } from "./browse-fixtures";

let admin: Caller;
let id: number;
beforeAll(async () => {
  ({ admin } = await signInAll());
  id = await insertListing({ sellerId: admin.userId });
});

const BODIES: unknown[] = [
  "null",
  "[]",
  '"text"',
  "123",
  "{",
  "{}",
  '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}',
  { price: { $gt: 0 }, address: { toString: "x" }, listingIds: { length: 3 }, rows: { length: 1 }, status: ["active"], isFeatured: "true" },
  { price: 1e308, listingIds: [1e308], rows: [null, [], 0, ""], status: null, isFeatured: null, network: null, currency: null },
  { address: "\u202e\u0000", privateKey: "\ud800", price: "\u0661", listingIds: [-0], rows: [{ address: "\ud83d\ude00".repeat(40) }] },
  {
    listingIds: Array.from({ length: 10_000 }, (_, i) => i + 1),
    rows: Array.from({ length: 3 }, () => ({ address: [], private_key: {}, platform: 1, pattern_type: true, pattern_matched: null })),
  },
  JSON.stringify(Array.from({ length: 1000 }, () => ({ a: "b" }))),
  "x".repeat(300 * 1024),
];

const CALLS: [string, () => string][] = [
  ["POST", () => "/api/addresses"],
  ["POST", () => "/api/addresses/verify-ownership"],
  ["PATCH", () => `/api/addresses/${id}`],
  ["POST", () => "/api/transactions/calculate-fees"],
  ["POST", () => "/api/admin/addresses/bulk"],
  ["PUT", () => "/api/admin/addresses/bulk-status"],
  ["PUT", () => "/api/admin/addresses/bulk-featured"],
  ["DELETE", () => "/api/admin/addresses/bulk-delete"],
  ["PUT", () => `/api/admin/addresses/${id}`],
];

describe("malformed bodies", () => {
  it.each(CALLS)("%s %s: refused for every one, nothing changed", async (method, path) => {
    const before = await counts();
    for (const [i, body] of BODIES.entries()) {
      const res = await call(method, path(), admin, body, { "cf-connecting-ip": `198.51.100.${i}` });
      const text = await res.text();
      expect(res.status, `${method} ${path()} body #${i}: ${text}`).toBeLessThan(500);
      // The bulk endpoint answers rows it could read with a result per row: all of them refused here.
      if (res.status === 200) expect(JSON.parse(text).summary.succeeded).toBe(0);
      else expect(typeof JSON.parse(text).message).toBe("string");
    }
    expect(await counts()).toBe(before);
  });
});

describe("malformed queries", () => {
  it.each(["/api/admin/addresses", "/api/addresses/user", "/api/transactions/user"])("%s", async (path) => {
    for (const q of ["limit=1e3", "limit=%00", "offset=9999999999999", "search=%ff", "status=all&status=sold", "limit[]=1", `search=${"%".repeat(100)}`]) {
      const res = await call("GET", `${path}?${q}`, admin);
      expect(res.status, `${path}?${q}`).toBeLessThan(500);
    }
  });
});

// Every route that takes an id names a plain `:id` and checks it with schema/ids.ts's rule: a malformed id is the
// same 400 on every route, whoever asks (the check runs before sign-in, settings and rate checks), and writes nothing.
type Kind = Parameters<typeof idMessage>[0];
const ID_ROUTES: [method: string, path: string, kind: Kind, adminOnly?: true][] = [
  ["GET", "/api/addresses/{id}", "listing"],
  ["GET", "/api/addresses/{id}/context", "listing"],
  ["PATCH", "/api/addresses/{id}", "listing"],
  ["DELETE", "/api/addresses/{id}", "listing"],
  ["PUT", "/api/admin/addresses/{id}", "listing", true],
  ["DELETE", "/api/admin/addresses/{id}", "listing", true],
  ["GET", "/api/offers/listing/{id}", "listing"],
  ["GET", "/api/offers/listing/{id}/all", "listing"],
  ["DELETE", "/api/offers/{id}", "offer"],
  ["POST", "/api/offers/{id}/accept", "offer"],
  ["POST", "/api/offers/{id}/decline", "offer"],
  ["GET", "/api/watchlist/{id}/watchers", "listing"],
  ["PUT", "/api/watchlist/{id}", "listing"],
  ["DELETE", "/api/watchlist/{id}", "listing"],
  ["POST", "/api/notifications/{id}/read", "notification"],
  ["DELETE", "/api/saved-searches/{id}", "saved search"],
  ["GET", "/api/custom-orders/{id}", "order"],
  ["POST", "/api/custom-orders/{id}/pay", "order"],
  ["POST", "/api/custom-orders/{id}/cancel", "order"],
  ["POST", "/api/custom-orders/admin/{id}/take", "order"],
  ["POST", "/api/custom-orders/admin/{id}/progress", "order"],
  ["POST", "/api/custom-orders/admin/{id}/release", "order"],
  ["POST", "/api/custom-orders/admin/{id}/submit", "order"],
  ["PATCH", "/api/supply/targets/{id}", "supply target", true],
  ["DELETE", "/api/supply/targets/{id}", "supply target", true],
  ["POST", "/api/supply/targets/{id}/pause", "supply target", true],
  ["POST", "/api/supply/targets/{id}/resume", "supply target", true],
  ["POST", "/api/supply/claims/{id}/progress", "supply claim", true],
  ["POST", "/api/supply/claims/{id}/sealed", "supply claim", true],
  ["POST", "/api/supply/claims/{id}/release", "supply claim", true],
  ["GET", "/api/transactions/sales/{id}", "sale"],
  ["GET", "/api/transactions/{id}", "transaction"],
  ["POST", "/api/transactions/{id}/confirm", "transaction"],
  ["POST", "/api/transactions/{id}/cancel", "transaction"],
  ["POST", "/api/transactions/{id}/solana-transaction", "transaction"],
  ["POST", "/api/transactions/{id}/reveal-private-key", "transaction"],
  ["DELETE", "/api/transactions/{id}/private-key", "transaction"],
  ["POST", "/api/admin/payments/{id}/refund", "payment", true],
  ["POST", "/api/admin/payments/{id}/dismiss", "payment", true],
  ["POST", "/api/admin/payments/differences/{id}/resolve", "difference", true],
  ["POST", "/api/admin/purchases/{id}/close", "transaction", true],
];
const UUID_KINDS = new Set<Kind>(["sale", "transaction", "payment", "difference"]);
// A few per route (schema/ids.test.ts tries the rule itself on many more): a word, a form the old route patterns
// let through to the handler, a non-ASCII digit.
const BAD_ROW_IDS = ["abc", "01", "%D9%A1"];
const BAD_UUIDS = ["-".repeat(36), "42"];

describe("malformed ids", () => {
  it.each(ID_ROUTES)("%s %s: a 400 naming the id, as the admin and as a visitor, nothing changed", async (method, path, kind, adminOnly) => {
    const before = await counts();
    const body = method === "GET" || method === "DELETE" ? undefined : {};
    for (const [i, bad] of (UUID_KINDS.has(kind) ? BAD_UUIDS : BAD_ROW_IDS).entries()) {
      // A visitor too, once: the id is checked before the sign-in is.
      for (const who of adminOnly || i > 0 ? [admin] : [admin, undefined]) {
        const res = await call(method, path.replace("{id}", bad), who, body, { "cf-connecting-ip": `198.51.100.${100 + i}` });
        const label = `${method} ${path} id=${bad} ${who ? "admin" : "visitor"}`;
        expect({ status: res.status, body: await res.json() }, label).toEqual({
          status: 400,
          body: { error: "Validation Error", message: `id: ${idMessage(kind)}` },
        });
      }
    }
    expect(await counts()).toBe(before);
  });

  // Hono tries a router's routes in the order they were added and `/:id` takes any segment, so each static
  // sibling must sit above it: these would be "id: must be ..." 400s otherwise.
  it.each([
    "/api/addresses/search",
    "/api/addresses/featured",
    "/api/addresses/validate?address=0x52908400098527886E0F7030069857D2E4169EE7",
    "/api/addresses/user",
    "/api/offers/mine",
    "/api/offers/received",
    "/api/watchlist/ids",
    "/api/notifications/unread-count",
    "/api/custom-orders/mine",
    "/api/custom-orders/quote?prefix=abc",
    "/api/custom-orders/admin/queue",
    "/api/transactions/recent",
    "/api/transactions/sales",
    "/api/transactions/user",
    "/api/transactions/purchases",
    "/api/transactions/open",
    "/api/admin/payments/attention",
    "/api/admin/payments/differences",
  ])("GET %s: still its own route beside /:id", async (path) => {
    const res = await call("GET", path, admin);
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  });

  it("the admin's bulk routes beside PUT and DELETE /addresses/:id still answer", async () => {
    const put = await call("PUT", "/api/admin/addresses/bulk-status", admin, { listingIds: [id], status: "active" });
    expect(put.status, await put.clone().text()).toBe(200);
    // Its own answer for an id that names no listing, not "id: must be a listing id".
    const del = await call("DELETE", "/api/admin/addresses/bulk-delete", admin, { listingIds: [999_999] });
    expect({ status: del.status, message: (await refusal(del)).message }).toEqual({ status: 404, message: "Listing not found: 999999" });
  });
});
