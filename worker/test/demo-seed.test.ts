// What the seed step of `npm start` lists (scripts/seed.ts): the committed demo CSV through the bulk import
// with the seed's own options (scripts/demo-listings.ts demoImportOptions). The demo shows every
// rarity tier, HOT badges and rings, on both networks.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import demoCsv from "../../scripts/demo/listings.csv?raw";
import { demoImportOptions } from "../../scripts/demo-listings";
import { parseBulkCsv } from "../../schema/bulk-csv";
import { createDb } from "../db/database";
import { importListings } from "../listings/import";
import { clearBrowseData, insertUser } from "./browse-fixtures";

/** Solana demo rows at rarity 7 or more, and among them 8 or more (scripts/demo/solana-pairs.ts). */
const SOLANA_RARE = 8;
const SOLANA_EIGHT = 4;

type Stored = { network: string; rarity_score: number; pattern: string; pattern_length: number; category: string };
let stored: Stored[];
let failures: unknown[];

beforeAll(async () => {
  await clearBrowseData();
  const seller = await insertUser("demo-seller", "0x00000000000000000000000000000000000000d3");
  const parsed = parseBulkCsv(demoCsv);
  if (!parsed.ok) throw new Error(parsed.message);
  const results = await importListings(createDb(env.DB), env, seller, parsed.rows, demoImportOptions(parsed.rows, Date.now()));
  failures = results.filter((r) => r.status !== "success");
  stored = (
    await env.DB.prepare("SELECT network, rarity_score, pattern, pattern_length, category FROM addresses WHERE seller_id = ?").bind(seller).all<Stored>()
  ).results;
}, 120_000);

describe("the demo seed", () => {
  it("lists every row of the CSV (real keys, none refused)", () => {
    expect(failures).toEqual([]);
    expect(stored.length).toBe(demoCsv.trim().split("\n").length - 1);
  });

  it(`gives at least ${SOLANA_RARE} Solana listings at rarity 7 or more, ${SOLANA_EIGHT}+ of them at 8 or more, each with its pattern`, () => {
    const rare = stored.filter((r) => r.network === "solana" && r.rarity_score >= 7);
    expect(rare.length).toBeGreaterThanOrEqual(SOLANA_RARE);
    expect(rare.filter((r) => r.rarity_score >= 8).length).toBeGreaterThanOrEqual(SOLANA_EIGHT);
    for (const r of rare) {
      expect(r.pattern).toContain("...");
      expect(r.pattern_length).toBeGreaterThanOrEqual(5);
      expect(r.category).not.toBe("custom");
    }
  });

  it("Ethereum keeps its top tiers too: rings (9+) and HOT badges", () => {
    const eth = stored.filter((r) => r.network === "ethereum");
    expect(eth.filter((r) => r.rarity_score >= 9).length).toBeGreaterThanOrEqual(2);
    expect(eth.filter((r) => r.rarity_score >= 8.5).length).toBeGreaterThanOrEqual(4);
  });
});
