import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

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
  ],
  build: {
    outDir: "../dist",
    emptyOutDir: true,
    sourcemap: false,
    // scripts/check.ts reads the manifest to size what the home route loads.
    manifest: true,
  },
  server: {
    proxy: { "/api": "http://127.0.0.1:8787" },
  },
});
