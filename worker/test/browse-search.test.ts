// GET /api/addresses/search: every parameter, its bad values, paging arithmetic, sorting and visibility.
import { env } from "cloudflare:test";
import { clientOf } from "./client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_RESULT_WINDOW } from "../../schema/browse";
import { resetPriceCache } from "../prices/price-feed";
import { PATTERN_CANDIDATE_MAX, SCAN_DEPTH } from "../listings/search";
import { clearBrowseData, insertListing, insertListings, search, snapshot } from "./browse-fixtures";

const DAY = 24 * 60 * 60 * 1000;
const ids = (body: { addresses: { id: number }[] }) => body.addresses.map((a) => a.id);

beforeEach(() => resetPriceCache());

describe("malformed parameters: 400 naming the parameter, nothing changed", () => {
  beforeAll(async () => {
    await clearBrowseData();
    await insertListings([{ rarity: 7 }, { network: "solana" }]);
  });

  const cases: [string, RegExp][] = [
    ["limit=10000", /^limit: must be one of: 20, 50, 100$/],
    ["limit=0", /^limit: /],
    ["limit=-20", /^limit: /],
    ["limit=abc", /^limit: /],
    ["limit=20&limit=50", /^limit: /],
    ["offset=-1", /^offset: must be a whole number from 0 to 10000$/],
    ["offset=1.5", /^offset: /],
    ["offset=abc", /^offset: /],
    ["offset=1e3", /^offset: /],
    ["offset=999999999999999999999999", /^offset: /],
    ["offset=9990", /^offset: offset \+ limit must not exceed 10000/],
    ["offset=9950&limit=100", /^offset: offset \+ limit must not exceed 10000/],
    ["minCharLength=0", /^minCharLength: must be a whole number from 1 to 100$/],
    ["minCharLength=101", /^minCharLength: /],
    ["minCharLength=abc", /^minCharLength: /],
    ["maxCharLength=0", /^maxCharLength: must be a whole number from 1 to 100$/],
    ["maxCharLength=101", /^maxCharLength: /],
    ["minCharLength=9&maxCharLength=4", /^minCharLength: must not be greater than maxCharLength$/],
    ["sortBy=name", /^sortBy: must be one of: rarity, price, createdAt$/],
    ["sortBy=price;DROP TABLE addresses", /^sortBy: /],
    ["sortOrder=up", /^sortOrder: must be one of: asc, desc$/],
    ["category=rare", /^category: must be one of: all, leading-zeros/],
    ["network=bitcoin", /^network: must be one of: all, ethereum, solana$/],
    ["patternFilter=middle", /^patternFilter: must be one of: prefix, suffix, either$/],
    ["excludeSold=yes", /^excludeSold: must be one of: true, false$/],
    [`search=${"a".repeat(5000)}`, /^search: must be at most 100 characters$/],
    [`search=${"a".repeat(101)}`, /^search: /],
    [`patternValue=${"a".repeat(101)}`, /^patternValue: must be at most 100 characters$/],
    [`walletAddress=${"a".repeat(5000)}`, /^walletAddress: /],
  ];

  it.each(cases)("%s", async (query, message) => {
    const before = await snapshot();
    const { status, body } = await search(query);
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: "Validation Error" });
    expect(body.message).toMatch(message);
    expect(await snapshot()).toBe(before);
  });

  it("accepts the bounds themselves", async () => {
    for (const query of [
      "limit=100",
      "offset=9980",
      "offset=9900&limit=100",
      "minCharLength=1&maxCharLength=100",
      "minCharLength=5&maxCharLength=5",
      `search=${"a".repeat(100)}`,
    ]) {
      expect((await search(query)).status, query).toBe(200);
    }
  });

  it("treats empty values as not sent and ignores unknown parameters", async () => {
    const all = await search("");
    const blank = await search("search=&category=&minCharLength=&patternValue=&page=7&foo=bar");
    expect(blank.status).toBe(200);
    expect(ids(blank.body)).toEqual(ids(all.body));
  });
});

describe("defaults, visibility and excludeSold", () => {
  let available: number[];
  let sold: number;
  beforeAll(async () => {
    await clearBrowseData();
    available = await insertListings([{ rarity: 3 }, { rarity: 9, network: "solana" }, { rarity: 6 }]);
    sold = await insertListing({ rarity: 8, status: "sold", isListed: false });
    await insertListings([
      { rarity: 9.9, status: "deleted" },
      { rarity: 9.8, status: "inactive" },
      { rarity: 9.6, isListed: false },
    ]);
  });

  it("default: active and listed only, rarity descending, page 1 of 20", async () => {
    const { status, body } = await search("");
    expect(status).toBe(200);
    expect(ids(body)).toEqual([available[1], available[2], available[0]]);
    expect(body.pagination).toEqual({ page: 1, totalPages: 1, total: 3, hasPrevPage: false, hasNextPage: false, totalIsExact: true });
  });

  it("excludeSold=true is the default; false adds sold listings but never deleted, inactive or unlisted ones", async () => {
    expect(ids((await search("excludeSold=true")).body)).toEqual([available[1], available[2], available[0]]);
    const withSold = (await search("excludeSold=false")).body;
    expect(ids(withSold)).toEqual([available[1], sold, available[2], available[0]]);
    expect(withSold.pagination.total).toBe(4);
    expect(withSold.addresses[1]).toMatchObject({ status: "sold", isListed: false });
  });

  it("walletAddress is accepted and changes nothing", async () => {
    const plain = await search("");
    const withWallet = await search("walletAddress=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(withWallet.status).toBe(200);
    expect(withWallet.body).toEqual(plain.body);
  });

  it("listing objects carry the spec's fields and nothing else", async () => {
    const { body } = await search("");
    const listing = body.addresses[0];
    expect(Object.keys(listing).sort()).toEqual(
      [
        "id",
        "address",
        "network",
        "pattern",
        "category",
        "patternLength",
        "rarityScore",
        "price",
        "currency",
        "usdPrice",
        "formattedUsd",
        "status",
        "isListed",
        "promotionType",
        "isFeatured",
        "isOwner",
        "reservation",
        "createdAt",
      ].sort(),
    );
    expect(listing).toMatchObject({
      network: "solana",
      rarityScore: "9.0",
      price: "0.1",
      currency: "SOL",
      usdPrice: 18.4,
      formattedUsd: "$18.40",
      isOwner: false,
    });
    expect(listing.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(JSON.stringify(body)).not.toMatch(/private|encrypted|seller|wallet/i);
  });
});

describe("pagination arithmetic", () => {
  let all: number[];
  beforeAll(async () => {
    await clearBrowseData();
    // 45 listings, rarity descending with id: the default order is exactly `all`.
    all = await insertListings(Array.from({ length: 45 }, (_, i) => ({ rarity: 9 - i * 0.1 })));
  });

  it.each([
    [0, 20, { page: 1, totalPages: 3, hasPrevPage: false, hasNextPage: true }, 0, 20],
    [20, 20, { page: 2, totalPages: 3, hasPrevPage: true, hasNextPage: true }, 20, 40],
    [40, 20, { page: 3, totalPages: 3, hasPrevPage: true, hasNextPage: false }, 40, 45],
    [60, 20, { page: 4, totalPages: 3, hasPrevPage: true, hasNextPage: false }, 45, 45],
    [0, 50, { page: 1, totalPages: 1, hasPrevPage: false, hasNextPage: false }, 0, 45],
    [0, 100, { page: 1, totalPages: 1, hasPrevPage: false, hasNextPage: false }, 0, 45],
    [10, 20, { page: 1, totalPages: 3, hasPrevPage: true, hasNextPage: true }, 10, 30],
  ])("offset %i limit %i", async (offset, limit, expected, from, to) => {
    const { body } = await search(`offset=${offset}&limit=${limit}`);
    expect(body.pagination).toEqual({ ...expected, total: 45, totalIsExact: true });
    expect(ids(body)).toEqual(all.slice(from, to));
  });

  it.each(["", "category=custom&", "maxCharLength=50&"])("pages neither repeat nor skip a listing, for every sort (%s)", async (filter) => {
    for (const sortBy of ["rarity", "price", "createdAt"]) {
      for (const sortOrder of ["asc", "desc"]) {
        const base = `${filter}sortBy=${sortBy}&sortOrder=${sortOrder}`;
        const pages = await Promise.all([0, 20, 40].map((o) => search(`${base}&offset=${o}`)));
        const paged = pages.flatMap((p) => ids(p.body));
        const whole = ids((await search(`${base}&limit=50`)).body);
        expect(paged, base).toEqual(whole);
        expect(new Set(paged).size).toBe(45);
      }
    }
  });

  it("no results: zero pages", async () => {
    const { body } = await search("category=palindrome");
    expect(body).toEqual({ addresses: [], pagination: { page: 1, totalPages: 0, total: 0, hasPrevPage: false, hasNextPage: false, totalIsExact: true } });
  });
});

describe("filters", () => {
  let rows: Record<string, number>;
  beforeAll(async () => {
    await clearBrowseData();
    const [ethZeros, solWord, ethPal, solSeq, ethLong] = await insertListings([
      { network: "ethereum", category: "leading-zeros", patternLength: 6 },
      { network: "solana", category: "word-like", patternLength: 4 },
      { network: "ethereum", category: "palindrome", patternLength: 1 },
      { network: "solana", category: "sequential", patternLength: 100 },
      { network: "ethereum", category: "custom", patternLength: 9 },
    ]);
    rows = { ethZeros, solWord, ethPal, solSeq, ethLong };
  });
  const found = async (query: string) => new Set(ids((await search(query)).body));

  it("network", async () => {
    expect(await found("network=ethereum")).toEqual(new Set([rows.ethZeros, rows.ethPal, rows.ethLong]));
    expect(await found("network=solana")).toEqual(new Set([rows.solWord, rows.solSeq]));
    expect((await found("network=all")).size).toBe(5);
  });

  it("category", async () => {
    expect(await found("category=word-like")).toEqual(new Set([rows.solWord]));
    expect(await found("category=leading-zeros")).toEqual(new Set([rows.ethZeros]));
    expect((await found("category=all")).size).toBe(5);
    expect((await search("category=trailing-zeros")).body.pagination.total).toBe(0);
  });

  it("character count is the matched pattern's length, bounds inclusive", async () => {
    expect(await found("minCharLength=6")).toEqual(new Set([rows.ethZeros, rows.solSeq, rows.ethLong]));
    expect(await found("maxCharLength=4")).toEqual(new Set([rows.solWord, rows.ethPal]));
    expect(await found("minCharLength=4&maxCharLength=6")).toEqual(new Set([rows.ethZeros, rows.solWord]));
    expect(await found("minCharLength=100")).toEqual(new Set([rows.solSeq]));
    expect(await found("maxCharLength=1")).toEqual(new Set([rows.ethPal]));
  });

  it("filters combine, and totals follow them", async () => {
    const { body } = await search("network=ethereum&minCharLength=5&category=custom");
    expect(ids(body)).toEqual([rows.ethLong]);
    expect(body.pagination.total).toBe(1);
  });
});

describe("pattern filter and free-text search", () => {
  let r: Record<string, number>;
  beforeAll(async () => {
    await clearBrowseData();
    const [deadEth, beefEth, bothEth, solPump, solDead, solDEAD] = await insertListings([
      { address: "0xDEAD000000000000000000000000000000000a11" },
      { address: "0x1234000000000000000000000000000000bEEF00" },
      { address: "0xdead0000000000000000000000000000000000ad" },
      { network: "solana", address: "So1pumpHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHpump" },
      { network: "solana", address: "deadHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH" },
      { network: "solana", address: "DEADHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH" },
    ]);
    r = { deadEth, beefEth, bothEth, solPump, solDead, solDEAD };
  });
  const found = async (query: string) => new Set(ids((await search(query)).body));

  it("prefix: after 0x for Ethereum (with or without it, any case); exact case for Solana", async () => {
    expect(await found("patternFilter=prefix&patternValue=dead")).toEqual(new Set([r.deadEth, r.bothEth, r.solDead]));
    expect(await found("patternFilter=prefix&patternValue=0xDeAd")).toEqual(new Set([r.deadEth, r.bothEth]));
    expect(await found("patternFilter=prefix&patternValue=DEAD")).toEqual(new Set([r.deadEth, r.bothEth, r.solDEAD]));
    expect(await found("patternFilter=prefix&patternValue=DEAD&network=solana")).toEqual(new Set([r.solDEAD]));
  });

  it("suffix", async () => {
    expect(await found("patternFilter=suffix&patternValue=beef00")).toEqual(new Set([r.beefEth]));
    expect(await found("patternFilter=suffix&patternValue=pump")).toEqual(new Set([r.solPump]));
    expect(await found("patternFilter=suffix&patternValue=PUMP")).toEqual(new Set());
  });

  it("either (the default mode) is prefix or suffix, each listing once", async () => {
    expect(await found("patternValue=dead")).toEqual(new Set([r.deadEth, r.bothEth, r.solDead]));
    const { body } = await search("patternFilter=either&patternValue=ad");
    expect(ids(body).sort()).toEqual([r.bothEth].sort());
    expect(body.pagination.total).toBe(1);
  });

  it("free text matches anywhere: Ethereum ignoring case, Solana exactly", async () => {
    expect(await found("search=BEEF")).toEqual(new Set([r.beefEth]));
    expect(await found("search=dea")).toEqual(new Set([r.deadEth, r.bothEth, r.solDead]));
    expect(await found("search=1pum")).toEqual(new Set([r.solPump]));
    expect(await found("search=1PUM")).toEqual(new Set());
    expect(await found("search=0xdead")).toEqual(new Set([r.deadEth, r.bothEth]));
    expect(await found("search=%20%20dead%20")).toEqual(new Set([r.deadEth, r.bothEth, r.solDead]));
  });

  it("search and pattern combine", async () => {
    expect(await found("search=a11&patternValue=dead&patternFilter=prefix")).toEqual(new Set([r.deadEth]));
  });

  it.each(["%", "_", "%25", "de%", "d_ad", "'; DROP TABLE addresses; --", "*", "[a-z]", "dead\\"])(
    "%s is literal text: no wildcard, no error",
    async (value) => {
      for (const param of ["search", "patternValue"]) {
        const { status, body } = await search(`${param}=${encodeURIComponent(value)}`);
        expect(status).toBe(200);
        expect(body.addresses).toEqual([]);
        expect(body.pagination.total).toBe(0);
      }
      expect((await search("")).body.pagination.total).toBe(6);
    },
  );
});

describe("sorting", () => {
  let r: Record<string, number>;
  const now = Date.now();
  beforeAll(async () => {
    await clearBrowseData();
    const [eth01, sol1, sol3, eth1] = await insertListings([
      { price: "0.1", currency: "ETH", rarity: 2, createdAt: now - 3 * DAY }, // $379.60 at 3796
      { price: "1", currency: "SOL", rarity: 8, createdAt: now - 1 * DAY }, // $184
      { price: "3", currency: "SOL", rarity: 5, createdAt: now - 2 * DAY }, // $552
      { price: "1", currency: "ETH", rarity: 9, createdAt: now - 4 * DAY }, // $3796
    ]);
    r = { eth01, sol1, sol3, eth1 };
  });

  it("rarity both ways", async () => {
    expect(ids((await search("sortBy=rarity&sortOrder=desc")).body)).toEqual([r.eth1, r.sol1, r.sol3, r.eth01]);
    expect(ids((await search("sortBy=rarity&sortOrder=asc")).body)).toEqual([r.eth01, r.sol3, r.sol1, r.eth1]);
  });

  it("createdAt both ways", async () => {
    expect(ids((await search("sortBy=createdAt&sortOrder=desc")).body)).toEqual([r.sol1, r.sol3, r.eth01, r.eth1]);
    expect(ids((await search("sortBy=createdAt&sortOrder=asc")).body)).toEqual([r.eth1, r.eth01, r.sol3, r.sol1]);
  });

  it("price compares USD value across currencies, not raw numbers", async () => {
    expect(ids((await search("sortBy=price&sortOrder=asc")).body)).toEqual([r.sol1, r.eth01, r.sol3, r.eth1]);
    expect(ids((await search("sortBy=price&sortOrder=desc")).body)).toEqual([r.eth1, r.sol3, r.eth01, r.sol1]);
    // Paging through a merged price order keeps it.
    const page2 = await search("sortBy=price&sortOrder=asc&offset=2&limit=20");
    expect(ids(page2.body)).toEqual([r.sol3, r.eth1]);
  });

  it("price order follows the live rate", async () => {
    // At ETH $1000 and SOL $500: 0.1 ETH = $100 < 1 SOL = $500 < 1 ETH = $1000 < 3 SOL = $1500.
    const feed = { ethPrice: 1000, solPrice: 500 };
    const original = globalThis.fetch;
    globalThis.fetch = (async () => Response.json(feed)) as typeof fetch;
    try {
      const { createApp } = await import("../app");
      const api = clientOf((input, init) => createApp().request(input, init, { ...env, PRICE_FEED_URL: "https://prices.test/usd" }));
      const res = await api.addresses.search.$get({ query: { sortBy: "price", sortOrder: "asc" } });
      const body = (await res.json()) as { addresses: { id: number; formattedUsd: string }[] };
      expect(ids(body)).toEqual([r.eth01, r.sol1, r.eth1, r.sol3]);
      expect(body.addresses.map((a) => a.formattedUsd)).toEqual(["$100.00", "$500.00", "$1,000.00", "$1,500.00"]);
    } finally {
      globalThis.fetch = original;
    }
  });

  it("sorts within filters", async () => {
    expect(ids((await search("sortBy=price&sortOrder=desc&network=solana")).body)).toEqual([r.sol3, r.sol1]);
    expect(ids((await search("sortBy=rarity&sortOrder=asc&network=ethereum")).body)).toEqual([r.eth01, r.eth1]);
  });
});

describe("large result sets", () => {
  // More than PATTERN_CANDIDATE_MAX, so the common pattern below takes the sort-index plan too.
  const BULK = PATTERN_CANDIDATE_MAX + 50;
  beforeAll(async () => {
    await clearBrowseData();
    // Every bulk address starts with 0xbeef and contains "beef"; rarity spreads over 0.0..9.9.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO addresses (address, network, price, price_units, currency, rarity_score, category, pattern, pattern_length, created_at)
       SELECT printf('0xbeef%036x', i), 'ethereum', '0.01', 1000000, 'ETH', (i % 100) / 10.0, 'word-like', 'beef', 4, ? - i FROM n`,
    )
      .bind(BULK, Date.now())
      .run();
    await insertListing({ address: "0x1111111111111111111111111111111111111111", rarity: 9.95 });
  }, 60_000);
  // Deleting the fixture rows takes over 10 s on a loaded 2-core machine: a hang guard, not a speed check.
  afterAll(clearBrowseData, 60_000);

  it("exact totals from the counts table; paging stops at the window", async () => {
    const first = await search("");
    expect(first.body.pagination).toEqual({
      page: 1,
      totalPages: MAX_RESULT_WINDOW / 20,
      total: BULK + 1,
      hasPrevPage: false,
      hasNextPage: true,
      totalIsExact: true,
    });
    const last = await search(`offset=${MAX_RESULT_WINDOW - 20}`);
    expect(last.body.pagination).toMatchObject({ page: 500, totalPages: 500, hasNextPage: false, hasPrevPage: true });
    expect(last.body.addresses).toHaveLength(20);
  });

  // A text with more candidates than the cap is answered from the first SCAN_DEPTH listings of the order: rarity
  // 9.95 (no "beef") first, then SCAN_DEPTH - 1 bulk rows, all matching. They are the best matches, "N+".
  const scanned = { page: 1, totalPages: Math.ceil((SCAN_DEPTH - 1) / 20), total: SCAN_DEPTH - 1, hasPrevPage: false, hasNextPage: true, totalIsExact: false };

  it('a very common pattern is sorted from its index range, counted up to the window ("10,000+"), and paged to the window\'s last page', async () => {
    const { body } = await search("patternFilter=prefix&patternValue=beef&sortBy=rarity&sortOrder=desc");
    expect(body.pagination).toEqual({
      page: 1,
      totalPages: MAX_RESULT_WINDOW / 20,
      total: MAX_RESULT_WINDOW,
      hasPrevPage: false,
      hasNextPage: true,
      totalIsExact: false,
    });
    expect(body.addresses.map((a) => a.rarityScore)).toEqual(Array(20).fill("9.9"));
    expect(body.addresses.every((a) => a.address.startsWith("0xbeef"))).toBe(true);
    const last = await search(`patternFilter=either&patternValue=beef&sortBy=createdAt&sortOrder=asc&offset=${MAX_RESULT_WINDOW - 20}`);
    expect(last.body.addresses).toHaveLength(20);
    expect(last.body.pagination).toMatchObject({ total: MAX_RESULT_WINDOW, totalIsExact: false, hasNextPage: false });
    // Bulk row i has created_at now - i: oldest first, the window's last page is i = BULK - 9,980 down to BULK - 9,999.
    expect(last.body.addresses.map((a) => a.address)).toEqual(
      Array.from({ length: 20 }, (_, j) => `0xbeef${(BULK - 9980 - j).toString(16).padStart(36, "0")}`),
    );
  });

  it("a pattern with exactly as many matches as the window is counted exactly", async () => {
    // Bulk rows ending in a hex counter: "0" at the end is every 16th, about 1,250 of them; narrower than the cap.
    const { body } = await search("patternFilter=suffix&patternValue=00&sortBy=rarity&sortOrder=asc");
    expect(body.pagination.totalIsExact).toBe(true);
  });

  it.each(["rarity", "price", "createdAt"].flatMap((s) => ["asc", "desc"].map((o) => [s, o])))(
    "a common pattern's pages, sorted by %s %s, are exactly the best matches at every depth (walked through its first character)",
    async (sortBy, sortOrder) => {
      // "beef" prefixes every bulk row, rarity (i % 100) / 10, created now - i: rows both ends of the index range
      // (lowest and highest counters) are far from the page's keys, so the bound must come out right anyway.
      const asc = sortOrder === "asc";
      const rarity = (i: number) => (i % 100) / 10;
      const created = (i: number) => -i;
      const key = sortBy === "rarity" ? rarity : created; // price is the same for all: order by id alone
      const order = Array.from({ length: BULK }, (_, k) => k + 1).sort(
        (a, b) => (sortBy === "price" ? 0 : key(a) - key(b)) * (asc ? 1 : -1) || (a - b) * (asc ? 1 : -1),
      );
      for (const offset of [0, 150, 380, 980, 5000, MAX_RESULT_WINDOW - 100]) {
        const { body } = await search(`patternFilter=prefix&patternValue=beef&sortBy=${sortBy}&sortOrder=${sortOrder}&limit=100&offset=${offset}`);
        expect(
          body.addresses.map((a) => a.address),
          `offset ${offset}`,
        ).toEqual(order.slice(offset, offset + 100).map((i) => `0xbeef${i.toString(16).padStart(36, "0")}`));
      }
    },
    30_000,
  );

  it("a two-character pattern is counted exactly from its range", async () => {
    // Every bulk address ends in a hex counter; those ending in "00" are a 256th of them.
    const { body } = await search("patternFilter=suffix&patternValue=00&sortBy=createdAt&sortOrder=asc");
    expect(body.pagination).toMatchObject({ total: Math.floor(BULK / 256), totalIsExact: true });
    expect(body.addresses.every((a) => a.address.endsWith("00"))).toBe(true);
  });

  it("a one-character pattern is one index range like any pattern: exact total, exact pages (no scan)", async () => {
    // Bulk rows ending in "0" are every 16th counter; oldest first (created now - i) is the highest counter first.
    const ending = Array.from({ length: BULK }, (_, k) => BULK - k).filter((i) => i % 16 === 0);
    const { body } = await search("patternFilter=suffix&patternValue=0&sortBy=createdAt&sortOrder=asc");
    expect(body.pagination).toMatchObject({ total: ending.length, totalIsExact: true });
    expect(body.addresses.map((a) => a.address)).toEqual(ending.slice(0, 20).map((i) => `0xbeef${i.toString(16).padStart(36, "0")}`));
    const last = await search(`patternFilter=suffix&patternValue=0&sortBy=createdAt&sortOrder=asc&offset=${ending.length - 5}`);
    expect(last.body.addresses.map((a) => a.address)).toEqual(ending.slice(-5).map((i) => `0xbeef${i.toString(16).padStart(36, "0")}`));
  });

  it("a common pattern narrowed by a filter is counted exactly", async () => {
    const { body } = await search("patternFilter=prefix&patternValue=beef&network=solana");
    expect(body.pagination).toMatchObject({ total: 0, totalIsExact: true });
  });

  it("a very common text is answered from a bounded scan of the order and says its total is a lower bound", async () => {
    const { body } = await search("search=beef");
    expect(body.pagination).toEqual(scanned);
    // The last page the scan reaches, and nothing after it.
    const last = await search(`search=beef&offset=${SCAN_DEPTH - 20}`);
    expect(last.body.addresses).toHaveLength(19);
    expect(last.body.pagination).toMatchObject({ hasNextPage: false, totalIsExact: false });
    expect((await search(`search=beef&offset=${SCAN_DEPTH}`)).body.addresses).toEqual([]);
    expect(body.addresses).toHaveLength(20);
    expect(body.addresses.every((a) => a.address.includes("beef"))).toBe(true);
  });

  it("a rare text among many rows is found and counted exactly", async () => {
    const { body } = await search("search=11111111");
    expect(ids(body)).toHaveLength(1);
    expect(body.pagination).toMatchObject({ total: 1, totalIsExact: true });
  });

  it("price sort merges currencies at depth", async () => {
    const { body } = await search(`sortBy=price&sortOrder=asc&offset=${MAX_RESULT_WINDOW - 100}&limit=100`);
    expect(body.addresses).toHaveLength(100);
  });
});

describe("odd text and patterns", () => {
  let eth: number;
  let sol: number;
  beforeAll(async () => {
    await clearBrowseData();
    [eth, sol] = await insertListings([
      { address: "0xAbCdEf0000000000000000000000000000000001", rarity: 9 },
      { network: "solana", address: "So1aBcDeFGHJKLMNPQRSTUVWXYZabcdefghijkmno", rarity: 8 },
    ]);
  });

  it.each([
    ["only spaces: no text at all, every listing", "search=%20%20%20", () => [eth, sol]],
    ["a letter outside every address alphabet: nothing", "search=%C3%A9", () => []],
    ["emoji: nothing", "search=%F0%9F%92%8E", () => []],
    ["an inner space: nothing (addresses hold none)", "search=ab%20cd", () => []],
    ["LIKE wildcards are plain characters: nothing", "search=%25%25", () => []],
    ["a quote: nothing", "search=%27", () => []],
    ["FTS syntax is plain text: nothing", "search=a%22%20OR%20%22b", () => []],
    ["a pattern in the wrong alphabet: nothing", "patternFilter=suffix&patternValue=%C3%A9", () => []],
    ["one character, Ethereum ignoring case and Solana exact", "search=B", () => [eth, sol]],
    ["one lower-case letter", "search=b", () => [eth, sol]],
    ["0x matches Ethereum only", "search=0x", () => [eth]],
    ["0x with its case changed", "search=0XAB", () => [eth]],
    ["two characters at the very end", "search=01", () => [eth]],
    ["two characters at the very end, Solana exact", "search=no", () => [sol]],
    ["two characters in the wrong case for Solana", "search=NO", () => []],
  ])("%s", async (_, query, expected) => {
    const { status, body } = await search(query);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(expected());
    expect(body.pagination).toMatchObject({ total: expected().length, totalIsExact: true });
  });

  it("two characters found both inside and at the end of an address count that listing once", async () => {
    const both = await insertListing({ address: "0x1277777777777777777777777777777777777712", rarity: 1 });
    try {
      const { body } = await search("search=12");
      expect(ids(body)).toEqual([both]);
      expect(body.pagination).toMatchObject({ total: 1, totalIsExact: true });
    } finally {
      await env.DB.prepare("DELETE FROM addresses WHERE id = ?").bind(both).run();
    }
  });

  it("too long is a clear 400, not a search", async () => {
    const { status, body } = await search(`search=${"0x".repeat(51)}`);
    expect(status).toBe(400);
    expect(body.message).toBe("search: must be at most 100 characters");
  });
});

describe("every plan agrees with a straightforward oracle", () => {
  type Row = {
    id: number;
    network: "ethereum" | "solana";
    category: string;
    len: number;
    rarity: number;
    units: number;
    createdAt: number;
    status: string;
    isListed: boolean;
    address: string;
  };
  const rows: Row[] = [];
  const categories = ["custom", "leading-zeros", "word-like", "palindrome"];
  const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  beforeAll(async () => {
    await clearBrowseData();
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const now = Date.now();
    for (let i = 0; i < 90; i++) {
      const network = rand() < 0.5 ? "ethereum" : "solana";
      const len = [0, 3, 4, 4, 6, 9][Math.floor(rand() * 6)];
      const seed_ = {
        network,
        category: categories[Math.floor(rand() * categories.length)],
        patternLength: len,
        rarity: Math.round((len * 0.7 + rand()) * 10) / 10,
        price: (Math.floor(rand() * 5000) / 1000 + 0.001).toFixed(3),
        createdAt: now - Math.floor(rand() * 1000) * 60_000,
        status: (rand() < 0.85 ? "active" : rand() < 0.5 ? "sold" : "deleted") as "active" | "sold" | "deleted",
        address:
          network === "ethereum"
            ? `0x${i % 3 === 0 ? "dead" : "beef"}${String(i).padStart(36, "0")}`
            : `${i % 3 === 0 ? "Moon" : "Sun1"}${"H".repeat(38)}${B58[Math.floor(i / 58)]}${B58[i % 58]}`,
      } as const;
      const id = await insertListing({ ...seed_, isListed: seed_.status !== "sold" });
      rows.push({
        id,
        network,
        category: seed_.category,
        len,
        rarity: seed_.rarity,
        units: Math.round(Number(seed_.price) * 1e8),
        createdAt: seed_.createdAt,
        status: seed_.status,
        isListed: seed_.status !== "sold",
        address: seed_.address,
      });
    }
  });

  const usd = (r: Row) => (r.units / 1e8) * (r.network === "ethereum" ? 3796 : 184);
  function oracle(p: URLSearchParams): number[] {
    const sortBy = p.get("sortBy") ?? "rarity";
    const asc = p.get("sortOrder") === "asc";
    const key = (r: Row) => (sortBy === "price" ? usd(r) : sortBy === "createdAt" ? r.createdAt : r.rarity);
    const pattern = p.get("patternValue");
    const text = p.get("search");
    return (
      rows
        .filter((r) => (p.get("excludeSold") === "false" ? r.status === "sold" || (r.status === "active" && r.isListed) : r.status === "active" && r.isListed))
        .filter((r) => !p.get("network") || r.network === p.get("network"))
        .filter((r) => !p.get("category") || r.category === p.get("category"))
        .filter((r) => !p.get("minCharLength") || r.len >= Number(p.get("minCharLength")))
        .filter((r) => !p.get("maxCharLength") || r.len <= Number(p.get("maxCharLength")))
        // An Ethereum prefix may be written with its 0x.
        .filter(
          (r) =>
            !pattern ||
            (r.network === "ethereum" ? r.address.toLowerCase().startsWith(`0x${pattern.toLowerCase().replace(/^0x/, "")}`) : r.address.startsWith(pattern)),
        )
        .filter((r) => !text || (r.network === "ethereum" ? r.address.toLowerCase().includes(text.toLowerCase()) : r.address.includes(text)))
        .sort((a, b) => (key(a) - key(b) || a.id - b.id) * (asc ? 1 : -1))
        .map((r) => r.id)
    );
  }

  const filters = [
    "",
    "category=word-like",
    "minCharLength=4",
    "maxCharLength=4&network=solana",
    "category=custom&excludeSold=false",
    "minCharLength=3&maxCharLength=6&category=palindrome",
    "patternFilter=prefix&patternValue=dead",
    "search=Moon",
    "search=Moon&category=custom",
    // Short and odd: one character, two (also where they only occur as an address's last two), "0x" forms.
    "search=a",
    "search=M",
    "search=de",
    "search=DE",
    "search=Mo",
    "search=12",
    "search=0",
    "search=0x",
    "search=0X",
    "search=0xde",
    "search=x",
    "search=0x&network=solana",
    "search=Sun1&patternFilter=prefix&patternValue=S",
    "patternFilter=prefix&patternValue=d",
    "patternFilter=prefix&patternValue=0x",
    "patternFilter=prefix&patternValue=0xbe",
    "patternFilter=prefix&patternValue=M&category=word-like",
  ];
  const sorts = ["rarity", "price", "createdAt"].flatMap((s) => [`sortBy=${s}&sortOrder=asc`, `sortBy=${s}&sortOrder=desc`]);
  it.each(filters.flatMap((f) => sorts.map((s) => [f ? `${f}&${s}` : s])))("%s", async (query) => {
    const expected = oracle(new URLSearchParams(query));
    const first = await search(`${query}&limit=20`);
    expect(first.body.pagination.total).toBe(expected.length);
    const second = await search(`${query}&limit=20&offset=20`);
    expect([...ids(first.body), ...ids(second.body)]).toEqual(expected.slice(0, 40));
  });
});

describe("filtered orders merge the (category, length) buckets", () => {
  type Row = { id: number; usd: number; rarity: number; createdAt: number; category: string; len: number; network: "ethereum" | "solana" };
  const rows: Row[] = [];
  const categories = ["custom", "leading-zeros", "trailing-zeros", "word-like", "palindrome", "sequential"];
  beforeAll(async () => {
    await clearBrowseData();
    const now = Date.now();
    // 6 categories x 7 lengths = 42 buckets (84 with network and currency): more arms than D1 allows in one
    // compound SELECT (5), so the merge must nest them. Keys overlap across buckets, so the merge must interleave.
    for (let i = 0; i < 126; i++) {
      const category = categories[i % 6];
      const len = 3 + (Math.floor(i / 6) % 7);
      const network = i % 4 === 0 ? "solana" : "ethereum";
      const rarity = ((i * 37) % 91) / 10;
      const price = ((i * 53) % 89) / 100 + 0.01;
      const createdAt = now - ((i * 61) % 113) * 60_000;
      const address = network === "ethereum" ? `0x${"5".repeat(32)}${String(i).padStart(8, "0")}` : `${"J".repeat(40)}${String(i + 1000).replace(/0/g, "A")}`;
      const id = await insertListing({ address, network, category, patternLength: len, rarity, price: price.toFixed(2), createdAt });
      rows.push({ id, usd: price * (network === "ethereum" ? 3796 : 184), rarity, createdAt, category, len, network });
    }
  }, 60_000);

  const expected = (filter: (r: Row) => boolean, sortBy: string, asc: boolean) =>
    rows
      .filter(filter)
      .sort((a, b) => {
        const key = (r: Row) => (sortBy === "price" ? r.usd : sortBy === "createdAt" ? r.createdAt : r.rarity);
        return (key(a) - key(b) || a.id - b.id) * (asc ? 1 : -1);
      })
      .map((r) => r.id);

  const cases: [string, (r: Row) => boolean][] = [
    ["minCharLength=3", () => true],
    ["minCharLength=5&maxCharLength=8", (r) => r.len >= 5 && r.len <= 8],
    ["category=palindrome", (r) => r.category === "palindrome"],
    ["minCharLength=4&network=solana", (r) => r.len >= 4 && r.network === "solana"],
  ];
  it.each(
    cases.flatMap(([f, filter]) =>
      ["rarity", "price", "createdAt"].flatMap((s) => ["asc", "desc"].map((o) => [`${f}&sortBy=${s}&sortOrder=${o}`, filter, s, o] as const)),
    ),
  )("%s: every page in the oracle's order", async (query, filter, sortBy, order) => {
    const want = expected(filter, sortBy, order === "asc");
    const whole = await search(`${query}&limit=100`);
    expect(whole.body.pagination.total).toBe(want.length);
    const later = await search(`${query}&limit=20&offset=40`);
    expect([...ids(whole.body), ...ids(later.body)]).toEqual([...want.slice(0, 100), ...want.slice(40, 60)]);
  });

  it("a listing in a category this code does not know (or with a quote in it) still appears under character-count filters", async () => {
    const odd = await insertListings([
      { category: "mirror", patternLength: 7, rarity: 9.97 },
      { category: "it's", patternLength: 7, rarity: 9.96, network: "solana" },
    ]);
    try {
      for (const sortBy of ["rarity", "price", "createdAt"]) {
        const { body } = await search(`minCharLength=7&maxCharLength=7&sortBy=${sortBy}&limit=100`);
        expect(ids(body), sortBy).toEqual(expect.arrayContaining(odd));
        expect(body.pagination.total).toBe(rows.filter((r) => r.len === 7).length + 2);
      }
      expect(ids((await search("minCharLength=7&sortBy=rarity&sortOrder=desc")).body).slice(0, 2)).toEqual(odd);
    } finally {
      for (const id of odd) await env.DB.prepare("DELETE FROM addresses WHERE id = ?").bind(id).run();
    }
  });

  it("a bucket that appears after the isolate read the list is found at once", async () => {
    // Fills this isolate's list (no palindrome of length 20 exists yet)...
    expect((await search("category=palindrome&sortBy=rarity&sortOrder=desc")).status).toBe(200);
    // ...then a listing opens a new bucket, rarer than every other.
    const fresh = await insertListing({ category: "palindrome", patternLength: 20, rarity: 9.95 });
    try {
      for (const query of [
        "category=palindrome&sortBy=rarity&sortOrder=desc",
        "minCharLength=20&sortBy=price&sortOrder=asc",
        "category=palindrome&search=7&sortBy=rarity&sortOrder=desc",
      ]) {
        const { body } = await search(query);
        expect(ids(body)[0], query).toBe(fresh);
      }
    } finally {
      await env.DB.prepare("DELETE FROM addresses WHERE id = ?").bind(fresh).run();
    }
    // And once it is gone again, nothing breaks.
    expect(ids((await search("category=palindrome&sortBy=rarity&sortOrder=desc")).body)).not.toContain(fresh);
  });
});
