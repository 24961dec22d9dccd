// Build-time rendering of the pages a buyer lands on (paint meaningful content before any
// JavaScript runs). scripts/build/prerender.ts builds this module for Node and writes each page's HTML; the
// browser entry (main.tsx) then renders the app over it. Pages render as they look before any API read
// answers: the header, headings, search box, filters and same-size placeholders, which the app's render
// reproduces in the same places.
import { onlineManager } from "@tanstack/react-query";
import { createMemoryHistory } from "@tanstack/react-router";
import { renderToString } from "react-dom/server";
import { createQueryClient } from "./api/query-client";
import { App, createAppRouter } from "./app-router";

export type PrerenderedPage = { html: string; routeId: string };

export async function renderPage(url: string): Promise<PrerenderedPage> {
  // Reads stay paused, never sent: the page renders in its "not read yet" state.
  onlineManager.setOnline(false);
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, { history: createMemoryHistory({ initialEntries: [url] }), prerender: true });
  try {
    await router.load();
    const routeId = router.state.matches.at(-1)?.routeId;
    const loaded = router.state.matches.every((m) => m.status === "success");
    if (!routeId || !loaded) throw new Error(`prerender: ${url} did not load (${router.state.matches.map((m) => `${m.routeId}:${m.status}`).join(", ")})`);
    return { html: renderToString(<App router={router} queryClient={queryClient} />), routeId };
  } finally {
    // The loaders' paused reads hold garbage-collection timers that would keep the build alive.
    queryClient.clear();
  }
}
