import { describe, expect, it } from "vitest";
import { describeFilters, marketplaceSearch } from "./saved-filters";

describe("describeFilters", () => {
  it("says each filter in words, in a fixed order", () => {
    expect(describeFilters({ patternFilter: "prefix", patternValue: "dead", network: "ethereum", minCharLength: "6" })).toBe(
      "Starts with dead · Ethereum · 6+ characters",
    );
    expect(describeFilters({ patternValue: "beef" })).toBe("Starts or ends with beef");
    expect(describeFilters({ patternFilter: "suffix", patternValue: "AAA", category: "word-like", minCharLength: "3", maxCharLength: "5" })).toBe(
      "Ends with AAA · word · 3–5 characters",
    );
    expect(describeFilters({ search: "c0de", sortBy: "price", sortOrder: "asc" })).toBe("Contains c0de · by price, ascending");
    expect(describeFilters({})).toBe("Every listing");
    expect(describeFilters({ excludeSold: "false", maxCharLength: "4" })).toBe("up to 4 characters · sold ones too");
  });
});

describe("marketplaceSearch", () => {
  it("keeps the filters that have a value", () => {
    expect(marketplaceSearch({ patternValue: "dead", network: "", search: undefined })).toEqual({ patternValue: "dead" });
  });
});
