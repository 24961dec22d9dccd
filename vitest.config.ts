import fs from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { configDefaults, defineConfig } from "vitest/config";
import { testPort } from "./scripts/test/ports.ts";
import { NODE_TESTS, TOOLS } from "./scripts/test/tiers.ts";
import { isolatedWranglerConfig } from "./scripts/test/wrangler-config.ts";

// Four projects, in tiers from the inner loop outwards (docs/testing.md#tiers-and-their-durations):
//  - fast:   pure functions (schema/, worker/domain, web display rules, scripts) in plain Node, nothing else started
//  - worker: routes and queries inside workerd with a real local D1 (worker/test/**)
//  - chain:  payment verification against a real anvil and the LiteSVM Solana RPC, started by scripts/test/*-global-setup.ts (worker/test-chain/**)
//  - tools:  plain Node tests that start something: a GPU kernel on SwiftShader, tsc, a child process, a server
//            on a port, scrypt, wrangler itself (scripts/test/tiers.ts lists them)

export default defineConfig(async () => {
  // wrangler.toml serves ./dist as assets; worker tests do not need a built SPA, only the folder.
  fs.mkdirSync(path.join(import.meta.dirname, "dist"), { recursive: true });
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  // wrangler.toml copied where no .dev.vars or .env sits beside it: wrangler would read a developer's secrets from
  // the committed file's folder, and no test may depend on them (scripts/test/wrangler-config.ts).
  const wranglerConfig = isolatedWranglerConfig(import.meta.dirname, path.join(import.meta.dirname, "node_modules", ".cache", "vitest-wrangler"));
  const workerProject = (name: string, include: string[], extra: Record<string, unknown> = {}, globalSetup: string[] = [], maxWorkers?: number) => ({
    plugins: [
      cloudflareTest({
        main: "./worker/index.ts",
        wrangler: { configPath: wranglerConfig },
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
      maxWorkers,
      deps: { optimizer: { ssr: { enabled: true, include: ["@solana/web3.js"] } } },
    },
  });
  return {
    test: {
      // After every run, the ten slowest files (scripts/test/slowest-files.ts).
      reporters: ["default", "./scripts/test/slowest-files.ts"],
      // Every core: vitest's default leaves one free (one file at a time on a 2-core machine), while a workerd test
      // file spends much of its time waiting on its runtime and D1, so two at once use the machine (docs/testing.md).
      maxWorkers: availableParallelism(),
      projects: [
        {
          test: {
            name: "fast",
            environment: "node",
            // A hang guard, not a speed check (speed lives in the benchmarks): some build large samples.
            testTimeout: 30_000,
            include: NODE_TESTS,
            exclude: [...configDefaults.exclude, ...TOOLS],
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
          // one file at a time: the files share one anvil and one LiteSVM node, their dev accounts and nonces
          1,
        ),
        {
          test: {
            name: "tools",
            environment: "node",
            // A hang guard, not a speed check: a kernel compile or a tsc run takes minutes on a loaded machine.
            testTimeout: 30_000,
            include: TOOLS,
          },
        },
      ],
    },
  };
});
