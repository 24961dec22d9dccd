import { describe, expect, it } from "vitest";
import { FOOTER_LINKS, HEADER_LINKS } from "./nav";

describe("navigation", () => {
  it("the header links Activity and Grind for everyone, as the footer does", () => {
    for (const to of ["/activity", "/grind"] as const) {
      expect(HEADER_LINKS.find((l) => l.to === to)).toMatchObject({ to });
      expect(HEADER_LINKS.find((l) => l.to === to)?.adminOnly).toBeFalsy();
      expect(FOOTER_LINKS.some((l) => l.to === to)).toBe(true);
    }
  });
});
