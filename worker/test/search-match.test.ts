// The saved searches' matching is the marketplace search's own (one definition of the filters): over the same
// listings, the predicate in code (worker/listings/search-match.ts) selects exactly what GET /api/addresses/search
// returns, for every query of a generated mix (texts and patterns in both cases, both networks, short and odd
// values, every filter). And the bucket index (worker/collectors/search-keys.ts) loses nothing: every listing a
// search matches probes one of the search's keys.
import { beforeAll, describe, expect, it } from "vitest";
import type { ListingStatus } from "../../schema/listing-lifecycle";
import type { SearchResponse } from "../../schema/browse";
import { listingProbeKeys, searchKeys } from "../collectors/search-keys";
import { listingMatches, type MatchableListing, plannedQuery } from "../listings/search-match";
import { type SearchQuery, searchQuerySchema } from "../listings/search-params";
import * as v from "valibot";
import { clearBrowseData, insertListing } from "./browse-fixtures";
import { client } from "./client";

/** A small seeded generator (mulberry32), so a failure names a reproducible case. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const HEX = "0123456789abcdef";
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const CATEGORIES = ["leading-zeros", "trailing-zeros", "word-like", "palindrome", "sequential", "custom"];
const STATES: [ListingStatus, boolean][] = [
  ["active", true],
  ["active", true],
  ["active", true],
  ["active", false],
  ["sold", false],
  ["inactive", true],
  ["deleted", false],
];

type Listed = MatchableListing & { id: number };

function makeListing(r: () => number, i: number): Omit<Listed, "id"> {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const [status, isListed] = pick(STATES);
  const network = r() < 0.6 ? "ethereum" : "solana";
  let address: string;
  if (network === "ethereum") {
    const start = pick(["dead", "0000", "c0de", "abc", "", "", "beef"]);
    const end = pick(["beef", "0000", "dead", "", "", "cafe"]);
    let body = "";
    while (start.length + body.length + end.length < 40) body += pick([...HEX]);
    // Mixed case, as checksummed addresses are: the search ignores it.
    address = `0x${[...(start + body + end)].map((c) => (r() < 0.5 ? c.toUpperCase() : c)).join("")}`;
  } else {
    const start = pick(["So1", "Moon", "AAA", "", "", "moon"]);
    const end = pick(["Moon", "AAA", "xyz", "", ""]);
    let body = "";
    while (start.length + body.length + end.length < 44) body += pick([...BASE58]);
    address = start + body + end;
  }
  return { address, network, category: CATEGORIES[i % CATEGORIES.length], patternLength: Math.floor(r() * 9), status, isListed };
}

function makeQuery(r: () => number): Record<string, string> {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const q: Record<string, string> = {};
  const maybe = (key: string, values: readonly string[], p = 0.4) => {
    if (r() < p) q[key] = pick(values);
  };
  maybe("search", ["dead", "DEAD", "ab", "a", "0x", "0xdead", "0XDEAD", "Moon", "moon", "So", "AA", "x1", "%", "ef0", "beefX"], 0.35);
  maybe("patternValue", ["dead", "DeAd", "0", "00", "0000", "0xdead", "0x", "Moon", "moon", "A", "AAA", "c0de", "zz", "1", "cafe", "xyz"], 0.55);
  maybe("patternFilter", ["prefix", "suffix", "either"], 0.7);
  maybe("network", ["ethereum", "solana", "all"], 0.4);
  maybe("category", [...CATEGORIES, "all"], 0.25);
  maybe("minCharLength", ["1", "3", "5"], 0.2);
  maybe("maxCharLength", ["4", "6", "8"], 0.2);
  maybe("excludeSold", ["true", "false"], 0.4);
  if (q.minCharLength && q.maxCharLength && Number(q.minCharLength) > Number(q.maxCharLength)) delete q.maxCharLength;
  return q;
}

const parse = (q: Record<string, string>): SearchQuery => v.parse(searchQuerySchema, { ...q, limit: "100" });

const corpus: Listed[] = [];
beforeAll(async () => {
  await clearBrowseData();
  const r = rng(31);
  for (let i = 0; i < 90; i++) {
    const l = makeListing(r, i);
    const id = await insertListing({ ...l, status: l.status, rarity: Math.floor(r() * 100) / 10, price: `0.${i + 1}` });
    corpus.push({ ...l, id });
  }
});

describe("the predicate selects what the search returns", () => {
  it("for 160 generated queries over 90 listings", async () => {
    const r = rng(7);
    let nonEmpty = 0;
    for (let n = 0; n < 160; n++) {
      const q = makeQuery(r);
      const res = await client().addresses.search.$get({ query: { ...q, limit: "100" } });
      expect(res.status, JSON.stringify(q)).toBe(200);
      const body = (await res.json()) as SearchResponse;
      const fromSearch = body.addresses.map((a) => a.id).sort((a, b) => a - b);
      const planned = plannedQuery(parse(q));
      const fromPredicate = planned ? corpus.filter((l) => listingMatches(planned, l)).map((l) => l.id) : [];
      expect(fromPredicate, JSON.stringify(q)).toEqual(fromSearch);
      if (fromSearch.length > 0) nonEmpty++;
    }
    // The mix is not all empty answers.
    expect(nonEmpty).toBeGreaterThan(60);
  });
});

describe("the keys lose no match, and an exact key finds only matches", () => {
  it("every matching listing probes one of the search's keys; a listing for sale on an exact key matches; 3,000 queries, 600 listings", () => {
    const r = rng(99);
    const listings = Array.from({ length: 600 }, (_, i) => makeListing(r, i));
    const probes = listings.map((l) => new Set(listingProbeKeys(l)));
    let matches = 0;
    let exactHits = 0;
    for (let n = 0; n < 3000; n++) {
      const q = makeQuery(r);
      const planned = plannedQuery(parse(q));
      if (!planned) continue;
      const keys = searchKeys(planned);
      expect(keys.length, JSON.stringify(q)).toBeGreaterThan(0);
      listings.forEach((l, i) => {
        const matched = listingMatches(planned, l);
        // An exact key: a listing for sale that probes it is a match, with nothing else checked.
        if (l.status === "active" && l.isListed && keys.some((k) => k.exact && probes[i].has(k.key))) {
          exactHits++;
          expect(matched, `${JSON.stringify(q)}: ${l.address} probes an exact key but does not match`).toBe(true);
        }
        if (!matched) return;
        matches++;
        expect(
          keys.some((k) => probes[i].has(k.key)),
          `${JSON.stringify(q)} matches ${l.address} but its keys ${keys.map((k) => k.key)} are not among the listing's probes`,
        ).toBe(true);
      });
    }
    expect(matches).toBeGreaterThan(10_000);
    expect(exactHits).toBeGreaterThan(1_000);
  });
});
