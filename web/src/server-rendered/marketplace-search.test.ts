import { describe, expect, it } from "vitest";
import {
  activeFilterCount,
  filtersDiffer,
  isFiltered,
  lengthDraft,
  maxPage,
  nextSort,
  parseMarketSearch,
  patchMarketSearch,
  rangeText,
  resetFilters,
  searchApiParams,
} from "./marketplace-search";

describe("parseMarketSearch", () => {
  it("keeps valid values and drops defaults, so the plain page has no params", () => {
    expect(parseMarketSearch({})).toEqual({});
    expect(parseMarketSearch({ page: 1, limit: 20, sortBy: "createdAt", sortOrder: "desc", category: "all", network: "all", patternFilter: "either" })).toEqual(
      {},
    );
    expect(parseMarketSearch({ search: "dead", network: "solana", page: 3, limit: 50, sortBy: "price", sortOrder: "asc" })).toEqual({
      search: "dead",
      network: "solana",
      page: 3,
      limit: 50,
      sortBy: "price",
      sortOrder: "asc",
    });
  });

  it("reads numbers the router parsed from text back as text", () => {
    expect(parseMarketSearch({ search: 1234, patternValue: 0 })).toEqual({ search: "1234", patternValue: "0" });
  });

  it("drops anything malformed or out of range instead of failing", () => {
    expect(
      parseMarketSearch({
        limit: 10000,
        page: -2,
        minCharLength: 0,
        maxCharLength: 101,
        sortBy: "name",
        sortOrder: "sideways",
        category: "rare",
        network: "bitcoin",
        patternFilter: "middle",
        search: "   ",
      }),
    ).toEqual({});
    expect(parseMarketSearch({ minCharLength: "5", maxCharLength: 100, page: "2" })).toEqual({ minCharLength: 5, maxCharLength: 100, page: 2 });
    expect(parseMarketSearch({ page: 1.5 })).toEqual({});
  });

  it("trims and bounds the search text", () => {
    expect(parseMarketSearch({ search: `  ${"a".repeat(500)} ` }).search).toHaveLength(100);
  });

  it("caps the page at the API's result window for the page size", () => {
    expect(maxPage(20)).toBe(500);
    expect(maxPage(100)).toBe(100);
    expect(parseMarketSearch({ page: 101, limit: 100 })).toEqual({ limit: 100 });
    expect(parseMarketSearch({ page: 500 })).toEqual({ page: 500 });
  });
});

describe("patchMarketSearch", () => {
  const on3 = { search: "dead", page: 3 };
  it("keeps the page when only the page changes", () => {
    expect(patchMarketSearch(on3, { page: 4 })).toEqual({ search: "dead", page: 4 });
    expect(patchMarketSearch(on3, { page: 1 })).toEqual({ search: "dead" });
  });
  it("returns to page 1 on a new search, filter, page size or sort", () => {
    expect(patchMarketSearch(on3, { search: "beef" })).toEqual({ search: "beef" });
    expect(patchMarketSearch(on3, { network: "solana" })).toEqual({ search: "dead", network: "solana" });
    expect(patchMarketSearch(on3, { limit: 50 })).toEqual({ search: "dead", limit: 50 });
    expect(patchMarketSearch(on3, { sortBy: "price" })).toEqual({ search: "dead", sortBy: "price" });
  });
  it("clears a value set back to its default or to undefined", () => {
    expect(patchMarketSearch({ network: "solana", search: "x" }, { network: "all", search: undefined })).toEqual({});
  });
  it("resets the filters but keeps the search text and the sort", () => {
    expect(resetFilters({ search: "x", sortBy: "price", network: "solana", category: "palindrome", minCharLength: 3, page: 2 })).toEqual({
      search: "x",
      sortBy: "price",
    });
  });
});

describe("active filters", () => {
  it("counts the filters that narrow the results", () => {
    expect(activeFilterCount({})).toBe(0);
    expect(activeFilterCount({ patternFilter: "prefix" })).toBe(0);
    expect(activeFilterCount({ patternFilter: "prefix", patternValue: "dead" })).toBe(1);
    expect(activeFilterCount({ minCharLength: 2, maxCharLength: 8, category: "palindrome", network: "ethereum", patternValue: "a" })).toBe(5);
    expect(activeFilterCount({ sortBy: "price", sortOrder: "asc" })).toBe(0);
  });
  it("leaves out an inverted length range (min above max)", () => {
    expect(activeFilterCount({ minCharLength: 9, maxCharLength: 3 })).toBe(0);
  });
  it("calls the view filtered for a search or any filter", () => {
    expect(isFiltered({})).toBe(false);
    expect(isFiltered({ sortBy: "rarity" })).toBe(false);
    expect(isFiltered({ search: "dead" })).toBe(true);
    expect(isFiltered({ network: "solana" })).toBe(true);
  });
});

describe("searchApiParams", () => {
  it("sends the fixed parameters and the sort on the plain page", () => {
    expect(searchApiParams({}, null)).toBe("excludeSold=true&limit=20&offset=0&patternFilter=either&sortBy=createdAt&sortOrder=desc");
  });
  it("sends the offset of the page, the wallet and each non-empty, non-all filter", () => {
    const q = new URLSearchParams(
      searchApiParams(
        {
          page: 3,
          limit: 50,
          search: "dead",
          minCharLength: 2,
          maxCharLength: 9,
          patternFilter: "prefix",
          patternValue: "00",
          category: "leading-zeros",
          network: "ethereum",
          sortBy: "price",
          sortOrder: "asc",
        },
        "0xabc",
      ),
    );
    expect(Object.fromEntries(q)).toEqual({
      excludeSold: "true",
      limit: "50",
      offset: "100",
      walletAddress: "0xabc",
      search: "dead",
      minCharLength: "2",
      maxCharLength: "9",
      patternFilter: "prefix",
      patternValue: "00",
      category: "leading-zeros",
      network: "ethereum",
      sortBy: "price",
      sortOrder: "asc",
    });
  });
  it("leaves an inverted length range out of the call", () => {
    const q = new URLSearchParams(searchApiParams({ minCharLength: 9, maxCharLength: 3 }, null));
    expect(q.has("minCharLength") || q.has("maxCharLength")).toBe(false);
  });
});

describe("nextSort", () => {
  it("toggles the current column and starts a new one descending", () => {
    expect(nextSort({ sortBy: "createdAt", sortOrder: "desc" }, "createdAt")).toEqual({ sortBy: "createdAt", sortOrder: "asc" });
    expect(nextSort({ sortBy: "createdAt", sortOrder: "asc" }, "createdAt")).toEqual({ sortBy: "createdAt", sortOrder: "desc" });
    expect(nextSort({ sortBy: "createdAt", sortOrder: "asc" }, "price")).toEqual({ sortBy: "price", sortOrder: "desc" });
  });
});

describe("rangeText", () => {
  it("reads X-Y of total", () => {
    expect(rangeText({ total: 45, totalIsExact: true }, 1, 20, 20)).toBe("1-20 of 45");
    expect(rangeText({ total: 45, totalIsExact: true }, 3, 20, 5)).toBe("41-45 of 45");
    expect(rangeText({ total: 0, totalIsExact: true }, 1, 20, 0)).toBe("0-0 of 0");
    expect(rangeText({ total: 10000, totalIsExact: false }, 2, 100, 100)).toBe("101-200 of 10,000+");
  });
});

describe("filtersDiffer (Reset Filters enabled)", () => {
  it("false only at the defaults; true for any filter, even one that applies nothing", () => {
    expect(filtersDiffer(parseMarketSearch({}))).toBe(false);
    expect(filtersDiffer(parseMarketSearch({ search: "dead", sortBy: "price", page: "2" }))).toBe(false);
    expect(filtersDiffer(parseMarketSearch({ network: "solana" }))).toBe(true);
    expect(filtersDiffer(parseMarketSearch({ patternFilter: "prefix" }))).toBe(true);
    // min above max: not applied, not counted as active, but still a choice to reset.
    const inverted = parseMarketSearch({ minCharLength: "9", maxCharLength: "3" });
    expect(activeFilterCount(inverted)).toBe(0);
    expect(filtersDiffer(inverted)).toBe(true);
  });
});

describe("lengthDraft (character-count boxes)", () => {
  it("empty is no bound; 1 to 100 are values", () => {
    expect(lengthDraft("")).toEqual({ ok: true, value: undefined });
    expect(lengthDraft(" 7 ")).toEqual({ ok: true, value: 7 });
    expect(lengthDraft("100")).toEqual({ ok: true, value: 100 });
  });

  it.each(["0", "101", "1.5", "-", "-3", "abc", "1e2", "٣"])("%s is refused with a reason", (text) => {
    const r = lengthDraft(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/whole number from 1 to 100|outside 1–100/);
  });
});
