import fs from "node:fs";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { testPort } from "./scripts/test/ports";

// Three projects, split the way the code is:
//  - unit:   pure functions (schema/, worker/domain, web display rules, scripts) in plain Node
//  - worker: routes and queries inside workerd with a real local D1 (worker/test/**)
//  - chain:  payment verification against a real anvil and the LiteSVM Solana RPC, started by scripts/test/*-global-setup.ts (worker/test-chain/**)
export default defineConfig(async () => {
  // wrangler.toml serves ./dist as assets; worker tests do not need a built SPA, only the folder.
  fs.mkdirSync(path.join(import.meta.dirname, "dist"), { recursive: true });
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  const workerProject = (name: string, include: string[], extra: Record<string, unknown> = {}, globalSetup: string[] = []) => ({
    plugins: [
      cloudflareTest({
        main: "./worker/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            KEY_ENCRYPTION_SECRET: "test-key-encryption-secret-0123456789abcdef",
            SESSION_SECRET: "test-session-secret-0123456789abcdef",
            // The tests call the Worker as http://localhost (worker/test/helpers.ts).
            SITE_ORIGIN: "http://localhost",
            // Every request reads the listings version, so tests that write and then read never see the edge
            // cache's production staleness window (edge-cache.test.ts measures that one explicitly).
            LISTINGS_VERSION_TTL_MS: "0",
            // Rate limits count per day here, not per minute: a test that fills a window never straddles two, so
            // none waits for a fresh one (worker/test/helpers.ts inFreshRateWindow; worker/http/rate-limit.ts).
            RATE_LIMIT_WINDOW_MS: "86400000",
            ...extra,
          },
        },
      }),
    ],
    test: {
      name,
      include,
      setupFiles: ["./worker/test/apply-migrations.ts"],
      // A hang guard, not a speed check.
      testTimeout: 60_000,
      globalSetup,
      deps: { optimizer: { ssr: { enabled: true, include: ["@solana/web3.js"] } } },
    },
  });
  return {
    test: {
      projects: [
        {
          test: {
            name: "unit",
            environment: "node",
            // Some unit tests spawn node or build large samples; on a loaded 2-core machine 5 s is not enough.
            // A hang guard, not a speed check (speed lives in the benchmarks).
            testTimeout: 30_000,
            include: [
              "schema/**/*.test.ts",
              "worker/domain/**/*.test.ts",
              "worker/deployment/**/*.test.ts",
              "worker/jobs/**/*.test.ts",
              "worker/chain/**/*.test.ts",
              "worker/auth/**/*.test.ts",
              "web/src/**/*.test.{ts,tsx}",
              "scripts/**/*.test.ts",
            ],
          },
        },
        // No chain node here (a dead port, refused at once): routes must cope with the node being down, and a
        // developer's own anvil on 8545 must not leak into these tests.
        workerProject("worker", ["worker/test/**/*.test.ts"], { ETH_RPC_URL: "http://127.0.0.1:9", SOL_RPC_URL: "http://127.0.0.1:9" }),
        // anvil and the LiteSVM Solana RPC are started by the global setups on fixed ports (scripts/test/ports.ts).
        workerProject(
          "chain",
          ["worker/test-chain/**/*.test.ts"],
          // ALERT_RECEIVER_URL: the alert webhook's local receiver (scripts/test/webhook-global-setup.ts).
          {
            ETH_RPC_URL: `http://127.0.0.1:${testPort(28545)}`,
            SOL_RPC_URL: `http://127.0.0.1:${testPort(28899)}`,
            ALERT_RECEIVER_URL: `http://127.0.0.1:${testPort(28990)}`,
          },
          ["./scripts/test/anvil-global-setup.ts", "./scripts/test/solana-global-setup.ts", "./scripts/test/webhook-global-setup.ts"],
        ),
      ],
    },
  };
});
