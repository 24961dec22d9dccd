// Which plain-Node test files are the fast tier and which the tools tier (vitest.config.ts;
// docs/testing.md#tiers-and-their-durations). The fast tier is what a developer runs on every change, so it starts
// nothing: a file that compiles GPU kernels, runs tsc, spawns a process, listens on a port, derives scrypt keys or
// loads wrangler belongs in TOOLS, and scripts/test/tiers.test.ts fails on one that is not listed.

/** The plain-Node test files; the fast tier is these less TOOLS. */
export const NODE_TESTS = [
  "schema/**/*.test.ts",
  "worker/domain/**/*.test.ts",
  "worker/deployment/**/*.test.ts",
  "worker/jobs/**/*.test.ts",
  "worker/chain/**/*.test.ts",
  "worker/auth/**/*.test.ts",
  "web/src/**/*.test.{ts,tsx}",
  "scripts/**/*.test.ts",
  "e2e/**/*.test.ts",
];

/** The tools tier: each of these takes seconds to minutes on a loaded 2-core machine. */
export const TOOLS = [
  // WebGPU kernels compiled and run on SwiftShader
  "scripts/grind/gpu-kernels.test.ts",
  "scripts/grind/gpu-grinder.test.ts",
  "scripts/grind/gpu-solana-kernels.test.ts",
  "scripts/grind/gpu-solana-grinder.test.ts",
  // child processes (the grinder's CLI, npm start, keys:rotate, the GPU host's proof check) and tsc on a copy of the tree
  "scripts/grind/cli.test.ts",
  // the grinder's search threads (worker_threads) grinding a short pattern
  "scripts/grind/supply.test.ts",
  "scripts/start.test.ts",
  "scripts/keys-rotate.test.ts",
  "scripts/schema-rename.test.ts",
  "scripts/gpu-host/proof-check.test.ts",
  "web/src/api/route-shape.test.ts",
  // servers on loopback ports
  "scripts/solana-rpc/solana-rpc.test.ts",
  "scripts/soak/fault-proxy.test.ts",
  "scripts/dev-wallets.test.ts",
  // JSON-RPC nodes on loopback ports (scripts/test/json-rpc-node.ts): the sign-in's and the quorum reads' node answers
  "worker/auth/siwe.test.ts",
  "worker/chain/contract-signature.test.ts",
  "worker/chain/node-reads.test.ts",
  // scrypt: geth's published vectors at their real cost, and the custom order's keystore file
  "web/src/payments/keystore.test.ts",
  "web/src/routes/-custom-order/final-key.test.ts",
  // wrangler's own configuration reader
  "scripts/test/wrangler-config.test.ts",
];

/** What a test file that starts something says in its source: the mark of a tools-tier file. */
export const STARTS_SOMETHING =
  /node:child_process|from "webgpu"|testGpu\(|scrypt|createServer|\.listen\(|startSolanaRpc\(|from "wrangler"|startJsonRpcNode\(|deadNodeUrl\(/;
