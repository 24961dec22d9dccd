// Supply targets (docs/supply.md): what an admin wants kept in stock, and what the store holds of it. A target's
// stock is counted from the listings themselves (active, of its network and category, with a pattern at least as
// long as its own), so a hit listed through a claim, a bulk upload or by hand counts alike, and a sale takes it
// away. Status writes take their from- and to-statuses from TARGET_TRANSITIONS and CLAIM_TRANSITIONS.
import { and, asc, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import { addresses, BROWSABLE_SQL, supplyClaims, supplyTargets } from "../../schema/db";
import { checkPrice, unitsToNumber } from "../../schema/money";
import {
  CLAIM_OPEN,
  CLAIM_TRANSITIONS,
  type CreateTargetBody,
  MAX_SUPPLY_TARGETS,
  type SupplyCategory,
  supplyPattern,
  type SupplyTargetView,
  TARGET_TRANSITIONS,
  type TargetTransition,
} from "../../schema/supply";
import type { Network } from "../../schema/db";
import { bare, columnList, type Db, selected, writeBatch } from "../db/database";
import { claimedLog2 } from "../listings/claimed-pattern";
import { ApiError } from "../http/errors";
import { currencyOf } from "../../schema/network";
import { onMarket } from "../listings/status-sql";

const t = supplyTargets;
const c = supplyClaims;
const a = addresses;
const iso = (ms: number) => new Date(ms).toISOString();

export type TargetRow = typeof supplyTargets.$inferSelect;

/** In SQL, for a target row `target` (its table or an alias): how many active listings match it. */
export const stockSql = (target: { network: SQL | typeof t.network; category: SQL | typeof t.category; patternLength: SQL | typeof t.patternLength }) =>
  sql<number>`(SELECT count(*) FROM ${a} WHERE ${sql.raw(BROWSABLE_SQL)} AND ${onMarket(a)}
    AND ${a.network} = ${target.network} AND ${a.category} = ${target.category} AND ${a.patternLength} >= ${target.patternLength})`;

/** Keys one hit of this target takes on average, as log2 (the claimed characters' difficulty, docs/rarity.md). */
export function targetLog2(network: Network, category: SupplyCategory, length: number): number {
  const p = supplyPattern(network, category, length);
  return claimedLog2(network, p.prefix + p.suffix, p.prefix.length);
}

export const expectedAttempts = (log2: number): string => BigInt(Math.round(2 ** log2)).toString();

/** One target as it stands now. */
function view(row: TargetRow, stock: number, openClaims: number, rate: number): SupplyTargetView {
  const log2 = targetLog2(row.network, row.category, row.patternLength);
  const shortfall = Math.max(0, row.wanted - stock);
  return {
    id: row.id,
    network: row.network,
    category: row.category,
    patternLength: row.patternLength,
    price: row.price,
    currency: row.currency,
    wanted: row.wanted,
    status: row.status,
    stock,
    rate,
    openClaims,
    expectedAttempts: expectedAttempts(log2),
    secondsToFill: shortfall === 0 ? 0 : rate > 0 ? (shortfall * 2 ** log2) / rate : null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** Every target (at most MAX_SUPPLY_TARGETS), oldest first, with its stock and its open claims' rate. */
export async function listTargets(db: Db, now: number): Promise<SupplyTargetView[]> {
  const rows = await db
    .select({ row: t, stock: selected(stockSql(t)) })
    .from(t)
    .orderBy(asc(t.id))
    .limit(MAX_SUPPLY_TARGETS);
  if (rows.length === 0) return [];
  // An open claim past its lease has no grinder behind it, though the cron job has not closed it yet.
  const claims = await db
    .select({ targetId: c.targetId, n: count(), rate: sql<number>`coalesce(sum(${c.rate}), 0)` })
    .from(c)
    .where(and(inArray(c.status, CLAIM_OPEN), sql`${c.expiresAt} > ${now}`))
    .groupBy(c.targetId);
  const byTarget = new Map(claims.map((r) => [r.targetId, r]));
  return rows.map(({ row, stock }) => view(row, stock, byTarget.get(row.id)?.n ?? 0, byTarget.get(row.id)?.rate ?? 0));
}

export async function targetById(db: Db, id: number): Promise<TargetRow> {
  const row = await db.select().from(t).where(eq(t.id, id)).get();
  if (!row) throw new ApiError(404, `supply target ${id} does not exist`);
  return row;
}

/** A new active target; refused past MAX_SUPPLY_TARGETS or when one of the same shape exists (both inside the INSERT). */
export async function createTarget(db: Db, adminId: number, body: CreateTargetBody, now: number): Promise<number> {
  const price = checkPrice(body.price);
  if (!price.ok) throw new ApiError(400, `price: ${price.message}`);
  const currency = currencyOf(body.network);
  const [inserted] = await writeBatch(db, [
    sql`INSERT INTO ${t} ${columnList(t.network, t.category, t.patternLength, t.price, t.priceUnits, t.currency, t.wanted, t.status, t.createdBy, t.updatedAt)}
      SELECT ${body.network}, ${body.category}, ${body.patternLength}, ${price.price}, ${unitsToNumber(price.units)}, ${currency}, ${body.wanted},
        ${TARGET_TRANSITIONS.create.to}, ${adminId}, ${now}
      WHERE (SELECT count(*) FROM ${t}) < ${MAX_SUPPLY_TARGETS}
      ON CONFLICT DO NOTHING RETURNING ${bare(t.id)}`,
  ]);
  const id = (inserted.results[0] as { id: number } | undefined)?.id;
  if (id !== undefined) return id;
  const same = await db
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.network, body.network), eq(t.category, body.category), eq(t.patternLength, body.patternLength)))
    .get();
  if (same) throw new ApiError(409, `target ${same.id} already keeps this network, category and length; edit it instead`, { targetId: same.id });
  throw new ApiError(409, `at most ${MAX_SUPPLY_TARGETS} targets; delete one first`);
}

/** A new price and/or wanted count. Claims are not touched: a claim on a target now full ends at its next report. */
export async function editTarget(db: Db, id: number, body: { price?: string; wanted?: number }, now: number): Promise<void> {
  await targetById(db, id);
  const set: Partial<TargetRow> = { updatedAt: now };
  if (body.price !== undefined) {
    const price = checkPrice(body.price);
    if (!price.ok) throw new ApiError(400, `price: ${price.message}`);
    set.price = price.price;
    set.priceUnits = unitsToNumber(price.units);
  }
  if (body.wanted !== undefined) set.wanted = body.wanted;
  await db.update(t).set(set).where(eq(t.id, id));
}

/** Ends the target's open claims in SQL, as one statement of a batch. */
const endClaimsOf = (id: number, now: number) =>
  sql`UPDATE ${c} SET ${bare(c.status)} = ${CLAIM_TRANSITIONS.end.to}, ${bare(c.closedAt)} = ${now}
    WHERE ${c.targetId} = ${id} AND ${inArray(c.status, CLAIM_TRANSITIONS.end.from)}`;

/** pause or resume: a target already in the to-status is a 409 and nothing changes. Pausing ends its open claims. */
export async function moveTarget(db: Db, id: number, name: Extract<TargetTransition, "pause" | "resume">, now: number): Promise<void> {
  const row = await targetById(db, id);
  const { from, to } = TARGET_TRANSITIONS[name];
  if (!(from as readonly string[]).includes(row.status)) throw new ApiError(409, `target ${id} is ${row.status}; it cannot be ${name}d`);
  const move = sql`UPDATE ${t} SET ${bare(t.status)} = ${to}, ${bare(t.updatedAt)} = ${now} WHERE ${t.id} = ${id} AND ${inArray(t.status, from)}`;
  const [moved] = await writeBatch(db, name === "pause" ? [move, endClaimsOf(id, now)] : [move]);
  if ((moved.meta.changes ?? 0) === 0) throw new ApiError(409, `target ${id} changed meanwhile; reload`);
}

/**
 * Deletes the target and its claims in one batch. A grinder working on it is told at its next call (404: the claim
 * is gone) and moves on; the listings it made stay.
 */
export async function deleteTarget(db: Db, id: number): Promise<void> {
  await targetById(db, id);
  await writeBatch(db, [sql`DELETE FROM ${c} WHERE ${c.targetId} = ${id}`, sql`DELETE FROM ${t} WHERE ${t.id} = ${id}`]);
}
