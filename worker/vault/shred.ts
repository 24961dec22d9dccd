// Crypto-shredding of destroyed keys (docs/key-custody.md). D1 Time Travel keeps every database state for 30 days, so
// a destroyed key's ciphertext survives in those copies, wrapped under the secret of its day. The cure is
// to retire that secret: the operator rotates KEY_ENCRYPTION_SECRET every KEY_SHRED_INTERVAL_DAYS (the old
// one moves to KEY_ENCRYPTION_SECRET_PREVIOUS), this scheduled step re-wraps every live key under the new
// secret by itself, and once it reports nothing left the operator deletes the previous secret. From then on
// no copy of a destroyed key can be opened. Workers cannot change their own secrets without an API token,
// which a compromised Worker must not hold, so the two secret changes stay with the operator (README).
import { count, lt } from "drizzle-orm";
import { encryptedKeys } from "../../schema/db";
import type { Db } from "../db/database";
import { sealingKey, type VaultEnv } from "./keyring";
import { rotateKeys } from "./rotate";

/** Keys re-wrapped per cron run at most. */
export const SHRED_REWRAP_PER_RUN = 50;

export type ShredReport = { rotating: boolean; rewrapped: number; remaining: number; failed: number };

export async function rewrapUnderCurrentSecret(db: Db, env: VaultEnv): Promise<ShredReport> {
  const previous = env.KEY_ENCRYPTION_SECRET_PREVIOUS;
  if (!previous) return { rotating: false, rewrapped: 0, remaining: 0, failed: 0 };
  const { secret, keyVersion } = sealingKey(env);
  const older = async () => Number((await db.select({ n: count() }).from(encryptedKeys).where(lt(encryptedKeys.keyVersion, keyVersion)).get())?.n ?? 0);
  if ((await older()) === 0) return { rotating: true, rewrapped: 0, remaining: 0, failed: 0 };
  const report = await rotateKeys(db, {
    oldSecret: previous,
    newSecret: secret,
    targetVersion: keyVersion,
    limit: SHRED_REWRAP_PER_RUN,
    batchSize: SHRED_REWRAP_PER_RUN,
  });
  if (report.failed > 0) console.error("key re-wrap: records open under neither secret", report.failedIds.slice(0, 20));
  return { rotating: true, rewrapped: report.rotated, remaining: await older(), failed: report.failed };
}
