import { describe, expect, it } from "vitest";
import { compactNumber, formatDuration } from "./duration";

describe("formatDuration", () => {
  it.each([
    [0.2, "under a second"],
    [1, "1 second"],
    [42, "42 seconds"],
    [90, "1.5 minutes"],
    [7200, "2 hours"],
    [86400 * 3, "3 days"],
    [86400 * 365.25 * 12, "12 years"],
    [86400 * 365.25 * 3e9, "3 billion years"],
  ])("%s s -> %s", (s, text) => expect(formatDuration(s)).toBe(text));

  it("refuses nonsense", () => {
    expect(formatDuration(Number.NaN)).toBe("—");
    expect(formatDuration(-1)).toBe("—");
  });
});

describe("compactNumber", () => {
  it("keeps small numbers plain and names large ones", () => {
    expect(compactNumber(65536)).toBe("65.5 thousand");
    expect(compactNumber(4294967296)).toBe("4.3 billion");
    expect(compactNumber(9999)).toBe("9,999");
  });
});
