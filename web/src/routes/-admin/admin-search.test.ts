import { describe, expect, it } from "vitest";
import { adminState, parseAdminSearch, patchAdminSearch } from "./admin-search";

describe("parseAdminSearch", () => {
  it("keeps only valid values that differ from the defaults", () => {
    expect(parseAdminSearch({})).toEqual({});
    expect(parseAdminSearch({ tab: "listings", network: "all", status: "all", page: "1", limit: "20", q: "  " })).toEqual({});
    expect(parseAdminSearch({ tab: "bulk", network: "solana", status: "sold", page: "3", limit: "50", q: " dead " })).toEqual({
      tab: "bulk",
      network: "solana",
      status: "sold",
      page: 3,
      limit: 50,
      q: "dead",
    });
  });

  it("drops anything malformed", () => {
    expect(parseAdminSearch({ tab: "<script>", network: "bitcoin", status: "deleted", page: "-2", limit: "7", q: 5 })).toEqual({});
    expect(parseAdminSearch({ page: "1e3" })).toEqual({});
    expect(parseAdminSearch({ page: 4 })).toEqual({ page: 4 });
    expect(parseAdminSearch({ page: "2.5" })).toEqual({});
  });
});

describe("patchAdminSearch", () => {
  it("a new filter, search or page size goes back to page 1; paging keeps the filters", () => {
    const on3 = parseAdminSearch({ status: "active", page: "3" });
    expect(patchAdminSearch(on3, { network: "ethereum" })).toEqual({ status: "active", network: "ethereum" });
    expect(patchAdminSearch(on3, { limit: 100 })).toEqual({ status: "active", limit: 100 });
    expect(patchAdminSearch(on3, { page: 4 })).toEqual({ status: "active", page: 4 });
    expect(patchAdminSearch(on3, { tab: "bulk" })).toEqual({ status: "active", page: 3, tab: "bulk" });
  });

  it("adminState fills the defaults", () => {
    expect(adminState({})).toEqual({ tab: "listings", q: "", network: "all", status: "all", page: 1, limit: 20 });
  });
});
