import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PublicSale } from "../../../../schema/browse";
import { SoldSale } from "./SoldNotice";

const sale: PublicSale = {
  id: "0b6c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d",
  listingId: 7,
  address: "0xdead000000000000000000000000000000000001",
  network: "ethereum",
  price: "1.50000000",
  currency: "ETH",
  rarityScore: "7.8",
  soldOn: "2026-03-05",
};

async function render() {
  const router = createRouter({ routeTree: createRootRoute({ component: () => <SoldSale sale={sale} /> }), history: createMemoryHistory() });
  await router.load();
  return renderToString(<RouterProvider router={router} />);
}

describe("SoldSale: a sold listing says when, for how much, and links to the sale", () => {
  it("the day, the price as the listing shows prices, and /sale/{id}", async () => {
    const html = await render();
    const text = html.replace(/<!--.*?-->/g, "").replace(/<[^>]+>/g, "");
    expect(text).toContain("Sold on March 5, 2026 for 1.5 ETH.");
    expect(html).toContain(`<time dateTime="${sale.soldOn}">`);
    expect(html).toMatch(new RegExp(`<a [^>]*href="/sale/${sale.id}"[^>]*>See the sale</a>`));
  });
});
