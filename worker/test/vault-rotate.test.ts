// Rotation of KEY_ENCRYPTION_SECRET (worker/vault/rotate.ts, the core of `npm run keys:rotate`) on a real
// D1: nothing lost, nothing left readable under the old secret, resumable, and safe to run twice at once.
import { env } from "cloudflare:test";
import { asc, eq } from "drizzle-orm";
import { base64 } from "@scure/base";
import { beforeEach, describe, expect, it } from "vitest";
import { addresses, encryptedKeys } from "../../schema/db";
import { createDb, type Db } from "../db/database";
import { type EncryptedKeyRecord, openKey, sealKey, VaultError } from "../vault";
import { type RotationReport, rotateKeys } from "../vault/rotate";

const OLD = "rotation-test-old-secret-0123456789abcdef";
const NEW = "rotation-test-new-secret-0123456789abcdef";
const THIRD = "rotation-test-third-secret-0123456789abcd";

type Seeded = { listingId: number; address: string; privateKey: string };

const db: Db = createDb(env.DB);

const randomKey = () => `0x${Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("")}`;

/** Inserts `count` listings from `firstId` with keys sealed under `secret` (100 rows per D1 batch). */
async function seed(firstId: number, count: number, secret: string, keyVersion = 1): Promise<Seeded[]> {
  const rows: Seeded[] = Array.from({ length: count }, (_, i) => ({
    listingId: firstId + i,
    address: `0x${(firstId + i).toString(16).padStart(40, "0")}`,
    privateKey: randomKey(),
  }));
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100);
    const sealed = await Promise.all(chunk.map((r) => sealKey({ secret, keyVersion, ...r })));
    const statements = chunk.flatMap((r, j) => [
      db.insert(addresses).values({ id: r.listingId, address: r.address, network: "ethereum", price: "1", priceUnits: 100_000_000, currency: "ETH" }),
      db.insert(encryptedKeys).values({ addressId: r.listingId, ...sealed[j] }),
    ]);
    await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
  }
  return rows;
}

const storedKeys = () => db.select().from(encryptedKeys).orderBy(asc(encryptedKeys.addressId));

async function opens(secret: string, s: Seeded, record: EncryptedKeyRecord): Promise<string | VaultError> {
  return openKey({ secret, listingId: s.listingId, address: s.address, record }).catch((e: VaultError) => e);
}

beforeEach(async () => {
  await env.DB.batch([env.DB.prepare("DELETE FROM encrypted_keys"), env.DB.prepare("DELETE FROM addresses")]);
});

describe("rotateKeys", () => {
  it("rotates 1,000 records: interrupted, resumed, nothing lost, nothing readable under the old secret", { timeout: 60_000 }, async () => {
    const seeded = await seed(1, 1000, OLD);
    const before = await storedKeys();

    // An interrupted run: stops after 300 rotations, the lowest ids first.
    const first = await rotateKeys(db, { oldSecret: OLD, newSecret: NEW, batchSize: 64, limit: 300 });
    expect(first).toEqual({ targetVersion: 2, rotated: 300, skipped: 0, failed: 0, failedIds: [], complete: false });
    const midway = await storedKeys();
    expect(midway.filter((r) => r.keyVersion === 2).map((r) => r.addressId)).toEqual(seeded.slice(0, 300).map((s) => s.listingId));
    expect(await opens(NEW, seeded[299], midway[299])).toBe(seeded[299].privateKey);
    expect(await opens(OLD, seeded[300], midway[300])).toBe(seeded[300].privateKey);

    // Resumed: the same target version, the 300 done records skipped, the rest rotated.
    const progress: RotationReport[] = [];
    const second = await rotateKeys(db, { oldSecret: OLD, newSecret: NEW, batchSize: 64, onProgress: (r) => progress.push(r) });
    expect(second).toEqual({ targetVersion: 2, rotated: 700, skipped: 300, failed: 0, failedIds: [], complete: true });
    expect(progress.length).toBe(Math.ceil(1000 / 64));

    const after = await storedKeys();
    expect(after).toHaveLength(1000);
    for (const [i, s] of seeded.entries()) {
      const record = after[i];
      expect(record.addressId).toBe(s.listingId);
      expect(record.keyVersion).toBe(2);
      // Re-wrapped, not re-encrypted: the ciphertext and iv are the ones sealed at the start.
      expect(record.encryptedPrivateKey).toBe(before[i].encryptedPrivateKey);
      expect(record.iv).toBe(before[i].iv);
      expect(record.salt).not.toBe(before[i].salt);
      expect(await opens(NEW, s, record)).toBe(s.privateKey);
      const underOld = await opens(OLD, s, record);
      expect(underOld).toBeInstanceOf(VaultError);
      expect((underOld as VaultError).code).toBe("authentication-failed");
    }

    // A run after completion changes nothing.
    const third = await rotateKeys(db, { oldSecret: OLD, newSecret: NEW });
    expect(third).toEqual({ targetVersion: 2, rotated: 0, skipped: 1000, failed: 0, failedIds: [], complete: true });
    expect(await storedKeys()).toEqual(after);
  });

  it("reports records that open under neither secret, leaves them untouched, and rotates the rest", async () => {
    const good = await seed(1, 10, OLD);
    await seed(11, 1, THIRD);
    const [tampered] = await seed(12, 1, OLD);
    const [row] = await db.select().from(encryptedKeys).where(eq(encryptedKeys.addressId, tampered.listingId));
    const mac = base64.decode(row.mac);
    mac[0] ^= 1;
    await db
      .update(encryptedKeys)
      .set({ mac: base64.encode(mac) })
      .where(eq(encryptedKeys.id, row.id));
    const untouched = (await storedKeys()).slice(10);

    const report = await rotateKeys(db, { oldSecret: OLD, newSecret: NEW, batchSize: 5 });
    expect(report).toMatchObject({ rotated: 10, skipped: 0, failed: 2, complete: true });
    const after = await storedKeys();
    expect(report.failedIds).toEqual(untouched.map((r) => r.id));
    expect(after.slice(10)).toEqual(untouched);
    for (const [i, s] of good.entries()) expect(await opens(NEW, s, after[i])).toBe(s.privateKey);
  });

  it("two runs at once rotate each record exactly once", { timeout: 30_000 }, async () => {
    const seeded = await seed(1, 200, OLD);
    const [a, b] = await Promise.all([
      rotateKeys(db, { oldSecret: OLD, newSecret: NEW, batchSize: 50 }),
      rotateKeys(db, { oldSecret: OLD, newSecret: NEW, batchSize: 50 }),
    ]);
    expect(a.rotated + b.rotated).toBe(200);
    expect(a.failed + b.failed).toBe(0);
    const after = await storedKeys();
    for (const [i, s] of seeded.entries()) expect(await opens(NEW, s, after[i])).toBe(s.privateKey);
  });

  it("skips records the Worker already sealed under the new secret and resumes their version", async () => {
    const old = await seed(1, 5, OLD);
    const fresh = await seed(6, 3, NEW, 2);
    const report = await rotateKeys(db, { oldSecret: OLD, newSecret: NEW });
    expect(report).toEqual({ targetVersion: 2, rotated: 5, skipped: 3, failed: 0, failedIds: [], complete: true });
    const after = await storedKeys();
    for (const [i, s] of [...old, ...fresh].entries()) expect(await opens(NEW, s, after[i])).toBe(s.privateKey);
  });

  it("a later rotation moves to the next version; an explicit target version is honoured", async () => {
    const seeded = await seed(1, 4, OLD);
    expect((await rotateKeys(db, { oldSecret: OLD, newSecret: NEW })).targetVersion).toBe(2);
    expect(await rotateKeys(db, { oldSecret: NEW, newSecret: THIRD })).toMatchObject({ targetVersion: 3, rotated: 4 });
    expect(await rotateKeys(db, { oldSecret: THIRD, newSecret: OLD, targetVersion: 10 })).toMatchObject({ targetVersion: 10, rotated: 4 });
    const after = await storedKeys();
    for (const [i, s] of seeded.entries()) {
      expect(after[i].keyVersion).toBe(10);
      expect(await opens(OLD, s, after[i])).toBe(s.privateKey);
    }
  });

  it("an empty table is a complete run with nothing to do", async () => {
    expect(await rotateKeys(db, { oldSecret: OLD, newSecret: NEW })).toEqual({
      targetVersion: 2,
      rotated: 0,
      skipped: 0,
      failed: 0,
      failedIds: [],
      complete: true,
    });
  });

  it("refuses unusable options before changing anything", async () => {
    await seed(1, 3, OLD);
    const before = await storedKeys();
    const bad = [
      { oldSecret: OLD, newSecret: OLD },
      { oldSecret: "short", newSecret: NEW },
      { oldSecret: OLD, newSecret: NEW, batchSize: 0 },
      { oldSecret: OLD, newSecret: NEW, batchSize: 501 },
      { oldSecret: OLD, newSecret: NEW, limit: -1 },
      { oldSecret: OLD, newSecret: NEW, targetVersion: 0 },
    ];
    for (const options of bad) await expect(rotateKeys(db, options), JSON.stringify({ ...options, oldSecret: "…", newSecret: "…" })).rejects.toThrow();
    expect(await storedKeys()).toEqual(before);
  });
});
