import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { chunkGroups } from "./scripts/build/chunk-groups.ts";
import { paintFirst } from "./scripts/build/paint-first.ts";
import { prerender } from "./scripts/build/prerender.ts";
import { routePreload } from "./scripts/build/route-preload.ts";
import { marketplaceFirstReads, parseMarketSearch } from "./web/src/server-rendered/marketplace-search.ts";

// A landing page's scripts in a few files: the start's three steps (web/src/main.tsx) and one chunk of what the
// landing routes share, beside each route's own (scripts/build/chunk-groups.ts).
const LANDING_ROUTES = ["src/routes/index.tsx", "src/routes/marketplace.tsx", "src/routes/address.$id.tsx"];
const chunks = chunkGroups({
  entry: "web/src/main.tsx",
  steps: ["react-dom/client.js", "web/src/boot/libraries.ts", "web/src/app-start.ts"],
  landingRoutes: LANDING_ROUTES,
});

// The SPA lives in web/ and builds into dist/, which wrangler serves as static assets.
export default defineConfig({
  root: "web",
  publicDir: "public",
  plugins: [
    tanstackRouter({
      target: "react",
      routesDirectory: "./src/routes",
      generatedRouteTree: "./src/routeTree.gen.ts",
      autoCodeSplitting: true,
    }),
    react(),
    tailwindcss(),
    chunks.plugin,
    // The reads each landing page makes on first render (a visitor without a stored wallet).
    routePreload([
      { path: "/", routeSource: "src/routes/index.tsx", fetches: ["/api/addresses/featured", "/api/market-stats", "/api/transactions/recent"] },
      // A filtered /marketplace gets the reads of its own filters from the Worker (worker/landing/pages.ts).
      { path: "/marketplace", routeSource: "src/routes/marketplace.tsx", fetches: marketplaceFirstReads(parseMarketSearch({})) },
      { path: "/address/:id", routeSource: "src/routes/address.$id.tsx", fetches: ["/api/addresses/:id", "/api/addresses/:id/context"] },
    ]),
    // Every page paints before the app's entry is evaluated: a small boot script starts it after the first paint.
    paintFirst("web/src/boot/start-after-paint.ts"),
    // Landing pages as HTML that paints before any script runs. /marketplace is served as marketplace.html by
    // the assets; the Worker serves `/` and /address/{id} from prerendered/ (worker/landing/pages.ts), because
    // index.html must stay the empty shell every other path falls back to.
    prerender([
      { url: "/", file: "prerendered/home.html", routeSource: "src/routes/index.tsx" },
      { url: "/marketplace", file: "marketplace.html", routeSource: "src/routes/marketplace.tsx" },
      // The listing page before its listing loads; the same shell serves every id.
      { url: "/address/0", file: "prerendered/listing.html", routeSource: "src/routes/address.$id.tsx" },
    ]),
  ],
  build: {
    outDir: "../dist",
    emptyOutDir: true,
    sourcemap: false,
    // One stylesheet for the whole app, linked in <head> by index.html and the prerendered pages: every page has
    // it before it paints. Split per chunk, Vite's helper for lazy imports also asked for a sheet with each route
    // chunk, and a prerendered page then parsed it again and recomputed its whole style while the app rendered
    // (15-55 ms at 4x CPU).
    cssCodeSplit: false,
    // scripts/check.ts reads the manifest to size what the home route loads.
    manifest: true,
    rolldownOptions: { output: { codeSplitting: chunks.codeSplitting } },
  },
  server: {
    proxy: { "/api": "http://127.0.0.1:8787" },
  },
});
