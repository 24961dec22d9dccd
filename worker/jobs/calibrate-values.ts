// Estimated value calibrated by recorded sales (docs/rarity.md). Once a day the cron fits
// algorithm_adjustments.base_value_multiplier per network, and per network, category and pattern length, from the
// sales of the last CALIBRATION_WINDOW_DAYS: the target is the geometric mean of (sale price / model estimate at
// multiplier 1), so one outlier sale cannot swing it the way an arithmetic mean would.
//   - Only market sales count: not test data, not a custom order's purchase (a price set by the quote, not by the
//     market), and each buyer wallet once per group (the geometric mean of its own sales there), so a seller who
//     buys their own listings from one wallet again and again weighs as one buyer
//     (docs/operations.md#calibration-of-estimated-values).
//   - MIN_SAMPLE (10 buyers): below it a group keeps its current multiplier; ten is where the geometric mean of
//     prices that typically spread by a factor of 2-3 settles within about 30 % of its long-run value.
//   - MAX_STEP (10 % per run, one run a day): a burst of odd sales (or wash trading from many wallets to move the
//     estimate) moves estimates by at most 10 % a day, and a real shift in the market is followed within weeks.
//   - Bounds 0.1 to 10: the model never drifts more than a factor 10 either way.
// The new row replaces the group's active one in one batch; the old rows stay as history (is_active = 0).
import { and, desc, eq, gte, inArray, isNotNull, isNull, like } from "drizzle-orm";
import { addresses, algorithmAdjustments, NETWORKS, type Network, salesAnalytics, transactions } from "../../schema/db";
import { type Db, writeBatch } from "../db/database";
import { valueInCoin } from "../domain/rarity";
import { marketSale } from "../purchases/market-sale";

export const MIN_SAMPLE = 10;
export const MAX_STEP = 0.1;
export const CALIBRATION_WINDOW_DAYS = 90;
export const CALIBRATION_INTERVAL_MS = 24 * 3_600_000;
export const MULTIPLIER_BOUNDS = [0.1, 10] as const;
/** Sales read per run at most (the newest): a bounded task. */
export const CALIBRATION_MAX_SALES = 50_000;
const REASON = "calibrated:";

/** One buyer wallet's sales in a group: it counts once, as the mean of its own. */
type BuyerSales = { n: number; sumLog: number; sumActual: number; sumEstimate: number };
type Group = { network: Network; category: string | null; patternLength: number | null; sales: number; buyers: Map<string, BuyerSales> };

/** The next multiplier: toward the target, at most MAX_STEP away from the current one, within the bounds. */
export function nextMultiplier(current: number, target: number): number {
  const stepped = Math.min(current * (1 + MAX_STEP), Math.max(current * (1 - MAX_STEP), target));
  return Math.min(MULTIPLIER_BOUNDS[1], Math.max(MULTIPLIER_BOUNDS[0], stepped));
}

/** Returns the number of multipliers written (0 when the last calibration is under a day old). */
export async function calibrateValues(db: Db, now: number): Promise<number> {
  const aa = algorithmAdjustments;
  const last = await db
    .select({ at: aa.createdAt })
    .from(aa)
    .where(like(aa.adjustmentReason, `${REASON}%`))
    .orderBy(desc(aa.createdAt))
    .get();
  if (last && last.at > now - CALIBRATION_INTERVAL_MS) return 0;
  const sa = salesAnalytics;
  const a = addresses;
  const t = transactions;
  const sales = await db
    .select({
      network: sa.network,
      category: a.category,
      patternLength: a.patternLength,
      log2: a.difficultyLog2,
      priceUnits: t.priceUnits,
      buyer: t.buyerWallet,
    })
    .from(sa)
    .innerJoin(t, eq(t.id, sa.transactionId))
    .innerJoin(a, eq(a.id, sa.addressId))
    .where(and(inArray(sa.network, [...NETWORKS]), gte(sa.saleDate, now - CALIBRATION_WINDOW_DAYS * 86_400_000), marketSale(t), isNotNull(t.buyerWallet)))
    .orderBy(desc(sa.saleDate))
    .limit(CALIBRATION_MAX_SALES);
  const groups = new Map<string, Group>();
  const add = (key: string, base: Omit<Group, "sales" | "buyers">, buyer: string, actual: number, estimate: number) => {
    const g = groups.get(key) ?? { ...base, sales: 0, buyers: new Map<string, BuyerSales>() };
    const b = g.buyers.get(buyer) ?? { n: 0, sumLog: 0, sumActual: 0, sumEstimate: 0 };
    b.n += 1;
    b.sumLog += Math.log(actual / estimate);
    b.sumActual += actual;
    b.sumEstimate += estimate;
    g.buyers.set(buyer, b);
    g.sales += 1;
    groups.set(key, g);
  };
  for (const s of sales) {
    const actual = s.priceUnits / 1e8;
    const estimate = valueInCoin(s.log2 ?? 0, s.network, 1);
    if (!(actual > 0) || !(estimate > 0) || s.buyer === null) continue;
    add(`${s.network}`, { network: s.network, category: null, patternLength: null }, s.buyer, actual, estimate);
    add(
      `${s.network}|${s.category}|${s.patternLength}`,
      { network: s.network, category: s.category, patternLength: s.patternLength },
      s.buyer,
      actual,
      estimate,
    );
  }
  let written = 0;
  for (const g of groups.values()) {
    // Each buyer is one observation: the means of its own sales in the group.
    const n = g.buyers.size;
    if (n < MIN_SAMPLE) continue;
    let sumLog = 0;
    let sumActual = 0;
    let sumEstimate = 0;
    for (const b of g.buyers.values()) {
      sumLog += b.sumLog / b.n;
      sumActual += b.sumActual / b.n;
      sumEstimate += b.sumEstimate / b.n;
    }
    const sameKind = and(
      eq(aa.network, g.network),
      g.category === null ? isNull(aa.category) : eq(aa.category, g.category),
      g.patternLength === null ? isNull(aa.patternLength) : eq(aa.patternLength, g.patternLength),
    );
    const current = await db
      .select({ m: aa.baseValueMultiplier })
      .from(aa)
      .where(and(sameKind, eq(aa.isActive, true)))
      .orderBy(desc(aa.id))
      .get();
    const from = current && current.m > 0 ? current.m : 1;
    const target = Math.exp(sumLog / n);
    const next = nextMultiplier(from, target);
    await writeBatch(db, [
      db
        .update(aa)
        .set({ isActive: false })
        .where(and(sameKind, eq(aa.isActive, true))),
      db.insert(aa).values({
        network: g.network,
        category: g.category,
        patternLength: g.patternLength,
        baseValueMultiplier: next,
        salesDataPeriod: CALIBRATION_WINDOW_DAYS,
        // The sample the fit rests on: buyers, each counted once (the listing page's "calibrated on N sales").
        salesCount: n,
        averageActualPrice: (sumActual / n).toFixed(8),
        averageEstimatedPrice: (sumEstimate / n).toFixed(8),
        adjustmentReason: `${REASON} ${n} buyers (${g.sales} sales), target x${target.toFixed(4)}, from x${from.toFixed(4)} to x${next.toFixed(4)} (step at most ${MAX_STEP * 100} %)`,
        confidenceScore: Math.min(1, n / 100),
        isActive: true,
        createdAt: now,
      }),
    ]);
    written += 1;
  }
  return written;
}
