import { describe, expect, it } from "vitest";
import { edgeAfterFocus, overlaps } from "./toast-placement";

const box = (left: number, top: number, width: number, height: number) => ({ left, top, right: left + width, bottom: top + height });

describe("where the toasts show", () => {
  const toastsAtTop = box(0, 56, 390, 100);

  it("stay where they are when the field the person moves into is clear of them", () => {
    expect(edgeAfterFocus("top", box(16, 700, 300, 38), toastsAtTop)).toBe("top");
    expect(edgeAfterFocus("top", box(16, 156, 300, 38), toastsAtTop)).toBe("top");
    expect(edgeAfterFocus("bottom", box(16, 100, 300, 38), null)).toBe("bottom");
  });

  it("move to the other edge when that field lies under them", () => {
    expect(edgeAfterFocus("top", box(16, 120, 300, 38), toastsAtTop)).toBe("bottom");
    expect(edgeAfterFocus("bottom", box(16, 760, 300, 38), box(0, 740, 390, 100))).toBe("top");
  });

  it("count touching edges as clear", () => {
    expect(overlaps(box(0, 0, 10, 10), box(10, 0, 10, 10))).toBe(false);
    expect(overlaps(box(0, 0, 10, 10), box(9, 9, 10, 10))).toBe(true);
  });
});
