// The seller's list of offers says where each offer stands in words (docs/offers.md#accepting): an open one with its
// answers, a paused one waiting behind the accepted one, the accepted one awaiting payment, a lapsed one never paid.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { OfferStatus, ReceivedOfferView } from "../../../../schema/offers";
import { sellerStanding } from "../../lib/offer-rules";
import { OfferRows } from "./SellerOffers";

const row = (id: number, status: OfferStatus, amount: string): ReceivedOfferView => ({
  id,
  listingId: 7,
  address: "0x1111111111111111111111111111111111111111",
  network: "ethereum",
  amount,
  currency: "ETH",
  ask: "1",
  status,
  endReason: status === "lapsed" ? "payment_lapsed" : null,
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  createdAt: new Date().toISOString(),
  transactionId: status === "accepted" || status === "lapsed" ? "00000000-0000-4000-8000-000000000000" : null,
  buyerWallet: `0x${String(id).repeat(40).slice(0, 40)}`,
  askNow: "1",
});

function render(offers: ReceivedOfferView[]): string[] {
  const html = renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <OfferRows offers={offers} showListing={false} />
    </QueryClientProvider>,
  );
  return html.split('data-testid="seller-offer"').slice(1);
}

describe("the seller's list of offers", () => {
  it("says each offer's standing in words; only an open one can be answered", () => {
    const [accepted, open, paused, lapsed] = render([
      row(1, "accepted", "0.99999999"),
      row(2, "open", "0.8"),
      row(3, "paused", "0.7"),
      row(4, "lapsed", "0.9"),
    ]);
    expect(accepted).toContain("Accepted");
    expect(accepted).toContain("awaiting the buyer&#x27;s payment");
    expect(open).toContain(">Open<");
    expect(paused).toContain(">Paused<");
    expect(paused).toContain("opens again if that is not paid");
    expect(lapsed).toContain(">Lapsed<");
    expect(lapsed).toContain("did not pay in time");
    expect(open).toContain("Accept the offer of 0.8 ETH");
    for (const other of [accepted, paused, lapsed]) {
      expect(other).not.toContain(">Accept<");
      expect(other).not.toContain(">Decline<");
    }
  });

  it("has words for every state, never colour alone", () => {
    for (const status of ["open", "paused", "accepted", "lapsed", "declined", "withdrawn", "expired", "completed"] as const) {
      expect(sellerStanding(status, null).label.length).toBeGreaterThan(0);
    }
    expect(sellerStanding("paused", null).label).toBe("Paused");
  });
});
