// No input, however malformed, makes a listing route answer 500 or change anything: every
// listing and admin call with hostile bodies, as the admin (the caller who gets furthest). Sent raw on purpose: bodies
// and query strings the typed client (client.ts) would refuse to build.
import { beforeAll, describe, expect, it } from "vitest";
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
