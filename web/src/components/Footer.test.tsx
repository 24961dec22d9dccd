import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Footer } from "./Footer";
import { FOOTER_LINKS } from "./nav";

async function renderFooter() {
  const router = createRouter({ routeTree: createRootRoute({ component: Footer }), history: createMemoryHistory({ initialEntries: ["/"] }) });
  await router.load();
  return renderToString(<RouterProvider router={router} />);
}

describe("Footer", () => {
  it("links Activity and Grind, as real links (keyboard reachable) to their pages", async () => {
    const html = await renderFooter();
    expect(html).toMatch(/<a[^>]*href="\/activity"[^>]*>Activity<\/a>/);
    expect(html).toMatch(/<a[^>]*href="\/grind"[^>]*>Grind<\/a>/);
    expect(html).not.toMatch(/tabindex="-1"/);
  });

  it("one list that wraps, so every link stays on screen at 390 px", async () => {
    const html = await renderFooter();
    expect(html).toMatch(/<nav aria-label="Footer"><ul class="[^"]*flex-wrap[^"]*">/);
    expect(html.match(/<li>/g)).toHaveLength(FOOTER_LINKS.length);
  });
});
