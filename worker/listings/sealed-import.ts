// Sealed intake's import (docs/key-custody.md#sealed-intake): rows a grinder sealed to the intake key become
// listings exactly as bulk rows do (worker/listings/import.ts: the cells, the address, ownership, price and
// rarity, the vault), after three checks of their own, per row, in order: not received before (its HPKE enc,
// remembered with every listing it made, and not twice in one upload), sealed to this marketplace's current or
// previous intake key, and opening under it (so not altered). A refused row stores nothing. The opened key
// exists only in this request's memory, on its way into the vault.
import { sql } from "drizzle-orm";
import { sealedIntake } from "../../schema/db";
import type { BulkRowReason, BulkRowResult } from "../../schema/listings";
import type { SealedRow } from "../../schema/sealed-intake";
import type { Db } from "../db/database";
import type { VaultEnv } from "../vault";
import { IntakeOpener } from "../vault/intake";
import { type ImportOptions, importListings } from "./import";

const fail = (index: number, reason: BulkRowReason, message: string): BulkRowResult => ({ index, status: "error", reason, message });

/** Which of these encs were received before (one statement, whatever their number). */
async function receivedBefore(db: Db, encs: string[]): Promise<Set<string>> {
  if (encs.length === 0) return new Set();
  const rows = await db
    .select({ enc: sealedIntake.enc })
    .from(sealedIntake)
    .where(sql`${sealedIntake.enc} IN (SELECT value FROM json_each(${JSON.stringify(encs)}))`);
  return new Set(rows.map((r) => r.enc));
}

/**
 * Imports sealed rows as listings of `sellerId`: one result per row, in order (index = position in `rows`).
 * `options`: how the rows are priced and scored (a supply claim lists at its target's price, worker/supply/claims.ts).
 */
export async function importSealedRows(
  db: Db,
  env: VaultEnv,
  sellerId: number,
  rows: SealedRow[],
  options: Omit<ImportOptions, "intake"> = {},
): Promise<BulkRowResult[]> {
  const opener = await IntakeOpener.of(env);
  const before = await receivedBefore(
    db,
    rows.map((r) => r.enc),
  );
  const results: BulkRowResult[] = [];
  const plain: { index: number; row: unknown; enc: string; keyId: string }[] = [];
  const firstSeen = new Map<string, number>();
  for (const [index, row] of rows.entries()) {
    const earlier = firstSeen.get(row.enc);
    if (earlier !== undefined) {
      results.push(fail(index, "replayed", `the same sealed row as row ${earlier + 1} of this upload`));
      continue;
    }
    firstSeen.set(row.enc, index);
    if (before.has(row.enc)) {
      results.push(fail(index, "replayed", "this sealed row was received before; a sealed row is taken once"));
      continue;
    }
    const opened = await opener.open(row);
    if (!opened.ok) {
      results.push(fail(index, opened.reason, opened.message));
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(opened.plain));
    } catch {
      results.push(fail(index, "invalid-field", "the sealed row does not hold a JSON row"));
      continue;
    } finally {
      opened.plain.fill(0);
    }
    plain.push({ index, row: parsed, enc: row.enc, keyId: row.keyId });
  }
  const imported = await importListings(
    db,
    env,
    sellerId,
    plain.map((p) => p.row),
    { ...options, intake: (i) => ({ enc: plain[i].enc, keyId: plain[i].keyId }) },
  );
  for (const r of imported) results.push({ ...r, index: plain[r.index].index });
  return results.sort((a, b) => a.index - b.index);
}
