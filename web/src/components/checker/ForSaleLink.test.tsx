import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ForSaleLink } from "./CheckResultPanel";

describe("ForSaleLink: the checker links to the listing of an address for sale", () => {
  it("says it is for sale, at what price, and links to /address/{id}", async () => {
    const router = createRouter({
      routeTree: createRootRoute({ component: () => <ForSaleLink listing={{ id: 42, price: "0.25000000", currency: "ETH" }} /> }),
      history: createMemoryHistory(),
    });
    await router.load();
    const html = renderToString(<RouterProvider router={router} />);
    expect(html.replace(/<!--.*?-->/g, "").replace(/<[^>]+>/g, "")).toContain("This address is for sale here at 0.25 ETH. See the listing");
    expect(html).toMatch(/<a [^>]*href="\/address\/42"[^>]*>See the listing<\/a>/);
  });
});
