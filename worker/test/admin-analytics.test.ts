// Admin > Analytics: GET /api/admin/analytics reads sales_analytics, transactions, the key-release
// audit rows, custom_orders, addresses and listing_promotions for the period; admins only; bad periods refused.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { AnalyticsResponse } from "../../schema/analytics";
import { percentile } from "../operations/analytics";
import { actors, ethWallet, listWithKey, reserve, type Wallet } from "./purchase-fixtures";
import { client, refusal, unchecked } from "./client";
import { REVEAL_BODY } from "./sealed-reveal";

let admin: Wallet;
beforeAll(async () => {
  ({ seller: admin } = await actors());
});

async function analytics(days = "7"): Promise<AnalyticsResponse> {
  const res = await client(admin).admin.analytics.$get({ query: unchecked({ days }) });
  expect(res.status).toBe(200);
  return res.json();
}

/** A reserved purchase completed as settle.ts leaves it: the purchase row and its sales_analytics row. */
async function sold(price: string, completedAt: number) {
  const buyer = await ethWallet();
  const listing = await listWithKey(admin.userId, { price });
  const id = await reserve(buyer, listing.id);
  await env.DB.batch([
    env.DB.prepare("UPDATE transactions SET status = 'completed', tx_hash = ?, completed_at = ? WHERE id = ?").bind(
      `0x${crypto.randomUUID().replace(/-/g, "").repeat(2)}`,
      completedAt,
      id,
    ),
    env.DB.prepare(
      `INSERT INTO sales_analytics (transaction_id, address_id, network, rarity_score, category, actual_sale_price, sale_date, leading_zeros, patterns)
       SELECT ?, id, network, rarity_score, category, price, ?, leading_zero_count, json_array(pattern) FROM addresses WHERE id = ?`,
    ).bind(id, completedAt, listing.id),
  ]);
  return { buyer, id, listing };
}

describe("who may read analytics", () => {
  it("a visitor 401, a non-admin 403, a period other than 7/30/90 400", async () => {
    expect((await client().admin.analytics.$get({ query: {} })).status).toBe(401);
    expect((await client(await ethWallet()).admin.analytics.$get({ query: {} })).status).toBe(403);
    for (const days of ["1", "365", "abc", "-7", "7.5"]) {
      const res = await client(admin).admin.analytics.$get({ query: unchecked({ days }) });
      expect(res.status).toBe(400);
      expect((await refusal(res)).message).toContain("days must be one of 7, 30, 90");
    }
  });
});

describe("the figures", () => {
  it("sales per day and network, average price, outcomes, depth-to-release, supply by tier", async () => {
    const before = await analytics("7");
    const now = Date.now();
    const a = await sold("0.5", now - 60_000);
    await sold("0.25", now - 60_000);
    const old = await sold("9", now - 20 * 86_400_000); // outside 7 days, inside 30
    // A reservation cancelled by its buyer, one expired, one failed with a reason.
    const [c, e, f] = await Promise.all([1, 2, 3].map(async () => reserve(await ethWallet(), (await listWithKey(admin.userId)).id)));
    await env.DB.batch([
      env.DB.prepare("UPDATE transactions SET status = 'cancelled' WHERE id = ?").bind(c),
      env.DB.prepare("UPDATE transactions SET status = 'expired' WHERE id = ?").bind(e),
      env.DB.prepare("UPDATE transactions SET status = 'failed', failure_reason = 'payment reverted' WHERE id = ?").bind(f),
    ]);
    // The reservation wrote the fee estimate; settling would add the actual figures (settle.ts): as it would.
    await env.DB.prepare("UPDATE gas_estimation_audit SET actual_cost = '0.00002', accuracy = 1.25, success = 1 WHERE transaction_id = ?").bind(a.id).run();
    // The buyer reveals the key: the first release, about a minute after the payment reached depth.
    expect((await client(a.buyer).transactions[":id"]["reveal-private-key"].$post({ param: { id: a.id }, json: REVEAL_BODY })).status).toBe(200);

    const after = await analytics("7");
    const today = new Date(now - 60_000).toISOString().slice(0, 10);
    const day = (r: AnalyticsResponse) => r.salesByDay.find((d) => d.day === today && d.network === "ethereum") ?? { sales: 0, volume: "0" };
    expect(day(after).sales - day(before).sales).toBe(2);
    expect(Number(day(after).volume) - Number(day(before).volume)).toBeCloseTo(0.75, 8);
    expect(after.salesByDay.every((d) => d.currency === (d.network === "ethereum" ? "ETH" : "SOL"))).toBe(true);
    const custom = after.averagePrice.find((r) => r.network === "ethereum" && r.category === "custom");
    expect(custom).toBeDefined();
    const outcome = (r: AnalyticsResponse, o: string, reason: string | null = null) =>
      r.reservationOutcomes.find((x) => x.outcome === o && x.reason === reason)?.count ?? 0;
    // The 20-day-old sale was reserved now (its purchase row is new), so it counts among this week's reservations.
    expect(outcome(after, "sold") - outcome(before, "sold")).toBe(3);
    expect(outcome(after, "cancelled") - outcome(before, "cancelled")).toBe(1);
    expect(outcome(after, "expired") - outcome(before, "expired")).toBe(1);
    expect(outcome(after, "failed", "payment reverted") - outcome(before, "failed", "payment reverted")).toBe(1);
    expect(after.depthToRelease.releases - before.depthToRelease.releases).toBe(1);
    expect(after.depthToRelease.p50Seconds).toBeGreaterThanOrEqual(59);
    expect(after.period.days).toBe(7);
    const gas = (r: AnalyticsResponse) => r.gasAccuracy.find((g) => g.network === "ethereum") ?? { payments: 0, averageAccuracy: null };
    expect(gas(after).payments - gas(before).payments).toBe(1);
    expect(gas(after).averageAccuracy).not.toBeNull();

    // 30 days take the older sale in.
    const month = await analytics("30");
    const oldDay = new Date(now - 20 * 86_400_000).toISOString().slice(0, 10);
    expect(month.salesByDay.find((d) => d.day === oldDay && d.network === "ethereum")).toMatchObject({ sales: 1, volume: "9" });
    expect(old.id).toBeTruthy();

    // Supply: the listings on the market now, by tier; sold ones are not.
    const supply = (r: AnalyticsResponse) => r.supplyByTier.reduce((n, s) => n + s.listings, 0);
    await listWithKey(admin.userId);
    expect(supply(await analytics("7")) - supply(after)).toBe(1);
    expect(after.supplyByTier.every((s) => ["ULTRA RARE", "RARE", "UNCOMMON", "NOTABLE", "COMMON", "BASIC"].includes(s.tier))).toBe(true);
  });

  it("percentiles are nearest-rank", () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([5], 95)).toBe(5);
  });
});
