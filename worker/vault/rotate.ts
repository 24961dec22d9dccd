// Re-wraps every encrypted_keys record under a new secret (the core of `npm run keys:rotate`).
//
// Per record, the MAC decides: authentic under the new secret -> skipped (already rotated); authentic under
// the old secret -> data key re-wrapped, salt renewed, keyVersion set to the target, MAC recomputed;
// neither -> failed (reported by id, left untouched). Private keys are never decrypted. Records are read in
// id order in bounded batches and each batch is written in one atomic D1 batch whose updates only apply if
// the row still holds what was read (same mac), so a concurrent run or a key destruction is never
// overwritten. A run stopped at any point (crash, Ctrl-C, `limit`) is resumed by running it again.
import { and, asc, desc, eq, gt } from "drizzle-orm";
import { addresses, encryptedKeys } from "../../schema/db";
import type { Db } from "../db/database";
import { VaultError } from "./errors";
import { assertSecret } from "./keys";
import { type EncryptedKeyRecord, isSealedUnder, rewrapKey } from "./vault";

export const DEFAULT_ROTATION_BATCH = 100;
export const MAX_ROTATION_BATCH = 500;

export type RotationOptions = {
  oldSecret: string;
  newSecret: string;
  /** Version stamped on rotated records; default: resumes the version of an earlier run, else max + 1. */
  targetVersion?: number;
  /** Records read and written per atomic batch. */
  batchSize?: number;
  /** Stop after rotating this many records (the rest is left for the next run). */
  limit?: number;
  onProgress?: (report: RotationReport) => void;
};

export type RotationReport = {
  targetVersion: number;
  rotated: number;
  /** Already under the new secret, or changed by someone else between read and write. */
  skipped: number;
  failed: number;
  /** encrypted_keys ids that open under neither secret (or whose listing row is missing). */
  failedIds: number[];
  /** False when the run stopped at `limit` before reaching the end of the table. */
  complete: boolean;
};

type Row = EncryptedKeyRecord & { id: number; addressId: number; address: string | null };

const rowColumns = {
  id: encryptedKeys.id,
  addressId: encryptedKeys.addressId,
  encryptedPrivateKey: encryptedKeys.encryptedPrivateKey,
  salt: encryptedKeys.salt,
  iv: encryptedKeys.iv,
  wrappedKey: encryptedKeys.wrappedKey,
  mac: encryptedKeys.mac,
  keyVersion: encryptedKeys.keyVersion,
  address: addresses.address,
};

const selectRows = (db: Db) => db.select(rowColumns).from(encryptedKeys).leftJoin(addresses, eq(addresses.id, encryptedKeys.addressId));

const sealedUnder = (secret: string, row: Row) =>
  row.address !== null && isSealedUnder({ secret, listingId: row.addressId, address: row.address, record: row });

/**
 * The version an earlier, interrupted run under the same new secret was stamping (its records hold the
 * highest version and open under the new secret), otherwise one more than the highest version present.
 */
export async function chooseTargetVersion(db: Db, newSecret: string): Promise<number> {
  const [top] = await selectRows(db).orderBy(desc(encryptedKeys.keyVersion), asc(encryptedKeys.id)).limit(1);
  if (!top) return 2;
  return (await sealedUnder(newSecret, top)) ? top.keyVersion : top.keyVersion + 1;
}

function checkOptions(o: RotationOptions): { batchSize: number; limit: number } {
  assertSecret(o.oldSecret);
  assertSecret(o.newSecret);
  if (o.oldSecret === o.newSecret) throw new Error("The old and new secrets are identical: nothing to rotate");
  const batchSize = o.batchSize ?? DEFAULT_ROTATION_BATCH;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > MAX_ROTATION_BATCH) {
    throw new Error(`batchSize must be an integer from 1 to ${MAX_ROTATION_BATCH}`);
  }
  const limit = o.limit ?? Number.POSITIVE_INFINITY;
  if (limit !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(limit) || limit < 0)) throw new Error("limit must be a non-negative integer");
  if (o.targetVersion !== undefined && (!Number.isSafeInteger(o.targetVersion) || o.targetVersion < 1 || o.targetVersion > 2 ** 31 - 1)) {
    throw new Error("targetVersion must be a positive integer");
  }
  return { batchSize, limit };
}

type Outcome = { kind: "skipped" } | { kind: "failed"; id: number } | { kind: "rotate"; row: Row; next: EncryptedKeyRecord };

async function classify(row: Row, o: RotationOptions, targetVersion: number): Promise<Outcome> {
  if (row.address === null) return { kind: "failed", id: row.id };
  if (await sealedUnder(o.newSecret, row)) return { kind: "skipped" };
  try {
    const next = await rewrapKey({
      record: row,
      oldSecret: o.oldSecret,
      newSecret: o.newSecret,
      listingId: row.addressId,
      address: row.address,
      keyVersion: targetVersion,
    });
    return { kind: "rotate", row, next };
  } catch (err) {
    if (err instanceof VaultError) return { kind: "failed", id: row.id };
    throw err;
  }
}

export async function rotateKeys(db: Db, options: RotationOptions): Promise<RotationReport> {
  const { batchSize, limit } = checkOptions(options);
  const targetVersion = options.targetVersion ?? (await chooseTargetVersion(db, options.newSecret));
  const report: RotationReport = { targetVersion, rotated: 0, skipped: 0, failed: 0, failedIds: [], complete: false };

  let cursor = 0;
  for (;;) {
    const rows: Row[] = await selectRows(db).where(gt(encryptedKeys.id, cursor)).orderBy(asc(encryptedKeys.id)).limit(batchSize);
    if (rows.length === 0) {
      report.complete = true;
      return report;
    }
    const outcomes = await Promise.all(rows.map((row) => classify(row, options, targetVersion)));

    // Honour `limit` in id order: the cursor stops just before the first rotation beyond it.
    const updates = [];
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.kind === "rotate" && report.rotated + updates.length >= limit) {
        await writeBatch(db, updates, report);
        options.onProgress?.({ ...report });
        return report;
      }
      cursor = rows[i].id;
      if (outcome.kind === "skipped") report.skipped++;
      else if (outcome.kind === "failed") {
        report.failed++;
        report.failedIds.push(outcome.id);
      } else updates.push(outcome);
    }
    await writeBatch(db, updates, report);
    options.onProgress?.({ ...report });
  }
}

/** One atomic D1 batch; each update applies only if the row still holds the record that was re-wrapped. */
async function writeBatch(db: Db, updates: Extract<Outcome, { kind: "rotate" }>[], report: RotationReport) {
  if (updates.length === 0) return;
  const now = Date.now();
  const statements = updates.map(({ row, next }) =>
    db
      .update(encryptedKeys)
      .set({ salt: next.salt, wrappedKey: next.wrappedKey, mac: next.mac, keyVersion: next.keyVersion, updatedAt: now })
      .where(and(eq(encryptedKeys.id, row.id), eq(encryptedKeys.mac, row.mac), eq(encryptedKeys.keyVersion, row.keyVersion)))
      .returning({ id: encryptedKeys.id }),
  );
  const results = await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
  for (const applied of results) {
    if (applied.length === 1) report.rotated++;
    else report.skipped++;
  }
}
