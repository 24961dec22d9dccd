import { describe, expect, it } from "vitest";
import { addressParts, breakPoints, compactParts, splitParts } from "./address-parts";

const ETH = "0x000D14095247Ae5633Ee91B0e15F6cc71c3547b2"; // 42 characters, "000" at [2, 5)
const shown = (parts: { text: string }[]) => parts.map((p) => p.text).join("");
const hits = (parts: { text: string; hit: boolean }[]) => parts.filter((p) => p.hit).map((p) => p.text);

describe("an address's highlighted runs", () => {
  it("cuts the address by its ranges, in any order, overlaps merged", () => {
    expect(
      addressParts("0xdeadbeef", [
        [6, 10],
        [2, 6],
      ]),
    ).toEqual([
      { text: "0x", hit: false },
      { text: "dead", hit: true },
      { text: "beef", hit: true },
    ]);
    expect(
      addressParts("abcdef", [
        [1, 4],
        [2, 3],
      ]),
    ).toEqual([
      { text: "a", hit: false },
      { text: "bcd", hit: true },
      { text: "ef", hit: false },
    ]);
  });
});

describe("where an address may break", () => {
  it("at its quarters, so lines balanced over them are even pieces, not one with a character or two left over", () => {
    expect(breakPoints(ETH, [[2, 5]])).toEqual([11, 21, 32]);
    expect(breakPoints(ETH, [[38, 42]])).toEqual([11, 21, 32]);
  });

  it("at the nearer end of a highlighted run that spans a quarter, when that end is near it", () => {
    expect(breakPoints(ETH, [[16, 24]])).toEqual([11, 24, 32]);
    expect(breakPoints(ETH, [[19, 30]])).toEqual([11, 19, 32]);
    expect(breakPoints(ETH, [[30, 42]])).toEqual([11, 21, 30]);
    // A run from the second character to the end cannot be avoided: the quarters after all.
    expect(breakPoints(ETH, [[2, 42]])).toEqual([11, 21, 32]);
  });

  it("splits the runs there, highlighted ones included, losing nothing", () => {
    const parts = addressParts(ETH, [
      [2, 5],
      [16, 24],
    ]);
    const pieces = splitParts(parts, [11, 24, 32]);
    expect(pieces.map(shown)).toEqual([ETH.slice(0, 11), ETH.slice(11, 24), ETH.slice(24, 32), ETH.slice(32)]);
    expect(pieces.map(hits)).toEqual([["000"], [ETH.slice(16, 24)], [], []]);
    const [, second] = splitParts(parts, [20]);
    expect(second[0]).toEqual({ text: ETH.slice(20, 24), hit: true });
    expect(splitParts(addressParts("abcd", [[0, 2]]), [2]).map(shown)).toEqual(["ab", "cd"]);
  });
});

describe("the compact form", () => {
  it("keeps the first six, the last four and the highlighted runs, and elides the rest", () => {
    const parts = compactParts(ETH, [[2, 5]]);
    expect(shown(parts)).toBe("0x000D…47b2");
    expect(hits(parts)).toEqual(["000"]);
    expect(parts.filter((p) => p.elided)).toEqual([{ text: "…", hit: false, elided: true }]);
  });

  it("keeps a highlighted run in the middle or at the end whole", () => {
    expect(shown(compactParts("0x1234567890deadbeef1234567890abcdef123456", [[12, 20]]))).toBe("0x1234…deadbeef…3456");
    expect(shown(compactParts("0x1234567890abcdef1234567890abcdef1234dead", [[38, 42]]))).toBe("0x1234…dead");
    expect(shown(compactParts("0x1234567890abcdef1234567890abcdef1230dead", [[34, 42]]))).toBe("0x1234…1230dead");
  });

  it("keeps a short gap rather than eliding three characters or fewer", () => {
    expect(shown(compactParts("0x1234567890", [[2, 5]], 6, 4))).toBe("0x1234567890");
    expect(shown(compactParts("So1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", [[0, 3]]))).toBe("So1aaa…aaaa");
  });
});
