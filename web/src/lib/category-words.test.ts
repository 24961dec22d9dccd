import { describe, expect, it } from "vitest";
import { CATEGORIES } from "../../../schema/constants";
import { categoryLabel, categoryWords } from "./category-words";

describe("categories in words", () => {
  it("every category the API sends reads without its slug", () => {
    for (const slug of CATEGORIES) {
      expect(categoryWords(slug)).not.toContain("-");
      expect(categoryLabel(slug)).toMatch(/^[A-Z][a-z ]+$/);
    }
    expect(CATEGORIES.map(categoryLabel)).toEqual(["Leading zeros", "Trailing zeros", "Word", "Mirror", "Sequence", "Custom"]);
  });

  it("an unknown slug still loses its hyphens", () => {
    expect(categoryWords("new-kind")).toBe("new kind");
  });
});
