import { describe, expect, it } from "vitest";
import type { ListingView } from "../../../schema/browse";
import { EMBEDDED_LISTING_ELEMENT_ID } from "../../../schema/embedded-listing";
import { seedEmbeddedListing } from "./embedded-listing";
import { listingQuery } from "./listings";
import { chainConfigQuery } from "./market";
import { createQueryClient } from "./query-client";

const config = { ethChainId: 1, solCluster: "mainnet-beta" };
const listing = { id: 42, address: "0x00000000c0ffee00000000000000000000000042", isOwner: false, status: "active" } as ListingView;

function page(text: string | null) {
  const state = { removed: false };
  return {
    state,
    getElementById: (id: string) =>
      id === EMBEDDED_LISTING_ELEMENT_ID && text !== null ? { textContent: text, remove: () => void (state.removed = true) } : null,
  };
}

describe("seedEmbeddedListing", () => {
  it("puts the page's listing under the signed-out key of this path's read, so the app does not read it again", () => {
    const qc = createQueryClient();
    const p = page(JSON.stringify({ id: "42", listing, config }));
    expect(seedEmbeddedListing(qc, p, "/address/42", null)).toBe(true);
    expect(qc.getQueryData(listingQuery("42", null).queryKey)).toEqual(listing);
    expect(qc.getQueryData(chainConfigQuery().queryKey)).toEqual(config);
    expect(p.state.removed).toBe(true);
  });

  it("leaves a connected wallet's read to the API (isOwner and what its session may see); the config is everyone's", () => {
    const qc = createQueryClient();
    const p = page(JSON.stringify({ id: "42", listing, config }));
    expect(seedEmbeddedListing(qc, p, "/address/42", "0xabc")).toBe(false);
    expect(
      qc
        .getQueryCache()
        .getAll()
        .map((q) => q.queryKey),
    ).toEqual([chainConfigQuery().queryKey]);
    expect(p.state.removed).toBe(true);
  });

  it("ignores data for another listing, broken JSON and a page without data", () => {
    for (const [text, path] of [
      [JSON.stringify({ id: "42", listing, config }), "/address/43"],
      [JSON.stringify({ id: "43", listing, config }), "/address/43"],
      [JSON.stringify({ id: "42", listing, config }), "/marketplace"],
      ["{not json", "/address/42"],
      ["null", "/address/42"],
      [null, "/address/42"],
    ] as const) {
      const qc = createQueryClient();
      expect(seedEmbeddedListing(qc, page(text), path, null), `${text} ${path}`).toBe(false);
      expect(qc.getQueryCache().getAll()).toEqual([]);
    }
  });
});
