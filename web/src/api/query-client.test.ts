import { describe, expect, it } from "vitest";
import { createQueryClient } from "./query-client";

describe("query defaults", () => {
  it("are the spec's: no interval refetch, no refetch on focus, never stale, no retries", () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries).toMatchObject({ refetchInterval: false, refetchOnWindowFocus: false, staleTime: Infinity, retry: false });
    expect(mutations).toMatchObject({ retry: false });
  });
});
