import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, HeadContent, Outlet } from "@tanstack/react-router";
import { lazy, Suspense, startTransition, useEffect, useState } from "react";
import { Footer } from "../components/Footer";
import { Header } from "../components/Header";
import { NotFound } from "../components/NotFound";
import { pageTitle } from "../server-rendered/page-title";

// The toast region (Radix) loads beside the first render rather than before it: no page needs it to paint,
// and a toast raised meanwhile waits in the store (toast-store.ts) until the region mounts.
const Toaster = lazy(() => import("../components/Toaster").then((m) => ({ default: m.Toaster })));

export type RouterContext = { queryClient: QueryClient };

export const Route = createRootRouteWithContext<RouterContext>()({
  head: () => pageTitle(),
  component: RootLayout,
  notFoundComponent: NotFound,
});

function RootLayout() {
  return (
    <>
      <HeadContent />
      <div className="flex min-h-screen flex-col">
        <Header />
        {/* Between the header and the page: on a phone the toasts sit here, in the page's flow (Toaster.tsx). */}
        <ToastRegion />
        <main className="flex-1">
          <Outlet />
        </main>
        <Footer />
      </div>
    </>
  );
}

/**
 * Mounts after the first commit only: the prerenderer cannot wait for the lazy region, and no page needs it to
 * paint. Its own component, so mounting it re-renders only itself and not the page; in a transition, so the
 * render yields to the browser.
 */
function ToastRegion() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => startTransition(() => setMounted(true)), []);
  return mounted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
