// The listing page's summary in words: an address with no notable pattern (the rarity engine's "custom", listed only
// once its seller confirmed it) says so, never the engine's placeholder "custom" as if it were the pattern.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ListingView } from "../../../schema/browse";
import { patternText } from "../lib/pattern-ranges";
import { ListingSummary } from "./ListingSummary";

const listing = (over: Partial<ListingView>): ListingView => ({
  id: 3,
  address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  network: "ethereum",
  pattern: "custom",
  category: "custom",
  patternLength: 0,
  rarityScore: "0.0",
  price: "0.001",
  currency: "ETH",
  usdPrice: 3.6,
  formattedUsd: "$3.60",
  status: "active",
  isListed: true,
  promotionType: "standard",
  isFeatured: false,
  isOwner: false,
  reservation: null,
  createdAt: "2026-12-01T10:00:00.000Z",
  ...over,
});

/** The text of the summary's Pattern field. */
const patternField = (html: string) => /Pattern<\/dt><dd[^>]*>([^<]*)<\/dd>/.exec(html)?.[1];

describe("a listing's pattern in words", () => {
  it("no notable pattern reads 'None', not the engine's 'custom'", () => {
    expect(patternText("custom")).toBe("None");
    expect(patternField(renderToStaticMarkup(<ListingSummary listing={listing({})} chainConfig={undefined} />))).toBe("None");
  });

  it("a pattern is shown as found", () => {
    expect(patternText("dead...beef")).toBe("dead...beef");
    expect(patternField(renderToStaticMarkup(<ListingSummary listing={listing({ pattern: "0000" })} chainConfig={undefined} />))).toBe("0000");
  });
});
