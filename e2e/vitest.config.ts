import path from "node:path";
import { defineConfig } from "vitest/config";

// Browser journeys: the global setup starts the whole stack (built SPA, fresh local D1, anvil, wrangler
// dev) on its own ports, then each file drives Debian's chromium through playwright-core.
export default defineConfig({
  test: {
    name: "e2e",
    root: import.meta.dirname,
    include: ["**/*.e2e.ts"],
    globalSetup: ["./global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // In CI a journey that fails is run once more: a browser, a chain and a dev server on a small shared machine
    // fail now and then for reasons outside the code (two such failures cost two landings). The failed attempt
    // still prints what its page went through (browser.ts), and a journey that fails twice fails the run.
    retry: process.env.CI ? 1 : 0,
    // A journey that passed only on its retry is listed as flaky at the end, and more than one fails the run
    // (flaky-journeys.ts): a retry may absorb the machine's noise, not a journey that fails half the time.
    reporters: ["default", path.join(import.meta.dirname, "flaky-journeys.ts")],
  },
});
