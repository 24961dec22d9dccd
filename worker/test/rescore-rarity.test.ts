// Migration 0009 + the cron's rescoring: rows written on the old scale (10 x log2 / 64) move to log2 / 4,
// bulk-table scores stay, new rows are on the current scale from the start, and the job is idempotent.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { analyzeAddress } from "../domain/rarity";
import { RESCORE_BATCH, rescoreRarity, scaleOneScore } from "../jobs/rescore-rarity";
import { insertListing } from "./browse-fixtures";

const score = async (id: number) =>
  env.DB.prepare("SELECT rarity_score s, rarity_scale v FROM addresses WHERE id = ?").bind(id).first<{ s: number; v: number }>();
const setOld = (id: number, s: number) => env.DB.prepare("UPDATE addresses SET rarity_score = ?, rarity_scale = 1 WHERE id = ?").bind(s, id).run();

describe("rescoring stored listings", () => {
  it("new rows are on the current scale without any job", async () => {
    const id = await insertListing({ address: "0x0000f83d8427610068974F4284A0DC825A8218e6" });
    expect((await score(id))?.v).toBe(2);
  });

  it("an engine score on the old scale becomes the new engine score; a bulk-table score is kept", async () => {
    const engine = "0x0000000049cbd371133c6caece543d8108839081"; // 8 zeros: old 5.0, new 8.0
    const bulk = "0xdead2a061eaa425152e755f17ad7726d55c6eda1"; // bulk table: 4 matched characters -> 1
    const solana = "DZDz8kVLD9mvMHHVnrYkGkGyyKW9FNgQ5UaEQvUVpump"; // old 3.7, new 5.9
    const [a, b, c] = [
      await insertListing({ address: engine }),
      await insertListing({ address: bulk }),
      await insertListing({ address: solana, network: "solana" }),
    ];
    await setOld(a, 5);
    await setOld(b, 1);
    await setOld(c, 3.7);
    expect(scaleOneScore(analyzeAddress(engine, "ethereum").difficulty.log2)).toBe(5);
    expect(await rescoreRarity(env.DB)).toBe(3);
    expect(await score(a)).toEqual({ s: 8, v: 2 });
    expect(await score(b)).toEqual({ s: 1, v: 2 });
    expect(await score(c)).toEqual({ s: 5.9, v: 2 });
    // Nothing left: a second run changes nothing.
    expect(await rescoreRarity(env.DB)).toBe(0);
    expect(await score(a)).toEqual({ s: 8, v: 2 });
  });

  it("works through a backlog one batch per run", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await insertListing({ address: `0x0000a${"3c9e2f7d1b".repeat(4).slice(0, 34)}${i}` }));
    for (const id of ids) await setOld(id, 2.5);
    expect(await rescoreRarity(env.DB, 2)).toBe(2);
    expect(await rescoreRarity(env.DB, 2)).toBe(2);
    expect(await rescoreRarity(env.DB, 2)).toBe(1);
    expect(await rescoreRarity(env.DB, 2)).toBe(0);
    for (const id of ids) expect(await score(id)).toEqual({ s: 4, v: 2 });
    expect(RESCORE_BATCH).toBeGreaterThan(0);
  });

  it("the cron runs it", async () => {
    const id = await insertListing({ address: "0x12345678b46e6e882b0e7d0f1f9bba158cc2b514" });
    await setOld(id, 4.4);
    const { runScheduledJobs } = await import("../jobs/scheduled");
    expect(await runScheduledJobs(env)).toMatchObject({ rescoredListings: 1 });
    expect(await score(id)).toEqual({ s: 7, v: 2 });
  });
});
