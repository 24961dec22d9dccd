import { describe, expect, it } from "vitest";
import { PENDING_SEARCH_MS, rememberPendingSearch, takePendingSearch } from "./pending-search";

/** sessionStorage's contract, in memory. */
function memoryStore() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, String(v)),
    removeItem: (k: string) => void m.delete(k),
    size: () => m.size,
  };
}

const T = 1_800_000_000_000;

describe("a visitor's pending saved search", () => {
  it("is taken once, for the same filters in any order, after connecting", () => {
    const s = memoryStore();
    rememberPendingSearch(s, { network: "ethereum", search: "dead" }, T);
    expect(takePendingSearch(s, { search: "dead", network: "ethereum" }, T + 30_000)).toBe(true);
    expect(takePendingSearch(s, { search: "dead", network: "ethereum" }, T + 31_000)).toBe(false);
    expect(s.size()).toBe(0);
  });

  it("coming back to other filters saves nothing and drops the pending one", () => {
    const s = memoryStore();
    rememberPendingSearch(s, { search: "dead" }, T);
    expect(takePendingSearch(s, { search: "beef" }, T + 1000)).toBe(false);
    expect(takePendingSearch(s, { search: "dead" }, T + 2000)).toBe(false);
  });

  it("an extra filter makes it another search", () => {
    const s = memoryStore();
    rememberPendingSearch(s, { search: "dead" }, T);
    expect(takePendingSearch(s, { search: "dead", network: "solana" }, T + 1000)).toBe(false);
  });

  it("too old, from the future, or not ours: not taken", () => {
    const s = memoryStore();
    rememberPendingSearch(s, { search: "dead" }, T);
    expect(takePendingSearch(s, { search: "dead" }, T + PENDING_SEARCH_MS)).toBe(false);
    rememberPendingSearch(s, { search: "dead" }, T);
    expect(takePendingSearch(s, { search: "dead" }, T - 1)).toBe(false);
    s.setItem("pendingSavedSearch", "not json");
    expect(takePendingSearch(s, { search: "dead" }, T)).toBe(false);
    s.setItem("pendingSavedSearch", JSON.stringify({ key: '[["search","dead"]]', at: "soon" }));
    expect(takePendingSearch(s, { search: "dead" }, T)).toBe(false);
  });

  it("storage that refuses (private mode) loses the pending save quietly", () => {
    const refusing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => {},
    };
    expect(() => rememberPendingSearch(refusing, { search: "dead" }, T)).not.toThrow();
    expect(takePendingSearch(refusing, { search: "dead" }, T)).toBe(false);
  });
});
