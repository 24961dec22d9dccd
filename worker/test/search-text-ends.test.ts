// Free text with candidates (search-sql.ts matchStatement), found at an address's start, end, both, inside or in
// another case: pages and totals are checked against a plain JS filter and sort of the same rows. Two-character
// texts count their candidates only up to SHORT_TEXT_CANDIDATE_MAX before a scan answers.
import { env } from "cloudflare:test";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SHORT_TEXT_CANDIDATE_MAX } from "../listings/search-plan";
import { resetPriceCache } from "../prices/price-feed";
import { clearBrowseData, insertListing, search } from "./browse-fixtures";

type Row = {
  id: number;
  address: string;
  network: string;
  category: string;
  rarity: number;
  units: number;
  currency: string;
  createdAt: number;
  status: string;
  isListed: number;
};
const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

beforeEach(() => resetPriceCache());

describe("text found at an address's ends, inside it, or in another case", () => {
  let rows: Row[] = [];
  beforeAll(async () => {
    await clearBrowseData();
    const now = Date.now();
    // Solana: "Moon" at the start, the end, both, inside, and as "moon"/"MOON" (not a match: Solana is exact).
    const solana = (i: number) => {
      const t = `${B58[Math.floor(i / 58) % 58]}${B58[i % 58]}`;
      const H = (n: number) => "H".repeat(n);
      return [`Moon${H(38)}${t}`, `${t}${H(38)}Moon`, `Moon${H(34)}${t}Moon`, `${H(19)}Moon${H(19)}${t}`, `moon${H(38)}${t}`, `${t}${H(38)}MOON`][i % 6];
    };
    // Ethereum: "c0ffee" after 0x, at the end, inside, and in upper case (a match: Ethereum ignores case).
    const ethereum = (i: number) => {
      const t = i.toString(16).padStart(6, "0");
      return [
        `0xc0ffee${"1".repeat(28)}${t}`,
        `0x${t}${"2".repeat(28)}c0ffee`,
        `0x${"3".repeat(14)}c0ffee${"3".repeat(14)}${t}`,
        `0xC0FFEE${"4".repeat(28)}${t}`,
        `0xc0ffee${"5".repeat(22)}${t}c0ffee`,
      ][i % 5];
    };
    for (let i = 0; i < 120; i++) {
      const network = i % 2 === 0 ? "solana" : "ethereum";
      const status = i % 11 === 0 ? "sold" : i % 13 === 0 ? "deleted" : "active";
      await insertListing({
        address: network === "solana" ? solana(i) : ethereum(i),
        network,
        category: i % 3 === 0 ? "word-like" : "custom",
        rarity: ((i * 37) % 100) / 10,
        price: (((i * 7) % 50) / 10 + 0.1).toFixed(1),
        status,
        isListed: !(i % 17 === 0),
        createdAt: now - ((i * 7919) % 500) * 60_000,
      });
    }
    const { results } = await env.DB.prepare(
      `SELECT id, address, network, category, rarity_score AS rarity, price_units AS units, currency, created_at AS createdAt, status, is_listed AS isListed FROM addresses`,
    ).all<Row>();
    rows = results;
  });
  // Deleting the fixture rows takes over 10 s on a loaded 2-core machine: a hang guard, not a speed check.
  afterAll(clearBrowseData, 60_000);

  const usd = (r: Row) => (r.units / 1e8) * (r.currency === "ETH" ? 3796 : 184);
  function oracle(p: URLSearchParams): number[] {
    const sortBy = p.get("sortBy") ?? "rarity";
    const asc = p.get("sortOrder") === "asc";
    const key = (r: Row) => (sortBy === "price" ? usd(r) : sortBy === "createdAt" ? r.createdAt : r.rarity);
    const text = p.get("search")!;
    return rows
      .filter((r) =>
        p.get("excludeSold") === "false" ? r.status === "sold" || (r.status === "active" && r.isListed === 1) : r.status === "active" && r.isListed === 1,
      )
      .filter((r) => !p.get("category") || r.category === p.get("category"))
      .filter((r) => (r.network === "ethereum" ? r.address.toLowerCase().includes(text.toLowerCase()) : r.address.includes(text)))
      .sort((a, b) => (key(a) - key(b) || a.id - b.id) * (asc ? 1 : -1))
      .map((r) => r.id);
  }

  const texts = [
    "search=Moon",
    "search=Moon&excludeSold=false",
    "search=Moon&category=word-like",
    "search=c0ffee",
    "search=C0FFEE&excludeSold=false",
    "search=ffee",
    "search=Mo",
    "search=oon",
  ];
  const sorts = ["rarity", "price", "createdAt"].flatMap((s) => [`sortBy=${s}&sortOrder=asc`, `sortBy=${s}&sortOrder=desc`]);
  it.each(texts.flatMap((t) => sorts.map((s) => [`${t}&${s}`])))("%s", async (query) => {
    const expected = oracle(new URLSearchParams(query));
    expect(expected.length).toBeGreaterThan(0);
    const pages = [];
    for (const offset of [0, 20]) {
      const { body } = await search(`${query}&limit=20&offset=${offset}`);
      expect(body.pagination).toMatchObject({ total: expected.length, totalIsExact: true });
      pages.push(...body.addresses.map((a) => a.id));
    }
    expect(pages).toEqual(expected.slice(0, 40));
  });
});

describe("two-character text counts candidates up to SHORT_TEXT_CANDIDATE_MAX", () => {
  beforeAll(async () => {
    await clearBrowseData();
    // Solana addresses holding "Zq" once, inside: each is one candidate and one match.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
       INSERT INTO addresses (address, network, price, price_units, currency, rarity_score, category, pattern, pattern_length, created_at)
       SELECT printf('%.20cZq%.16c', 'H', 'J') || substr(?2, i / 58 % 58 + 1, 1) || substr(?2, i % 58 + 1, 1) || substr(?2, i / 3364 + 1, 1) || 'k', 'solana', '1', 100000000, 'SOL', (i % 100) / 10.0, 'custom', 'custom', 0, ?3 - i FROM n`,
    )
      .bind(SHORT_TEXT_CANDIDATE_MAX, B58, Date.now())
      .run();
    // Listings without it, first in the default order, so a scan of 2,000 does not reach every match.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
       INSERT INTO addresses (address, network, price, price_units, currency, rarity_score, category, pattern, pattern_length, created_at)
       SELECT printf('%.40cabc', 'H') || substr(?1, i / 58 + 1, 1) || substr(?1, i % 58 + 1, 1), 'solana', '1', 100000000, 'SOL', 10, 'custom', 'custom', 0, ?2 FROM n`,
    )
      .bind(B58, Date.now())
      .run();
  });
  // Deleting the fixture rows takes over 10 s on a loaded 2-core machine: a hang guard, not a speed check.
  afterAll(clearBrowseData, 60_000);

  it("exactly the cap: every candidate checked, exact total; one more: a scan's lower bound", async () => {
    const exact = await search("search=Zq");
    expect(exact.body.pagination).toMatchObject({ total: SHORT_TEXT_CANDIDATE_MAX, totalIsExact: true });
    await insertListing({ address: `${"H".repeat(20)}Zq${"J".repeat(16)}zzzzzz`, network: "solana", rarity: 0 });
    const over = await search("search=Zq");
    // The scan reads the first 2,000 listings by rarity: the 500 without "Zq", then 1,500 with it.
    expect(over.body.pagination).toMatchObject({ total: 2_000 - 500, totalIsExact: false });
    expect(over.body.addresses.every((a) => a.address.includes("Zq"))).toBe(true);
  });
});
