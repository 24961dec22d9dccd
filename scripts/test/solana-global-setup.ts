// Starts the LiteSVM-backed Solana JSON-RPC for the chain tests and stops it afterwards. Its port is fixed in
// vitest.config.ts (SOL_RPC_URL of the chain project) because the Worker bindings are set when the config is
// read. Slots advance every 400 ms; a test that needs "finalized" sooner calls `localnet_advanceSlots`.
import { startSolanaRpc } from "../solana-rpc/server";
import { testPort } from "./ports";

export const CHAIN_TEST_SOLANA_PORT = testPort(28899);

export default async function setup() {
  const rpc = await startSolanaRpc({ port: CHAIN_TEST_SOLANA_PORT }).catch((err: NodeJS.ErrnoException) => {
    throw new Error(
      err.code === "EADDRINUSE"
        ? `port ${CHAIN_TEST_SOLANA_PORT} is busy: another chain test run? (run them under flock /tmp/stack.lock)`
        : `the Solana RPC did not start for the chain tests: ${err.message}`,
    );
  });
  return () => rpc.stop();
}
