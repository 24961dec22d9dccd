// The database's side of the purchase lifecycle (docs/payments.md#the-lifecycle): no transition leads to
// `verified`, and migration 0030 makes that the database's rule, so a write that sets it fails whatever code sends
// it; the declared transitions still write. And the one helper SQL names statuses through inlines the declared
// sets, which is what lets SQLite use the partial index of open purchases.
import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { OPEN, PURCHASE_STATUSES, type PurchaseStatus, SOLD } from "../../schema/purchase-lifecycle";
import { canMove, statusAfter, statusIn } from "../purchases/status-sql";
import { insertListing } from "./browse-fixtures";
import { insertTransaction } from "./listing-fixtures";

const status = async (id: string) => (await env.DB.prepare("SELECT status FROM transactions WHERE id = ?").bind(id).first<{ status: string }>())?.status;
const refused = /purchase lifecycle: no transition leads to verified/;

describe("verified is never written", () => {
  it("an INSERT of a verified purchase is refused and writes nothing", async () => {
    const listing = await insertListing();
    await expect(insertTransaction(listing, { status: "verified" })).rejects.toThrow(refused);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM transactions WHERE address_id = ?").bind(listing).first<{ n: number }>();
    expect(n?.n).toBe(0);
  });

  it("an UPDATE to verified is refused from every status, the row left as it was", async () => {
    for (const from of PURCHASE_STATUSES.filter((s) => s !== "verified")) {
      const id = await insertTransaction(await insertListing(), { status: from });
      await expect(env.DB.prepare("UPDATE transactions SET status = 'verified' WHERE id = ?").bind(id).run(), from).rejects.toThrow(refused);
      expect(await status(id)).toBe(from);
    }
  });

  it("the declared transitions still write: initiated -> pending -> completed, other columns of any row", async () => {
    const id = await insertTransaction(await insertListing());
    for (const to of ["pending", "completed"] as PurchaseStatus[]) {
      await env.DB.prepare("UPDATE transactions SET status = ? WHERE id = ?").bind(to, id).run();
      expect(await status(id)).toBe(to);
    }
    await env.DB.prepare("UPDATE transactions SET private_key_destroyed = 1 WHERE id = ?").bind(id).run();
    expect(await status(id)).toBe("completed");
  });
});

describe("status-sql", () => {
  const dialect = new SQLiteAsyncDialect();
  const render = (q: ReturnType<typeof statusIn>) => dialect.sqlToQuery(q);

  it("inlines a declared set as literals, in order, binding nothing", () => {
    expect(render(statusIn(sql.raw("status"), OPEN))).toEqual({ sql: "status IN ('initiated', 'pending', 'verified')", params: [] });
    expect(render(statusIn(sql.raw("status"), SOLD))).toEqual({ sql: "status IN ('verified', 'completed')", params: [] });
    expect(render(canMove(sql.raw("status"), "close-overdue"))).toEqual({ sql: "status IN ('pending')", params: [] });
    expect(render(statusAfter("settle"))).toEqual({ sql: "'completed'", params: [] });
  });

  it("refuses anything that is not a declared status (nothing else can reach the SQL text) and an empty set", () => {
    expect(() => statusIn(sql.raw("status"), ["completed', 'x"] as unknown as PurchaseStatus[])).toThrow(/not a purchase status/);
    expect(() => statusIn(sql.raw("status"), [])).toThrow(/never empty/);
  });

  it("an open-purchase lookup by listing uses the partial index of open purchases", async () => {
    const q = render(sql`SELECT id FROM transactions WHERE address_id = 1 AND ${statusIn(sql.raw("status"), OPEN)}`);
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join("\n")).toMatch(/transactions_one_open_per_listing/);
  });
});
