// Grinders' claims on supply targets (docs/supply.md#claims): a claim is a lease on work for one target, held by
// one grinder process (its random id, under the admin session it signed in with), renewed by its progress reports
// and closed by the grinder, by the server when the target is full, paused or deleted, or by the cron job when no
// report came within SUPPLY_CLAIM_LEASE_MS. The bounds (open claims per target and per grinder, the target's
// shortfall) are checked inside the claiming INSERT, so grinders claiming at once cannot pass them. Every status
// write takes its from- and to-statuses from CLAIM_TRANSITIONS.
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { BulkRowResult } from "../../schema/listings";
import { supplyClaims, supplyTargets } from "../../schema/db";
import type { SealedRow } from "../../schema/sealed-intake";
import {
  CLAIM_CLOSED,
  CLAIM_OPEN,
  CLAIM_TRANSITIONS,
  type ClaimTransition,
  MAX_OPEN_CLAIMS_PER_GRINDER,
  MAX_OPEN_CLAIMS_PER_TARGET,
  SUPPLY_CLAIM_FORGET_MS,
  SUPPLY_CLAIM_LEASE_MS,
  type SupplyClaimView,
  supplyPattern,
  TARGET_TRANSITIONS,
} from "../../schema/supply";
import { bare, columnList, type Db, selected, writeBatch } from "../db/database";
import { ApiError } from "../http/errors";
import { importSealedRows } from "../listings/sealed-import";
import type { VaultEnv } from "../vault";
import { expectedAttempts, stockSql, type TargetRow, targetById, targetLog2 } from "./targets";

const c = supplyClaims;
const t = supplyTargets;

/** Who calls: the grinder process and the admin session it signed in with. */
export type ClaimHolder = { grinder: string; adminId: number };
type ClaimRow = typeof supplyClaims.$inferSelect;

/** Claims closed by the cron job per run, and closed claims deleted per run. */
const CRON_SLICE = 500;

const holds = (h: ClaimHolder) => and(eq(c.grinderId, h.grinder), eq(c.adminId, h.adminId));

async function stockOf(db: Db, row: TargetRow): Promise<number> {
  const r = await db
    .select({ n: selected(stockSql(t)) })
    .from(t)
    .where(eq(t.id, row.id))
    .get();
  return r?.n ?? 0;
}

function claimView(claim: ClaimRow, target: TargetRow, stock: number): SupplyClaimView {
  return {
    id: claim.id,
    targetId: target.id,
    network: target.network,
    category: target.category,
    patternLength: target.patternLength,
    ...supplyPattern(target.network, target.category, target.patternLength),
    price: target.price,
    currency: target.currency,
    shortfall: Math.max(0, target.wanted - stock),
    expectedAttempts: expectedAttempts(targetLog2(target.network, target.category, target.patternLength)),
  };
}

/**
 * The grinder's open claim (renewed), or a new one on the active target that lacks most stock and has room for
 * another grinder; null when there is none. One INSERT decides, with the bounds in its WHERE.
 */
export async function claimWork(db: Db, h: ClaimHolder, label: string, now: number): Promise<SupplyClaimView | null> {
  const expiresAt = now + SUPPLY_CLAIM_LEASE_MS;
  const held = await db
    .update(c)
    .set({ reportedAt: now, expiresAt, label })
    .where(and(holds(h), inArray(c.status, CLAIM_OPEN)))
    .returning()
    .get();
  let claim: ClaimRow | undefined = held;
  if (!claim) {
    // Open claims past their lease still count until the cron job closes them: a grinder that died does not
    // free its place for a minute, and the bounds never count fewer claims than the table holds.
    const openOf = (where: ReturnType<typeof sql>) => sql`(SELECT count(*) FROM ${c} WHERE ${where} AND ${inArray(c.status, CLAIM_OPEN)})`;
    const stock = stockSql(t);
    const [inserted] = await writeBatch(db, [
      sql`INSERT INTO ${c} ${columnList(c.targetId, c.grinderId, c.adminId, c.label, c.status, c.reportedAt, c.expiresAt)}
        SELECT ${t.id}, ${h.grinder}, ${h.adminId}, ${label}, ${CLAIM_TRANSITIONS.claim.to}, ${now}, ${expiresAt} FROM ${t}
        WHERE ${inArray(t.status, [TARGET_TRANSITIONS.create.to])}
          AND ${stock} < ${t.wanted}
          AND ${openOf(sql`${c.targetId} = ${t.id}`)} < ${MAX_OPEN_CLAIMS_PER_TARGET}
          AND ${openOf(sql`${c.grinderId} = ${h.grinder}`)} < ${MAX_OPEN_CLAIMS_PER_GRINDER}
        ORDER BY ${t.wanted} - ${stock} DESC, ${t.id}
        LIMIT 1
        RETURNING ${bare(c.id)}`,
    ]);
    const id = (inserted.results[0] as { id: number } | undefined)?.id;
    if (id === undefined) return null;
    claim = await db.select().from(c).where(eq(c.id, id)).get();
    if (!claim) return null;
  }
  const target = await targetById(db, claim.targetId);
  return claimView(claim, target, await stockOf(db, target));
}

/** The holder's open claim `id`, or why not: 404 for no such claim, 409 for one not open or not this grinder's. */
async function openClaim(db: Db, id: number, h: ClaimHolder): Promise<ClaimRow> {
  const claim = await db.select().from(c).where(eq(c.id, id)).get();
  if (!claim) throw new ApiError(404, `supply claim ${id} does not exist (its target may have been deleted)`);
  if (claim.grinderId !== h.grinder || claim.adminId !== h.adminId) throw new ApiError(409, `supply claim ${id} belongs to another grinder`);
  if (!(CLAIM_OPEN as readonly string[]).includes(claim.status)) throw new ApiError(409, `supply claim ${id} is ${claim.status}; claim again`);
  return claim;
}

/** Moves the holder's open claim by `name`; false when it was no longer open (another write came first). */
async function close(db: Db, id: number, h: ClaimHolder, name: Exclude<ClaimTransition, "claim">, now: number): Promise<boolean> {
  const { from, to } = CLAIM_TRANSITIONS[name];
  const res = await db
    .update(c)
    .set({ status: to, closedAt: now })
    .where(and(eq(c.id, id), holds(h), inArray(c.status, from)))
    .returning({ id: c.id });
  return res.length > 0;
}

/** Whether the target still wants work: active and short of stock. Ends the claim when it does not. */
async function stillWanted(db: Db, claim: ClaimRow, h: ClaimHolder, now: number): Promise<boolean> {
  const target = await targetById(db, claim.targetId);
  const wanted = (TARGET_TRANSITIONS.create.to as string) === target.status && (await stockOf(db, target)) < target.wanted;
  if (!wanted) await close(db, claim.id, h, "end", now);
  return wanted;
}

/** A progress report: renews the lease and records the attempts and rate; false (and the claim ended) when the target needs no more. */
export async function reportProgress(db: Db, id: number, h: ClaimHolder, attempts: number, rate: number, now: number): Promise<boolean> {
  const claim = await openClaim(db, id, h);
  const renewed = await db
    .update(c)
    .set({ attempts, rate, reportedAt: now, expiresAt: now + SUPPLY_CLAIM_LEASE_MS })
    .where(and(eq(c.id, id), holds(h), inArray(c.status, CLAIM_OPEN)))
    .returning({ id: c.id });
  if (renewed.length === 0) throw new ApiError(409, `supply claim ${id} closed meanwhile; claim again`);
  return stillWanted(db, claim, h, now);
}

/**
 * Lists the holder's sealed hits at the target's price, as the sealed intake does (worker/listings/sealed-import.ts:
 * replay, intake key, opening, ownership), refusing rows whose address is not of the target's network, category and
 * length. Answers the rows' results and whether to go on.
 */
export async function listSealed(
  db: Db,
  env: VaultEnv,
  id: number,
  h: ClaimHolder,
  rows: SealedRow[],
  now: number,
): Promise<{ results: BulkRowResult[]; continue: boolean }> {
  const claim = await openClaim(db, id, h);
  const target = await targetById(db, claim.targetId);
  const results = await importSealedRows(db, env, h.adminId, rows, {
    rarity: "engine",
    longPatterns: "keep",
    decorate: ({ network, analysis }) =>
      network === target.network && analysis.category === target.category && analysis.patternLength >= target.patternLength
        ? { price: target.price }
        : {
            refuse: `this address shows ${analysis.patternLength} character(s) of ${analysis.category} on ${network}; the target wants ${target.patternLength}+ of ${target.category} on ${target.network}`,
          },
  });
  const listed = results.filter((r) => r.status === "success").length;
  await db
    .update(c)
    .set({ listed: sql`${c.listed} + ${listed}`, reportedAt: now, expiresAt: now + SUPPLY_CLAIM_LEASE_MS })
    .where(and(eq(c.id, id), holds(h), inArray(c.status, CLAIM_OPEN)));
  return { results, continue: await stillWanted(db, claim, h, now) };
}

/** The grinder gives its open claim up. */
export async function releaseClaim(db: Db, id: number, h: ClaimHolder, now: number): Promise<void> {
  await openClaim(db, id, h);
  if (!(await close(db, id, h, "release", now))) throw new ApiError(409, `supply claim ${id} closed meanwhile`);
}

export type SupplyJobReport = { expired: number; forgotten: number };

/** The cron job's clock exit: open claims past their lease are expired, closed ones past SUPPLY_CLAIM_FORGET_MS deleted (each bounded). */
export async function runSupplyJob(db: Db, now: number): Promise<SupplyJobReport> {
  const { from, to } = CLAIM_TRANSITIONS.expire;
  const [expired, forgotten] = await writeBatch(db, [
    sql`UPDATE ${c} SET ${bare(c.status)} = ${to}, ${bare(c.closedAt)} = ${now}
      WHERE ${c.id} IN (SELECT ${c.id} FROM ${c} WHERE ${inArray(c.status, from)} AND ${lt(c.expiresAt, now + 1)} LIMIT ${CRON_SLICE})`,
    sql`DELETE FROM ${c} WHERE ${c.id} IN (SELECT ${c.id} FROM ${c} WHERE ${inArray(c.status, CLAIM_CLOSED)} AND ${lt(c.closedAt, now - SUPPLY_CLAIM_FORGET_MS)} LIMIT ${CRON_SLICE})`,
  ]);
  return { expired: expired.meta.changes ?? 0, forgotten: forgotten.meta.changes ?? 0 };
}
