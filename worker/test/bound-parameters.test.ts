// D1 binds at most 100 parameters per query (the alerts task failed on every run once 400 conditions were
// open). No query may bind one parameter per row: each list over rows is one JSON parameter, a join or a subquery.
// Each path whose list the data sizes runs here (or in the chain tests named in docs/queries.md) with more than 100.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../db/database";
import { listingReservations } from "../listings/listing-view";
import { bulkRow, ethKey } from "./listing-fixtures";
import { actors, type Wallet } from "./purchase-fixtures";
import { type Answer, client } from "./client";

let admin: Wallet;
beforeAll(async () => {
  ({ seller: admin } = await actors());
});

/** `n` active Ethereum listings of `sellerId`; their ids. */
async function listings(sellerId: number, n: number): Promise<number[]> {
  const addresses = Array.from({ length: n }, () => `0x${crypto.randomUUID().replace(/-/g, "")}${crypto.randomUUID().replace(/-/g, "").slice(0, 8)}`);
  const { results } = await env.DB.prepare(
    `INSERT INTO addresses (address, network, seller_id, price, price_units, currency, status, is_listed, category, pattern)
     SELECT value, 'ethereum', ?2, '0.01', 1000000, 'ETH', 'active', 1, 'custom', 'bulk' FROM json_each(?1) RETURNING id`,
  )
    .bind(JSON.stringify(addresses), sellerId)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

describe("more rows than one query may bind", () => {
  it("the listings of a page (GET /api/addresses/user?limit=150) with their reservations", async () => {
    const ids = await listings(admin.userId, 150);
    // A third of them reserved, so the reservation lookup finds rows too.
    const now = Date.now();
    await env.DB.prepare(
      `INSERT INTO transactions (id, address_id, network, price, price_units, currency, total_amount, total_units, status, created_at, updated_at, expires_at)
       SELECT lower(hex(randomblob(16))), value, 'ethereum', '0.01', 1000000, 'ETH', '0.01', 1000000, 'initiated', ?2, ?2, ?3 FROM json_each(?1)`,
    )
      .bind(JSON.stringify(ids.filter((_, i) => i % 3 === 0)), now, now + 600_000)
      .run();
    const res = await client(admin).addresses.user.$get({ query: { limit: "150" } });
    expect(res.status).toBe(200);
    const views = await res.json();
    expect(views).toHaveLength(150);
    expect(views.filter((v) => v.reservation !== null)).toHaveLength(50);
    expect((await listingReservations(createDb(env.DB), ids, now)).size).toBe(50);
  });

  it("the admin's bulk actions over 150 listings: status, featured, delete", async () => {
    const ids = await listings(admin.userId, 150);
    const bulk = client(admin).admin.addresses;
    let res: Answer = await bulk["bulk-status"].$put({ json: { listingIds: ids, status: "inactive" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, updated: 150 });
    res = await bulk["bulk-featured"].$put({ json: { listingIds: ids, isFeatured: true } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, updated: 150 });
    res = await bulk["bulk-delete"].$delete({ json: { listingIds: ids } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, updated: 150 });
    const left = await env.DB.prepare("SELECT count(*) AS n FROM addresses WHERE status != 'deleted' AND id IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(ids))
      .first<{ n: number }>();
    expect(left!.n).toBe(0);
  });

  it("a bulk upload of 150 rows (the import looks the addresses up and stores them over JSON arrays)", async () => {
    const rows = Array.from({ length: 150 }, () => bulkRow(ethKey()));
    const res = await client(admin).admin.addresses.bulk.$post({ json: { rows } });
    expect(res.status).toBe(200);
    expect((await res.json()).summary).toEqual({ total: 150, succeeded: 150, failed: 0 });
  });
});
