import { describe, expect, it } from "vitest";
import type { BulkAppraisal } from "../../../../schema/listings";
import {
  applyResults,
  bulkPrice,
  bulkRarity,
  chunk,
  countResults,
  failRows,
  fileProblem,
  matchedLength,
  MAX_CSV_BYTES,
  prepareRows,
  previewPrice,
  rowWarnings,
  withoutKey,
} from "./bulk-rows";

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

describe("the preview's prices and warnings", () => {
  const appraisal = (extra: Partial<Extract<BulkAppraisal, { status: "ok" }>> = {}): BulkAppraisal => ({
    index: 0,
    status: "ok",
    currency: "ETH",
    tablePrice: "0.00001",
    estimatedValue: "0.00125",
    notable: true,
    pattern: "0000",
    tableRarity: "1.0",
    ...extra,
  });
  const [four, two, eight] = prepareRows([row("0000"), row("ab"), row("00000000")]);

  it("the table's price gives most of the estimate away: warned in words, naming the row; priced at the estimate, not", () => {
    expect(previewPrice(four, appraisal(), "table")).toBe("0.00001");
    expect(rowWarnings(four, appraisal(), "table")).toEqual(["Row 1: Price 0.00001 ETH is under a fifth of the estimated value 0.00125 ETH (99% below it)"]);
    expect(previewPrice(four, appraisal(), "estimate")).toBe("0.00125");
    expect(rowWarnings(four, appraisal(), "estimate")).toEqual([]);
  });

  it("a row with no notable pattern is said so under either pricing; a refused or skipped row gets no price warning", () => {
    const plain = appraisal({ notable: false, estimatedValue: "0.001125" });
    expect(rowWarnings(two, plain, "estimate")).toEqual([expect.stringMatching(/^Row 2: No notable pattern \(rarity 0\)/)]);
    expect(rowWarnings(two, plain, "table")).toHaveLength(2);
    expect(rowWarnings(eight, appraisal(), "table")).toEqual([]);
    expect(rowWarnings(two, { index: 1, status: "error", reason: "invalid-address", message: "Invalid Ethereum address" }, "table")).toEqual([
      "Row 2: Invalid Ethereum address",
    ]);
    expect(rowWarnings(two, undefined, "table")).toEqual([]);
  });

  it("the appraisal is sent without the key", () => {
    expect(withoutKey(row("0000"))).not.toHaveProperty("private_key");
  });
});
