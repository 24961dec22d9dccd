// The cron tick that `npm start` sends every 10 s must reach the Worker's scheduled handler, not the SPA's
// index.html: an expired used sign-in nonce written into the run's D1 is gone after one tick, a live one stays.
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { tickScheduled, waitUntil } from "../scripts/stack";
import { withDb } from "./listings-db";

type Db = Parameters<Parameters<typeof withDb>[0]>[0];

const nonceExists = (nonce: string) =>
  withDb(async (db: Db) => (await db.prepare("SELECT nonce FROM used_sign_in_nonces WHERE nonce = ?").bind(nonce).first<{ nonce: string }>()) !== null);

describe("the local cron tick", () => {
  it("runs the scheduled handler: an expired nonce is removed, a live one kept", async () => {
    const now = Date.now();
    const expired = randomBytes(16).toString("hex");
    const live = randomBytes(16).toString("hex");
    await withDb(async (db: Db) => {
      await db.batch([
        db.prepare("INSERT INTO used_sign_in_nonces (nonce, expires_at) VALUES (?, ?)").bind(expired, now - 60_000),
        db.prepare("INSERT INTO used_sign_in_nonces (nonce, expires_at) VALUES (?, ?)").bind(live, now + 600_000),
      ]);
    });
    expect(await nonceExists(expired)).toBe(true);

    const tick = await tickScheduled(inject("baseUrl"));
    expect(tick).toEqual({ ok: true, body: "Ran scheduled event" });
    expect(await waitUntil(async () => !(await nonceExists(expired)), 10_000, 250)).toBe(true);
    expect(await nonceExists(live)).toBe(true);
  });
});
