// The listing page's owner panel: "Edit price" for the seller who owns an active, listed listing no purchase holds,
// and for nobody else; a reserved listing says why its price cannot change now.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ListingView } from "../../../../schema/browse";
import type { ReservationState } from "../../lib/reservation";
import { OwnerPanel, ownerPriceState } from "./OwnerPanel";

const listing = (over: Partial<ListingView> = {}): ListingView => ({
  id: 7,
  address: "0xdead000000000000000000000000000000000001",
  network: "ethereum",
  pattern: "dead",
  category: "word-like",
  patternLength: 4,
  rarityScore: "6.0",
  price: "0.5",
  currency: "ETH",
  usdPrice: 1000,
  formattedUsd: "$1,000.00",
  status: "active",
  isListed: true,
  promotionType: "standard",
  isFeatured: false,
  isOwner: true,
  reservation: null,
  createdAt: "2026-03-05T10:00:00.000Z",
  ...over,
});
const free: ReservationState = { kind: "free" };
const held: ReservationState = { kind: "other", until: new Date(Date.now() + 600_000), paymentReported: false };
const paying: ReservationState = { kind: "other", until: new Date(Date.now() - 600_000), paymentReported: true };

const render = (l: ListingView, reservation: ReservationState) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <OwnerPanel listing={l} reservation={reservation} />
    </QueryClientProvider>,
  );
const editButton = /<button[^>]*>Edit price<\/button>/;

describe("ownerPriceState", () => {
  it("editable only while active, listed and free", () => {
    expect(ownerPriceState(listing(), free)).toBe("editable");
    expect(ownerPriceState(listing(), held)).toBe("reserved");
    expect(ownerPriceState(listing(), paying)).toBe("reserved");
    expect(ownerPriceState(listing({ status: "sold", isListed: false }), free)).toBe("sold");
    expect(ownerPriceState(listing({ status: "inactive", isListed: false }), free)).toBe("unlisted");
    expect(ownerPriceState(listing({ status: "deleted", isListed: false }), free)).toBe("unlisted");
    expect(ownerPriceState(listing({ isListed: false }), free)).toBe("unlisted");
  });
});

describe("OwnerPanel", () => {
  it("the owner of an active listing gets Edit price", () => {
    const html = render(listing(), free);
    expect(html).toContain("You own this listing.");
    expect(html).toMatch(editButton);
  });

  it("anyone else (a visitor, a buyer, an admin on another's listing: isOwner false) gets nothing", () => {
    expect(render(listing({ isOwner: false }), free)).toBe("");
  });

  it("while a purchase holds the listing: no Edit price, and the reason", () => {
    for (const state of [held, paying]) {
      const html = render(listing({ reservation: { until: new Date().toISOString(), paymentReported: state === paying } }), state);
      expect(html).not.toMatch(editButton);
      expect(html).toContain("A purchase of this listing is in progress: its price cannot change until the purchase completes or expires.");
    }
  });

  it("a sold listing: no Edit price; it says it was sold", () => {
    const html = render(listing({ status: "sold", isListed: false }), free);
    expect(html).not.toMatch(editButton);
    expect(html).toContain("This address has been sold.");
  });

  it("an inactive listing: no Edit price", () => {
    expect(render(listing({ status: "inactive", isListed: false }), free)).not.toMatch(editButton);
  });
});
