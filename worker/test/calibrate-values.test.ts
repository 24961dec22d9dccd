// Estimated value calibrated by sales (issue 24 §3): the cron fits algorithm_adjustments per network and per
// category and pattern length from recorded sales, with a minimum sample and a bounded step per run (once a day);
// the listing page's estimate says how many sales it rests on.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ListingContext } from "../../schema/listing-context";
import { createDb } from "../db";
import { valueInCoin } from "../domain/rarity";
import { CALIBRATION_INTERVAL_MS, calibrateValues, MAX_STEP, MIN_SAMPLE, MULTIPLIER_BOUNDS, nextMultiplier } from "../jobs/calibrate-values";
import { actors, call, listWithKey, type Wallet } from "./purchase-fixtures";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});
const db = createDb(env.DB);
const LOG2 = 24;

/** A listing of `category`/`length` at difficulty 2^LOG2 sold at `factor` times the model's estimate. */
async function sale(category: string, length: number, factor: number, at: number) {
  const price = (valueInCoin(LOG2, "ethereum", 1) * factor).toFixed(8);
  const listing = await listWithKey(seller.userId, { price });
  const id = crypto.randomUUID();
  const units = Math.round(Number(price) * 1e8);
  await env.DB.batch([
    env.DB.prepare("UPDATE addresses SET category = ?, pattern_length = ?, difficulty_log2 = ?, status = 'sold', is_listed = 0 WHERE id = ?").bind(
      category,
      length,
      LOG2,
      listing.id,
    ),
    env.DB.prepare(
      `INSERT INTO transactions (id, address_id, network, price, price_units, currency, total_amount, total_units, status, completed_at, created_at)
       VALUES (?, ?, 'ethereum', ?, ?, 'ETH', ?, ?, 'completed', ?, ?)`,
    ).bind(id, listing.id, price, units, price, units, at, at),
    env.DB.prepare(
      `INSERT INTO sales_analytics (transaction_id, address_id, network, category, actual_sale_price, sale_date) VALUES (?, ?, 'ethereum', ?, ?, ?)`,
    ).bind(id, listing.id, category, price, at),
  ]);
}

const active = (category: string | null, length: number | null) =>
  env.DB.prepare("SELECT * FROM algorithm_adjustments WHERE network = 'ethereum' AND is_active = 1 AND category IS ? AND pattern_length IS ?")
    .bind(category, length)
    .all<{ base_value_multiplier: number; sales_count: number; adjustment_reason: string }>()
    .then((r) => r.results);

describe("the step rule", () => {
  it("moves toward the target by at most MAX_STEP, within the bounds", () => {
    expect(nextMultiplier(1, 2)).toBeCloseTo(1 + MAX_STEP, 10);
    expect(nextMultiplier(1, 0.5)).toBeCloseTo(1 - MAX_STEP, 10);
    expect(nextMultiplier(1, 1.05)).toBeCloseTo(1.05, 10);
    expect(nextMultiplier(MULTIPLIER_BOUNDS[1], 100)).toBe(MULTIPLIER_BOUNDS[1]);
    expect(nextMultiplier(MULTIPLIER_BOUNDS[0], 0.001)).toBe(MULTIPLIER_BOUNDS[0]);
  });
});

describe("calibrateValues", () => {
  it("fits a kind with enough sales, step-limited, once a day; a kind with too few keeps the model; the listing page says how many sales", async () => {
    const now = Date.now();
    // Twelve sales of "word-like", length 5, all at twice the model; nine of "palindrome", length 6.
    for (let i = 0; i < MIN_SAMPLE + 2; i++) await sale("word-like", 5, 2, now - (i + 1) * 3_600_000);
    for (let i = 0; i < MIN_SAMPLE - 1; i++) await sale("palindrome", 6, 3, now - (i + 1) * 3_600_000);
    const listing = await listWithKey(seller.userId, { price: "1" });
    await env.DB.prepare("UPDATE addresses SET category = 'word-like', pattern_length = 5, difficulty_log2 = ? WHERE id = ?").bind(LOG2, listing.id).run();
    const context = async () => ((await (await call("GET", `/api/addresses/${listing.id}/context`)).json()) as ListingContext).estimatedValue;
    const before = await context();
    expect(before.basedOnSales).toBe(0);

    expect(await calibrateValues(db, now)).toBe(2); // the network row and word-like/5
    const [kind] = await active("word-like", 5);
    expect(kind).toMatchObject({ sales_count: MIN_SAMPLE + 2 });
    expect(kind.base_value_multiplier).toBeCloseTo(1 + MAX_STEP, 10);
    expect(kind.adjustment_reason).toMatch(/^calibrated: 12 sales, target x2\.0000/);
    expect(await active("palindrome", 6)).toEqual([]);
    const [network] = await active(null, null);
    expect(network.sales_count).toBe(2 * MIN_SAMPLE + 1);

    const after = await context();
    expect(after.basedOnSales).toBe(MIN_SAMPLE + 2);
    expect(Number(after.amount) / Number(before.amount)).toBeCloseTo(1 + MAX_STEP, 4);

    // Not again the same day; a day later one more bounded step.
    expect(await calibrateValues(db, now + 60_000)).toBe(0);
    expect(await calibrateValues(db, now + CALIBRATION_INTERVAL_MS + 1)).toBe(2);
    expect((await active("word-like", 5))[0].base_value_multiplier).toBeCloseTo((1 + MAX_STEP) ** 2, 10);
    // History is kept: one active row per kind, the older ones inactive.
    const all = await env.DB.prepare("SELECT count(*) AS n FROM algorithm_adjustments WHERE category = 'word-like' AND pattern_length = 5").first<{
      n: number;
    }>();
    expect(all!.n).toBe(2);
  });
});
