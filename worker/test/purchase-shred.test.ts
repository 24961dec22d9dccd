// Crypto-shredding (docs/key-custody.md): while KEY_ENCRYPTION_SECRET_PREVIOUS is set, the cron step re-wraps live keys
// under the current secret; once the previous secret is dropped, an old copy of a destroyed key (what D1 Time
// Travel keeps) opens under no secret the Worker still has.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../db/database";
import { openKey } from "../vault";
import { rewrapUnderCurrentSecret, SHRED_REWRAP_PER_RUN } from "../vault/shred";
import { actors, listWithKey } from "./purchase-fixtures";

const OLD = env.KEY_ENCRYPTION_SECRET!;
const NEW = "the-next-week-key-encryption-secret-0123456789";

type Row = { encryptedPrivateKey: string; salt: string; iv: string; wrappedKey: string; mac: string; keyVersion: number };
const record = (addressId: number) =>
  env.DB.prepare(
    "SELECT encrypted_private_key AS encryptedPrivateKey, salt, iv, wrapped_key AS wrappedKey, mac, key_version AS keyVersion FROM encrypted_keys WHERE address_id = ?",
  )
    .bind(addressId)
    .first<Row>();

describe("scheduled re-wrap under the new secret", () => {
  it("does nothing without a previous secret", async () => {
    expect(await rewrapUnderCurrentSecret(createDb(env.DB), env)).toEqual({ rotating: false, rewrapped: 0, remaining: 0, failed: 0 });
  });

  it("re-wraps live keys (bounded per run) and leaves a destroyed key's old copy openable only under the retired secret", async () => {
    const { seller } = await actors();
    const kept = await listWithKey(seller.userId);
    const destroyed = await listWithKey(seller.userId);
    // What Time Travel would keep: the destroyed key's row as it was.
    const backup = (await record(destroyed.id))!;
    await env.DB.prepare("DELETE FROM encrypted_keys WHERE address_id = ?").bind(destroyed.id).run();

    const rotatingEnv = { KEY_ENCRYPTION_SECRET: NEW, KEY_ENCRYPTION_SECRET_PREVIOUS: OLD, KEY_ENCRYPTION_VERSION: "2" };
    let report = await rewrapUnderCurrentSecret(createDb(env.DB), rotatingEnv);
    expect(report.rotating).toBe(true);
    expect(report.rewrapped).toBeLessThanOrEqual(SHRED_REWRAP_PER_RUN);
    while (report.remaining > 0) report = await rewrapUnderCurrentSecret(createDb(env.DB), rotatingEnv);
    expect(report).toMatchObject({ remaining: 0, failed: 0 });

    // The live key opens under the new secret alone: the previous one can now be deleted.
    const live = (await record(kept.id))!;
    expect(live.keyVersion).toBe(2);
    expect(await openKey({ secret: NEW, listingId: kept.id, address: kept.key.address, record: live })).toBe(kept.key.privateKey);
    // The destroyed key's old copy: nothing but the retired secret opens it.
    await expect(openKey({ secret: NEW, listingId: destroyed.id, address: destroyed.key.address, record: backup })).rejects.toThrow();
    expect(await openKey({ secret: OLD, listingId: destroyed.id, address: destroyed.key.address, record: backup })).toBe(destroyed.key.privateKey);
  });
});
