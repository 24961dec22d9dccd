import { describe, expect, it } from "vitest";
import { newestFirst } from "./history";

describe("newestFirst", () => {
  it("orders sales and purchases by createdAt, newest first, without changing the input", () => {
    const rows = [
      { createdAt: "2026-01-01T00:00:00Z", id: "a" },
      { createdAt: "2026-03-01T00:00:00Z", id: "b" },
      { createdAt: "2026-02-01T00:00:00Z", id: "c" },
    ];
    expect(newestFirst(rows).map((r) => r.id)).toEqual(["b", "c", "a"]);
    expect(rows[0].id).toBe("a");
  });
});
