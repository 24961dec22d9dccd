import { describe, expect, it } from "vitest";
import { parseAppSearch, stringifyAppSearch } from "./url-search";

describe("the URL's search as the router reads it", () => {
  it("keeps a typed pattern as its text, never as the number JSON would read", () => {
    expect(parseAppSearch("?patternValue=7e8&search=1E3&network=ethereum")).toEqual({ patternValue: "7e8", search: "1E3", network: "ethereum" });
    expect(parseAppSearch("?patternValue=-0&search=null&q=1.50")).toEqual({ patternValue: "-0", search: "null", q: "1.50" });
  });

  it("reads numbers and booleans that round-trip exactly, and what the router wrote as JSON", () => {
    expect(parseAppSearch("?page=3&flag=true")).toEqual({ page: 3, flag: true });
    expect(parseAppSearch(`?patternValue=${encodeURIComponent('"7e8"')}&ids=${encodeURIComponent("[1,2]")}`)).toEqual({ patternValue: "7e8", ids: [1, 2] });
  });

  it("what the app writes comes back unchanged", () => {
    for (const search of [
      { patternValue: "7e8" },
      { search: "123" },
      { search: "null" },
      { page: 2, limit: 50 },
      { search: "0xdead beef" },
      { returnTo: "/address/5" },
    ]) {
      expect(parseAppSearch(stringifyAppSearch(search))).toEqual(search);
    }
  });

  it("a malformed quoted value is left as the text in the URL", () => {
    expect(parseAppSearch(`?search=${encodeURIComponent('"abc')}`)).toEqual({ search: '"abc' });
  });
});
