// Admin > Listings: a custom order's address is its buyer's key, never the store's listing, so it reads as
// delivered (or held for payment) and offers no status action, while an ordinary listing keeps its buttons.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { AdminListing } from "../../../../schema/listings";
import { ListingRowActions, ListingStatus } from "./ListingRow";

const listing = (over: Partial<AdminListing>): AdminListing => ({
  id: 4,
  address: "0xabc0000000000000000000000000000000000abc",
  network: "ethereum",
  price: "0.5",
  currency: "ETH",
  usdPrice: 1800,
  formattedUsd: "$1,800.00",
  category: "prefix",
  pattern: "abc",
  rarityScore: "3.0",
  status: "inactive",
  isFeatured: false,
  isListed: false,
  promotionType: "standard",
  createdAt: "2026-12-01T10:00:00.000Z",
  customOrder: null,
  ...over,
});
const none = () => {};
const actions = (l: AdminListing) =>
  renderToStaticMarkup(<ListingRowActions listing={l} busy={false} onToggleStatus={none} onToggleFeatured={none} onDelete={none} />);

describe("Admin > Listings: a custom order's address", () => {
  it("a delivered order reads 'delivered to its buyer', not inactive, with no Activate (which always failed)", () => {
    const l = listing({ customOrder: { id: 12, status: "delivered" } });
    const status = renderToStaticMarkup(<ListingStatus listing={l} />);
    expect(status).toContain("delivered to its buyer");
    expect(status).not.toContain("inactive");
    expect(actions(l)).not.toMatch(/Activate|Deactivate|Feature|Delete/);
    expect(actions(l)).toContain("custom order 12");
  });
  it("an order found and awaiting its buyer's payment offers no action either", () => {
    const l = listing({ status: "active", customOrder: { id: 13, status: "found" } });
    expect(renderToStaticMarkup(<ListingStatus listing={l} />)).toContain("held for its buyer");
    expect(actions(l)).not.toMatch(/Activate|Deactivate/);
  });
  it("an ordinary inactive listing keeps its status and its Activate button", () => {
    const l = listing({});
    expect(renderToStaticMarkup(<ListingStatus listing={l} />)).toContain("inactive");
    expect(actions(l)).toContain("Activate");
  });
});
