import { describe, expect, it } from "vitest";
import { allSelected, bulkResultText, offsetFor, pageSummary, toggleAll, toggleId, missingIdsOf, selectionOnPage } from "./table-state";

describe("selection", () => {
  it("toggles one id and all shown ids", () => {
    expect([...toggleId(new Set([1]), 2)]).toEqual([1, 2]);
    expect([...toggleId(new Set([1, 2]), 2)]).toEqual([1]);
    expect([...toggleAll(new Set([9]), [1, 2])].sort()).toEqual([1, 2, 9]);
    expect([...toggleAll(new Set([1, 2, 9]), [1, 2])]).toEqual([9]);
    expect(allSelected(new Set(), [])).toBe(false);
    expect(allSelected(new Set([1, 2]), [1, 2])).toBe(true);
  });
});

describe("paging", () => {
  it("summarises and computes offsets", () => {
    expect(pageSummary(0, 20, 57)).toBe("Showing 1–20 of 57");
    expect(pageSummary(40, 17, 57)).toBe("Showing 41–57 of 57");
    expect(pageSummary(0, 0, 0)).toBe("No listings");
    expect(offsetFor(1, 20)).toBe(0);
    expect(offsetFor(3, 50)).toBe(100);
    expect(offsetFor(0, 50)).toBe(0);
  });
});

describe("bulkResultText", () => {
  it("says how many changed and why some were skipped", () => {
    expect(bulkResultText({ success: true, updated: 1, skipped: [] }, "updated")).toBe("1 listing updated");
    expect(
      bulkResultText(
        {
          success: true,
          updated: 2,
          skipped: [
            { id: 3, reason: "sold" },
            { id: 4, reason: "sold" },
          ],
        },
        "deleted",
      ),
    ).toBe("2 listings deleted; 2 skipped (sold)");
  });
});

describe("selectionOnPage", () => {
  it("drops selected ids whose rows are gone, keeps the rest", () => {
    expect([...selectionOnPage(new Set([1, 2, 3]), [2, 3, 4])]).toEqual([2, 3]);
    expect(selectionOnPage(new Set([9]), []).size).toBe(0);
  });
});

describe("missingIdsOf", () => {
  it("reads the Worker's 404 body; anything else names nothing", () => {
    expect(missingIdsOf('{"error":"Not Found","message":"Listing not found: 7","missingIds":[7]}')).toEqual([7]);
    expect(missingIdsOf('{"missingIds":["7", 1.5, 8]}')).toEqual([8]);
    expect(missingIdsOf("not json")).toEqual([]);
  });
});
