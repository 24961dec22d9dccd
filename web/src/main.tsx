import { startTransition } from "react";
import { createRoot } from "react-dom/client";
import { createQueryClient } from "./api/query-client";
import { firstReadsSettled } from "./api/first-reads";
import { seedEmbeddedListing } from "./api/embedded-listing";
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

/** The longest a prerendered page waits for its first reads before the app renders its placeholders instead. */
const FIRST_READS_WAIT_MS = 3000;

/**
 * A landing page arrives prerendered (scripts/build/prerender.ts): its HTML is on screen before this runs.
 * The app then renders afresh rather than hydrating it, once the reads the route's loader started have
 * answered: a prerendered page is rendered before any read answers, and reads that answer while React
 * hydrates (it hydrates the router's Suspense boundary late, at low priority) make the trees differ, which
 * React reports as an error and repairs with a second render. Rendering once, with the first answers in,
 * replaces the placeholders in one step; the header and headings render exactly as the HTML had them.
 */
async function start() {
  seedEmbeddedListing(queryClient);
  const app = <App router={router} queryClient={queryClient} />;
  if (!container.dataset.prerenderedRoute) return createRoot(container).render(app);
  await router.load();
  await firstReadsSettled(queryClient, FIRST_READS_WAIT_MS);
  container.replaceChildren();
  const root = createRoot(container);
  // In a transition, the first render yields to the browser between components instead of one long task.
  startTransition(() => root.render(app));
}

void start();
