// Estimated value calibrated by sales: the cron fits algorithm_adjustments per network and per
// category and pattern length from recorded sales, with a minimum sample and a bounded step per run (once a day);
// the listing page's estimate says how many sales it rests on.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ListingContext } from "../../schema/listing-context";
import { createDb } from "../db/database";
import { valueInCoin } from "../domain/rarity";
import { CALIBRATION_INTERVAL_MS, calibrateValues, MAX_STEP, MIN_SAMPLE, MULTIPLIER_BOUNDS, nextMultiplier } from "../jobs/calibrate-values";
import { actors, listWithKey, type Wallet } from "./purchase-fixtures";
import { client } from "./client";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});
const db = createDb(env.DB);
const LOG2 = 24;

const randomWallet = () => `0x${Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => b.toString(16).padStart(2, "0")).join("")}`;

type SaleOptions = { buyer?: string; testData?: boolean; customOrder?: boolean };

/**
 * A listing of `category`/`length` at difficulty 2^LOG2 sold at `factor` times the model's estimate, by a wallet
 * of its own unless `buyer` is given; as test data, or as a custom order's purchase, when asked.
 */
async function sale(category: string, length: number, factor: number, at: number, options: SaleOptions = {}) {
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
      `INSERT INTO transactions (id, address_id, network, price, price_units, currency, total_amount, total_units, status, completed_at, created_at, buyer_wallet, is_test_data)
       VALUES (?, ?, 'ethereum', ?, ?, 'ETH', ?, ?, 'completed', ?, ?, ?, ?)`,
    ).bind(id, listing.id, price, units, price, units, at, at, options.buyer ?? randomWallet(), options.testData ? 1 : 0),
    env.DB.prepare(
      `INSERT INTO sales_analytics (transaction_id, address_id, network, category, actual_sale_price, sale_date) VALUES (?, ?, 'ethereum', ?, ?, ?)`,
    ).bind(id, listing.id, category, price, at),
    // A custom order's hidden listing is the address the order found (orders/order-listing.ts).
    ...(options.customOrder
      ? [
          env.DB.prepare(
            `INSERT INTO custom_orders (buyer_id, buyer_wallet, public_key, prefix, suffix, case_sensitive, difficulty_bits, price, price_units, currency, status, found_address, created_at, updated_at)
             SELECT ?, 'w', 'pk', 'ab', '', 0, 8, ?, ?, 'ETH', 'completed', address, ?, ? FROM addresses WHERE id = ?`,
          ).bind(seller.userId, price, units, at, at, listing.id),
        ]
      : []),
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
    const context = async () =>
      ((await (await client().addresses[":id"].context.$get({ param: { id: String(listing.id) } })).json()) as ListingContext).estimatedValue;
    const before = await context();
    expect(before.basedOnSales).toBe(0);

    expect(await calibrateValues(db, now)).toBe(2); // the network row and word-like/5
    const [kind] = await active("word-like", 5);
    expect(kind).toMatchObject({ sales_count: MIN_SAMPLE + 2 });
    expect(kind.base_value_multiplier).toBeCloseTo(1 + MAX_STEP, 10);
    expect(kind.adjustment_reason).toMatch(/^calibrated: 12 buyers \(12 sales\), target x2\.0000/);
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

describe("only market sales count, each buyer wallet once per group", () => {
  it("a seller's wash sales from one wallet count as one buyer: the group stays below the sample, the estimate unmoved", async () => {
    const now = Date.now() + 10 * CALIBRATION_INTERVAL_MS;
    const wash = randomWallet();
    for (let i = 0; i < 3 * MIN_SAMPLE; i++) await sale("wash", 7, 10, now - (i + 1) * 60_000, { buyer: wash });
    for (let i = 0; i < MIN_SAMPLE - 2; i++) await sale("wash", 7, 1, now - (i + 1) * 60_000);
    await calibrateValues(db, now);
    expect(await active("wash", 7)).toEqual([]);
  });

  it("custom orders and test data are not market sales: neither fits a group", async () => {
    const now = Date.now() + 20 * CALIBRATION_INTERVAL_MS;
    for (let i = 0; i < MIN_SAMPLE + 2; i++) await sale("ordered", 8, 5, now - (i + 1) * 60_000, { customOrder: true });
    for (let i = 0; i < MIN_SAMPLE + 2; i++) await sale("test-data", 9, 5, now - (i + 1) * 60_000, { testData: true });
    await calibrateValues(db, now);
    expect(await active("ordered", 8)).toEqual([]);
    expect(await active("test-data", 9)).toEqual([]);
  });

  it("the target is the mean over buyers: one wallet's twenty sales at 100x weigh as one buyer among eleven", async () => {
    const now = Date.now() + 30 * CALIBRATION_INTERVAL_MS;
    for (let i = 0; i < MIN_SAMPLE; i++) await sale("steered", 4, 0.5, now - (i + 1) * 60_000);
    const steerer = randomWallet();
    for (let i = 0; i < 20; i++) await sale("steered", 4, 100, now - (i + 1) * 60_000, { buyer: steerer });
    await calibrateValues(db, now);
    const [kind] = await active("steered", 4);
    // Eleven buyers: ten at 0.5x, one at 100x. Counted per sale the target would be about 17x and the step up.
    const target = Math.exp((MIN_SAMPLE * Math.log(0.5) + Math.log(100)) / (MIN_SAMPLE + 1));
    expect(kind.sales_count).toBe(MIN_SAMPLE + 1);
    expect(kind.adjustment_reason).toContain(`calibrated: ${MIN_SAMPLE + 1} buyers (${MIN_SAMPLE + 20} sales), target x${target.toFixed(4)}`);
    expect(kind.base_value_multiplier).toBeCloseTo(1 - MAX_STEP, 10);
  });
});
