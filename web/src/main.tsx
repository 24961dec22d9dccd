import { startTransition } from "react";
import type { MarketConfig } from "./api/market";
import "./styles.css";
import { startEvmDiscovery } from "./wallet/evm-discovery";

// Wallet extensions announce themselves at any time during the page's life: listen from the start.
startEvmDiscovery();

// The local demo's dev wallets (web/src/wallet/dev): built in only by npm start, offered only when the
// Worker says both chains are local. A production build has neither the flag nor the module. A plain fetch, not
// the API client: the client would add to the page's first script, which paints the page.
if (import.meta.env.VITE_LOCAL_DEV_WALLETS === "true") {
  void fetch("/api/config")
    .then((res) => res.json() as Promise<MarketConfig>)
    .then((config) => (config.localDevWallets ? import("./wallet/dev").then((dev) => dev.installDevWallets()) : undefined))
    .catch(() => undefined);
}

const container = document.getElementById("root")!;

/** The longest a prerendered page waits for its first reads before the app renders its placeholders instead. */
const FIRST_READS_WAIT_MS = 3000;

/**
 * Lets the browser handle input and paint before the next step of starting the app, so the start is a few short
 * tasks instead of one long one (on a slow phone, a tap during a long task waits for its end).
 */
const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

/**
 * The app starts in steps, each its own task: React DOM's modules are evaluated, then the router's and the data
 * layer's (web/src/boot/libraries.ts), then the browser history is made, then the app's modules (routes, the
 * shared layout) are evaluated, then the router is built, then it loads the route. They are dynamic imports for
 * that reason only; the build hints all of them with the HTML (scripts/build/paint-first.ts), so none waits
 * for the network.
 *
 * A landing page arrives prerendered (scripts/build/prerender.ts): its HTML is on screen before this runs.
 * The app then renders afresh rather than hydrating it, once the reads the route's loader started have
 * answered: a prerendered page is rendered before any read answers, and reads that answer while React
 * hydrates (it hydrates the router's Suspense boundary late, at low priority) make the trees differ, which
 * React reports as an error and repairs with a second render. Rendering once, with the first answers in,
 * replaces the placeholders in one step; the header and headings render exactly as the HTML had them.
 */
async function start() {
  const { createRoot } = await import("react-dom/client");
  await nextTask();
  const { createBrowserHistory } = await import("./boot/libraries");
  await nextTask();
  // The browser history on its own: it reads and rewrites the history entry's state and listens for navigation,
  // a few ms of the browser's own work that made building the router one of the start's longest tasks.
  const history = createBrowserHistory();
  await nextTask();
  const { App, createAppRouter, createQueryClient, firstReadsSettled, seedEmbeddedListing } = await import("./app-start");
  await nextTask();
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, { history });
  seedEmbeddedListing(queryClient);
  const app = <App router={router} queryClient={queryClient} />;
  if (!container.dataset.prerenderedRoute) return createRoot(container).render(app);
  await nextTask();
  await router.load();
  await firstReadsSettled(queryClient, FIRST_READS_WAIT_MS);
  // The prerendered HTML stays on screen while React renders: React clears a root's container in the commit
  // that first fills it, so the page goes from HTML to app in one frame, laid out once.
  const root = createRoot(container);
  // In a transition, the first render yields to the browser between components instead of one long task.
  startTransition(() => root.render(app));
}

// The boot script (web/src/boot/start-after-paint.ts) reloads the page once when a start fails. Not a top-level
// await: with one, the bundler splits the start's chunks in two (more requests, 1.3 KB more on the home page).
start().then(
  () => dispatchEvent(new Event("app-started")),
  (err: unknown) => dispatchEvent(new CustomEvent("app-start-failed", { detail: err })),
);
