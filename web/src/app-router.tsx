// The app's router and provider tree, shared by the browser entry (main.tsx) and the build-time prerenderer
// (prerender.tsx), so a prerendered page and the app that replaces it are built the same way.
import type { QueryClient } from "@tanstack/react-query";
import { QueryClientProvider } from "@tanstack/react-query";
import { createRouter, type RouterHistory, RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { NotFound } from "./components/NotFound";
import { parseAppSearch, stringifyAppSearch } from "./server-rendered/url-search";
import { routeTree } from "./routeTree.gen";

export function createAppRouter(queryClient: QueryClient, opts: { history?: RouterHistory; prerender?: boolean } = {}) {
  return createRouter({
    routeTree,
    context: { queryClient },
    history: opts.history,
    defaultPreload: "intent",
    defaultNotFoundComponent: NotFound,
    // a shared link's `?patternValue=7e8` stays the text "7e8" (server-rendered/url-search.ts)
    parseSearch: parseAppSearch,
    stringifySearch: stringifyAppSearch,
    // Scroll restoration is the browser's business; prerendered with it on, the router would write an inline
    // script into the page (which the CSP refuses) that the browser's tree does not have.
    scrollRestoration: !opts.prerender,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter;
  }
}

export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>
  );
}
