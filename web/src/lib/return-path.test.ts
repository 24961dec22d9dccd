import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./return-path";

describe("safeReturnPath", () => {
  it("takes a listing id (the Buy's) and the app's own pages that need a wallet", () => {
    expect(safeReturnPath(12)).toBe("/address/12");
    expect(safeReturnPath("12")).toBe("/address/12");
    expect(safeReturnPath("/address/12")).toBe("/address/12");
    expect(safeReturnPath("/marketplace?patternValue=dead&network=ethereum")).toBe("/marketplace?patternValue=dead&network=ethereum");
    expect(safeReturnPath("/marketplace")).toBe("/marketplace");
    expect(safeReturnPath("/notifications")).toBe("/notifications");
  });

  it("drops anything that could lead elsewhere", () => {
    for (const raw of [
      "//evil.example/address/1",
      "https://evil.example/marketplace",
      "javascript:alert(1)",
      "/\\evil.example",
      "/marketplacefoo",
      "/address/0",
      "/address/1x",
      "/admin",
      "/marketplace\n/evil",
      "",
      0,
      -3,
      1.5,
      null,
      undefined,
      {},
      `/marketplace?${"a".repeat(700)}`,
    ]) {
      expect(safeReturnPath(raw), String(raw)).toBeNull();
    }
  });
});
