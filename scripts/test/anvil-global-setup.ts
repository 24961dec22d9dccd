// Starts a real anvil for the chain tests and stops it afterwards. Its port is fixed in vitest.config.ts
// (moved by TEST_PORT_OFFSET, scripts/test/ports.ts) because the Worker bindings are set when the config is read.
import { rpcAnswers, startAnvil, waitUntil } from "../stack";
import { testPort } from "./ports";

export const CHAIN_TEST_PORT = testPort(28545);

export default async function setup() {
  const anvil = startAnvil({ port: CHAIN_TEST_PORT, chainId: 31337, silent: true });
  if (!(await waitUntil(rpcAnswers(`http://127.0.0.1:${CHAIN_TEST_PORT}`), 30_000))) {
    anvil.stop();
    throw new Error(`anvil did not start on port ${CHAIN_TEST_PORT} for the chain tests`);
  }
  return () => anvil.stop();
}
