import { describe, expect, it } from "vitest";
import { applyResults, bulkPrice, bulkRarity, chunk, countResults, failRows, fileProblem, matchedLength, MAX_CSV_BYTES, prepareRows } from "./bulk-rows";

const row = (pattern_matched: string, extra: Partial<Record<string, string>> = {}) => ({
  address: "0xabc",
  private_key: "k",
  platform: "ethereum",
  pattern_type: "prefix",
  pattern_matched,
  ...extra,
});

describe("bulk tables", () => {
  it("prices and rarity by matched length", () => {
    expect([1, 4, 5, 6, 7, 8, 12].map(bulkPrice)).toEqual(["0.00001", "0.00001", "0.00002", "0.0002", "0.002", null, null]);
    expect([1, 2, 4, 5, 6, 7, 8, 9].map(bulkRarity)).toEqual([0.5, 0.5, 1, 1.5, 2, 2.5, 3, 3]);
    expect(matchedLength("0x0000")).toBe(4);
    expect(matchedLength("abcde")).toBe(5);
  });
});

describe("fileProblem", () => {
  it("accepts CSV, refuses other types, empty and oversized files", () => {
    expect(fileProblem({ name: "a.csv", type: "text/csv", size: 10 })).toBeNull();
    expect(fileProblem({ name: "a.csv", type: "", size: 10 })).toBeNull();
    expect(fileProblem({ name: "a.png", type: "image/png", size: 10 })).toEqual({ title: "Invalid File", description: "Please select a valid CSV file" });
    expect(fileProblem({ name: "a.csv", type: "text/csv", size: MAX_CSV_BYTES + 1 })?.description).toMatch(/too large/);
    expect(fileProblem({ name: "a.csv", type: "text/csv", size: 0 })?.description).toMatch(/empty/);
  });
});

describe("prepareRows", () => {
  it("marks missing fields and 8+ matches as errors, others pending", () => {
    const rows = prepareRows([row("0x0000"), row("00000000"), row("00", { private_key: "" })]);
    expect(rows.map((r) => [r.status, r.message ?? null, r.price])).toEqual([
      ["pending", null, "0.00001"],
      ["error", "Pattern matched 8+ characters marked as SOLD - skipped", null],
      ["error", "Missing required fields", "0.00001"],
    ]);
  });
});

describe("chunks and results", () => {
  it("chunks", () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
  it("applies per-row results by position in the request", () => {
    const rows = prepareRows([row("0000"), row("00000000"), row("00000"), row("000")]);
    const sent = [0, 2, 3];
    const next = applyResults(rows, sent, [
      { index: 0, status: "success", id: 7, address: "0xabc", price: "0.00001", currency: "ETH", rarityScore: "1.0" },
      { index: 1, status: "error", reason: "key-mismatch", message: "Private key does not match the address" },
      { index: 2, status: "error", reason: "duplicate", message: "" },
    ]);
    expect(next.map((r) => [r.status, r.id ?? null, r.message ?? null])).toEqual([
      ["success", 7, null],
      ["error", null, "Pattern matched 8+ characters marked as SOLD - skipped"],
      ["error", null, "Private key does not match the address"],
      ["error", null, "Upload failed"],
    ]);
    expect(countResults(next)).toEqual({ succeeded: 1, failed: 3 });
    expect(failRows(rows, [0], "").map((r) => r.message ?? null)[0]).toBe("Upload failed");
  });
});
