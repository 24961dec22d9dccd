import { describe, expect, it } from "vitest";
import { changeWords, feeStateWords, networkWords, rateWords, setByWords } from "./settings-words";

describe("Admin > Settings in words", () => {
  it("names a fee configuration's state, never the column's value", () => {
    expect(feeStateWords("in-force")).toBe("In force");
    expect(feeStateWords("scheduled")).toBe("Scheduled");
    expect(feeStateWords("superseded")).toBe("Replaced");
  });

  it("says a seeded row is the store's default, and keeps a wallet as it is", () => {
    expect(setByWords(null)).toBe("The store's default");
    expect(setByWords("migration 0018")).toBe("The store's default (set by an update)");
    expect(setByWords("migration 0025")).toBe("The store's default (set by an update)");
    expect(setByWords("0xabc0000000000000000000000000000000000def")).toBe("0xabc0000000000000000000000000000000000def");
  });

  it("writes the grinder rate grouped, with its unit", () => {
    expect(rateWords(2_000_000_000)).toBe("2,000,000,000 keys a second");
    expect(networkWords("ethereum")).toBe("Ethereum");
    expect(networkWords("solana")).toBe("Solana");
  });

  it("writes a change's values as words, not JSON", () => {
    expect(changeWords({ network: "solana", exchangeFeePercentage: "0.5", max_price: "1" })).toBe("network Solana, exchange fee percentage 0.5, max price 1");
    expect(changeWords({ nested: { a: 1 } })).toBe("—");
    expect(changeWords(null)).toBe("—");
    expect(changeWords("text")).toBe("text");
  });
});
