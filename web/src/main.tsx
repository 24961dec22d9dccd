import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { createQueryClient } from "./api/query-client";
import { firstReadsSettled, holdReads, releaseReads } from "./api/reads-after-hydration";
import { App, createAppRouter } from "./app-router";
import "./styles.css";
import { startEvmDiscovery } from "./wallet/evm-discovery";

// Wallet extensions announce themselves at any time during the page's life: listen from the start.
startEvmDiscovery();

// The local demo's dev wallets (web/src/wallet/dev): built in only by npm start, offered only when the
// Worker says both chains are local. A production build has neither the flag nor the module.
if (import.meta.env.VITE_LOCAL_DEV_WALLETS === "true") {
  void fetch("/api/config")
    .then((res) => res.json() as Promise<{ localDevWallets?: boolean }>)
    .then((config) => (config.localDevWallets ? import("./wallet/dev").then((dev) => dev.installDevWallets()) : undefined))
    .catch(() => undefined);
}

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);
const container = document.getElementById("root")!;

/**
 * Prerendered pages whose main content is their data (the listing: its address is the largest thing on the
 * screen). Their HTML is the frame and placeholders; hydrating that and then filling it in would put the
 * content behind two passes of React, so they render afresh, in one pass, once the reads their loader started
 * have answered (the Link preload headers started those with the HTML, so this rarely waits).
 */
const RENDER_WITH_FIRST_READS = new Set(["/address/$id"]);
/** The longest the listing page waits for its first reads before it renders its placeholders instead. */
const FIRST_READS_WAIT_MS = 3000;

/**
 * A landing page arrives prerendered (scripts/build/prerender.ts) for its route with no query string. Its
 * tree is hydrated (kept, made live) when this URL is what was rendered; otherwise the app renders afresh.
 */
async function start() {
  const prerendered = container.dataset.prerenderedRoute;
  const app = <App router={router} queryClient={queryClient} />;
  if (!prerendered) return createRoot(container).render(app);
  const hydrate = !RENDER_WITH_FIRST_READS.has(prerendered);
  if (hydrate) holdReads();
  // The route's code must be loaded before hydrating, or React would find a placeholder where the HTML has
  // the page.
  await router.load();
  if (!hydrate || router.state.matches.at(-1)?.routeId !== prerendered || window.location.search !== "") {
    releaseReads();
    if (!hydrate) await firstReadsSettled(queryClient, FIRST_READS_WAIT_MS);
    container.replaceChildren();
    const root = createRoot(container);
    // In a transition, the first render yields to the browser between components instead of one long task.
    return startTransition(() => root.render(app));
  }
  // Tells the router this page came from its server render: the router then renders its matches without the
  // extra root Suspense boundary the server output does not have, and does not load the route again.
  router.ssr = { manifest: undefined };
  // Leaving before the page's content hydrated (a header link) must not leave the next page's reads held.
  router.subscribe("onBeforeNavigate", releaseReads);
  // In a transition, hydration yields to the browser between components instead of one long task.
  startTransition(() => {
    hydrateRoot(container, app, {
      onRecoverableError: (error, info) => console.error("Hydration:", error instanceof Error ? error.message : error, info.componentStack),
    });
  });
}

void start();
