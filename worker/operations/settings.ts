// Admin > Settings as services: the fee configuration per network with an effective-from time and
// its history, and the custom-order quote settings (moved from [vars] into D1). Every change is one batch: the
// new row and its audit row (worker/db/audit.ts), so the trail holds exactly the changes made, with who and when.
import { and, desc, eq, inArray, lte } from "drizzle-orm";
import { customOrderQuoteSettings, feeConfig, type Network, transactionAudit } from "../../schema/db";
import { decimalToUnits } from "../../schema/money";
import {
  FEE_PAST_TOLERANCE_MS,
  type FeeConfigRow,
  type FeeConfigRequest,
  MAX_FEE_SCHEDULE_DAYS,
  type QuoteSettingsRequest,
  type QuoteSettingsRow,
  type SettingsAuditEntry,
} from "../../schema/settings";
import { auditRow } from "../db/audit";
import type { AuthSession } from "../auth/middleware";
import { type Db, writeBatch } from "../db/database";
import type { FeeConfig } from "../domain/fees";
import { type QuoteConfig, quoteConfigFromRow } from "../domain/custom-orders/quote";
import { fieldError } from "../http/validate";
import type { RequestInfo } from "../http/request-info";

/** The audit actions of this tab (transaction_audit.action; transaction_id is null: they concern no purchase). */
export const SETTINGS_ACTIONS = ["fee_config_set", "quote_settings_set"] as const;
/** Rows the tab shows at most per list. */
export const SETTINGS_LIST_LIMIT = 100;

const f = feeConfig;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** With no fee_config row in force for the network: no platform fees, the spec's default gas multiplier. */
const NO_FEES: FeeConfig = { exchangeFeePercentage: "0", commissionFeePercentage: "0", minimumFee: "0", maximumFee: null, gasFeeMultiplier: "1.20" };

/** The configuration in force on `network` at `at`: the active row with the greatest effective_from <= at. */
export async function feeConfigInForce(db: Db, network: Network, at: number): Promise<FeeConfig> {
  const row = await db
    .select()
    .from(f)
    .where(and(eq(f.network, network), eq(f.isActive, true), lte(f.effectiveFrom, at)))
    .orderBy(desc(f.effectiveFrom))
    .get();
  return row ?? NO_FEES;
}

export async function feeHistory(db: Db, now: number): Promise<FeeConfigRow[]> {
  const rows = await db.select().from(f).where(eq(f.isActive, true)).orderBy(f.network, desc(f.effectiveFrom)).limit(SETTINGS_LIST_LIMIT);
  const inForce = new Map<string, number>();
  for (const r of rows) if (r.effectiveFrom <= now && !inForce.has(r.network)) inForce.set(r.network, r.id);
  return rows.map((r) => ({
    id: r.id,
    network: r.network,
    exchangeFeePercentage: r.exchangeFeePercentage,
    commissionFeePercentage: r.commissionFeePercentage,
    minimumFee: r.minimumFee,
    maximumFee: r.maximumFee,
    gasFeeMultiplier: r.gasFeeMultiplier,
    effectiveFrom: iso(r.effectiveFrom)!,
    state: r.effectiveFrom > now ? "scheduled" : inForce.get(r.network) === r.id ? "in-force" : "superseded",
    createdBy: r.createdBy,
    createdAt: iso(r.createdAt),
  }));
}

/** The canonical decimal text ("02.50" -> "2.5"), so the history and the fee math read the same figure. */
const canonical = (t: string) => {
  const [whole, frac = ""] = t.split(".");
  const w = whole.replace(/^0+(?=.)/, "");
  const fr = frac.replace(/0+$/, "");
  return fr ? `${w}.${fr}` : w;
};

/**
 * Adds a fee configuration for a network, in force from `effectiveFrom` (now when omitted): never in the past
 * (what reservations were charged is history), at most MAX_FEE_SCHEDULE_DAYS ahead; the maximum fee, when set,
 * not below the minimum. A second configuration at the very same time is refused (409).
 */
export async function setFeeConfig(db: Db, session: AuthSession, input: FeeConfigRequest, request: RequestInfo, now: number): Promise<FeeConfigRow> {
  const from = input.effectiveFrom === undefined ? now : Date.parse(input.effectiveFrom);
  if (!Number.isFinite(from)) throw fieldError("effectiveFrom", "enter a date and time with a time zone, such as 2027-01-01T00:00:00Z");
  if (from < now - FEE_PAST_TOLERANCE_MS) throw fieldError("effectiveFrom", "choose now or a later time: fees already charged cannot change");
  if (from > now + MAX_FEE_SCHEDULE_DAYS * 86_400_000) throw fieldError("effectiveFrom", `choose a time at most ${MAX_FEE_SCHEDULE_DAYS} days ahead`);
  const effectiveFrom = Math.max(from, now);
  const values = {
    network: input.network,
    exchangeFeePercentage: canonical(input.exchangeFeePercentage),
    commissionFeePercentage: canonical(input.commissionFeePercentage),
    minimumFee: canonical(input.minimumFee),
    maximumFee: input.maximumFee == null ? null : canonical(input.maximumFee),
    gasFeeMultiplier: canonical(input.gasFeeMultiplier),
  };
  if (values.maximumFee !== null && decimalToUnits(values.maximumFee) < decimalToUnits(values.minimumFee)) {
    throw fieldError("maximumFee", "enter no less than the minimum fee, or leave it empty for no maximum");
  }
  const taken = await db
    .select({ id: f.id })
    .from(f)
    .where(and(eq(f.network, input.network), eq(f.isActive, true), eq(f.effectiveFrom, effectiveFrom)))
    .get();
  if (taken) throw fieldError("effectiveFrom", "another configuration for this network starts at that very time; choose another time", 409);
  await writeBatch(db, [
    db.insert(f).values({ ...values, effectiveFrom, isActive: true, createdBy: session.walletAddress, createdAt: now }),
    auditRow({
      transactionId: null,
      action: "fee_config_set",
      performedBy: session.walletAddress,
      metadata: { ...values, effectiveFrom: new Date(effectiveFrom).toISOString() },
      request,
      timestamp: now,
    }),
  ]);
  const rows = await feeHistory(db, now);
  return rows.find((r) => r.network === input.network && r.effectiveFrom === new Date(effectiveFrom).toISOString())!;
}

const q = customOrderQuoteSettings;

/** The quote in force: the newest row (migration 0018 seeds one from the former [vars] defaults). */
export async function quoteSettingsInForce(db: Db): Promise<QuoteConfig> {
  const row = await db.select().from(q).orderBy(desc(q.createdAt), desc(q.id)).get();
  return quoteConfigFromRow(row ?? null);
}

export async function quoteHistory(db: Db): Promise<QuoteSettingsRow[]> {
  const rows = await db.select().from(q).orderBy(desc(q.createdAt), desc(q.id)).limit(SETTINGS_LIST_LIMIT);
  return rows.map((r) => ({ ...r, createdAt: iso(r.createdAt)! }));
}

/** Replaces the quote settings; the maximum price must not be below the base price. */
export async function setQuoteSettings(
  db: Db,
  session: AuthSession,
  input: QuoteSettingsRequest,
  request: RequestInfo,
  now: number,
): Promise<QuoteSettingsRow> {
  const values = {
    basePrice: canonical(input.basePrice),
    pricePerBillion: canonical(input.pricePerBillion),
    maxPrice: canonical(input.maxPrice),
    maxDifficultyBits: input.maxDifficultyBits,
    grindRate: input.grindRate,
  };
  if (decimalToUnits(values.maxPrice) < decimalToUnits(values.basePrice)) throw fieldError("maxPrice", "enter no less than the base price");
  await writeBatch(db, [
    db.insert(q).values({ ...values, createdBy: session.walletAddress, createdAt: now }),
    auditRow({ transactionId: null, action: "quote_settings_set", performedBy: session.walletAddress, metadata: values, request, timestamp: now }),
  ]);
  return (await quoteHistory(db))[0];
}

/** The tab's audit trail: every settings change, newest first. */
export async function settingsAudit(db: Db): Promise<SettingsAuditEntry[]> {
  const t = transactionAudit;
  const rows = await db
    .select({ action: t.action, performedBy: t.performedBy, timestamp: t.timestamp, metadata: t.metadata })
    .from(t)
    .where(inArray(t.action, [...SETTINGS_ACTIONS]))
    .orderBy(desc(t.timestamp), desc(t.id))
    .limit(SETTINGS_LIST_LIMIT);
  return rows.map((r) => ({ action: r.action, performedBy: r.performedBy, at: iso(r.timestamp)!, details: r.metadata }));
}
