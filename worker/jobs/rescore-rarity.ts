// One-off rescoring after the rarity scale changed (migration 0009, docs/rarity.md): rows on an old scale get the
// current engine's score, a batch per cron tick, until none is left. Idempotent and bounded like every cron task.
import { and, asc, eq, lt } from "drizzle-orm";
import { addresses, RARITY_SCALE } from "../../schema/db";
import { createDb, writeBatch } from "../db/database";
import { analyzeAddress } from "../domain/rarity";

/** Rows per cron tick: one D1 batch of updates, a few milliseconds of scoring. */
export const RESCORE_BATCH = 500;

/** The score rows on scale 1 carry: 10 x log2(D) / 64, one decimal. */
export function scaleOneScore(log2: number): number {
  const raw = (10 * log2) / 64;
  return Math.round(Math.min(10, Math.max(0, raw)) * 10) / 10;
}

/**
 * Rescores up to `limit` rows still on an old scale; returns how many it moved to the current one. A row whose
 * stored score is exactly what the old engine gave its address gets the new engine score. Any other score came
 * from the spec's fixed bulk table (by matched length, not by difficulty: docs/rarity.md), which did not change, so
 * it is kept and only marked current.
 */
export async function rescoreRarity(d1: D1Database, limit = RESCORE_BATCH): Promise<number> {
  const db = createDb(d1);
  const a = addresses;
  const results = await db
    .select({ id: a.id, address: a.address, network: a.network, rarityScore: a.rarityScore })
    .from(a)
    .where(lt(a.rarityScale, RARITY_SCALE))
    .orderBy(asc(a.id))
    .limit(limit);
  if (results.length === 0) return 0;
  const updates = results.map((row) => {
    const { difficulty, rarityScore } = analyzeAddress(row.address, row.network);
    const engineScored = Math.abs(row.rarityScore - scaleOneScore(difficulty.log2)) < 1e-9;
    return db
      .update(a)
      .set({ rarityScore: engineScored ? rarityScore : row.rarityScore, rarityScale: RARITY_SCALE })
      .where(and(eq(a.id, row.id), lt(a.rarityScale, RARITY_SCALE)))
      .returning({ id: a.id });
  });
  // Counted from RETURNING: meta.changes also counts what triggers wrote (the listings version).
  const done = await writeBatch(db, updates);
  return done.reduce((n, r) => n + r.results.length, 0);
}
