import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { startSolanaRpc } from "../scripts/solana-rpc/server";
import { applyLocalMigrations, buildWeb, type Child, httpOk, rpcAnswers, seedLocal, startAnvil, startWorker, waitUntil } from "../scripts/stack";
import { testPort } from "../scripts/test/ports";
import { SOLANA_ADMIN_SEED, solanaTestKey } from "./wallets/wallet-standard";

export const E2E_PORT = testPort(8790);
export const E2E_CHAIN_PORT = testPort(18545);
export const E2E_SOLANA_PORT = testPort(18899);

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    rpcUrl: string;
    /** The e2e run's LiteSVM Solana JSON-RPC. */
    solRpcUrl: string;
    /** The e2e run's wrangler state directory, so tests can write rows into its D1 (e2e/listings-db.ts). */
    persistTo: string;
  }
}

// The Worker's secrets for this run; the seed step seals the demo keys under the same one.
const E2E_SECRETS = {
  KEY_ENCRYPTION_SECRET: "e2e-key-encryption-secret-0123456789abcdef",
  SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
};

export default async function setup(project: TestProject) {
  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "vanity-e2e-"));
  const children: Pick<Child, "stop">[] = [];
  const teardown = () => {
    for (const child of children) child.stop();
    fs.rmSync(persistTo, { recursive: true, force: true });
  };
  try {
    await startStack(project, persistTo, children);
  } catch (err) {
    teardown();
    throw err;
  }
  return teardown;
}

async function startStack(project: TestProject, persistTo: string, children: Pick<Child, "stop">[]) {
  buildWeb(true);
  applyLocalMigrations(persistTo, true);
  seedLocal(persistTo, true, E2E_SECRETS);
  const rpcUrl = `http://127.0.0.1:${E2E_CHAIN_PORT}`;
  // A block a second, as under npm start, so payments gain depth on their own.
  children.push(startAnvil({ port: E2E_CHAIN_PORT, chainId: 31337, blockTime: 1, silent: true }));
  if (!(await waitUntil(rpcAnswers(rpcUrl), 30_000))) throw new Error("anvil did not start for the e2e run");
  const solana = await startSolanaRpc({ port: E2E_SOLANA_PORT });
  children.push({ stop: () => void solana.stop() });
  children.push(
    startWorker({
      port: E2E_PORT,
      persistTo,
      vars: {
        ETH_RPC_URL: rpcUrl,
        SOL_RPC_URL: solana.url,
        // Sign-in messages name the site the browser opens (the baseUrl below).
        SITE_ORIGIN: `http://127.0.0.1:${E2E_PORT}`,
        // wrangler.toml's admin (anvil account 0) plus the test Solana wallet, so both "Admin (ETH)" and
        // "Admin (SOL)" can be seen.
        ADMIN_WALLETS: `${DEV_ACCOUNTS.admin.address},${solanaTestKey(SOLANA_ADMIN_SEED).address}`,
        ...E2E_SECRETS,
      },
    }),
  );
  const baseUrl = `http://127.0.0.1:${E2E_PORT}`;
  if (!(await waitUntil(httpOk(`${baseUrl}/api/health`), 90_000))) throw new Error("wrangler dev did not become healthy for the e2e run");
  project.provide("baseUrl", baseUrl);
  project.provide("rpcUrl", rpcUrl);
  project.provide("solRpcUrl", solana.url);
  project.provide("persistTo", persistTo);
}
