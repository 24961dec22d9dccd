// The unit tests Stryker runs for `npm run test:mutation`: only the money rules' own tests, in plain Node
// (the worker and chain projects need workerd and anvil, which mutation runs must not start per mutant). The
// tests of the node reads start their own small JSON-RPC nodes on 127.0.0.1 (scripts/test/json-rpc-node.ts).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    include: [
      "worker/domain/payment-decision.test.ts",
      "worker/domain/node-errors.test.ts",
      "schema/payment-hash.test.ts",
      "worker/domain/reconciliation.test.ts",
      "schema/money.test.ts",
      "worker/domain/fees.test.ts",
      "worker/domain/prices.test.ts",
      "worker/deployment/payment-rules.test.ts",
      "worker/deployment/solana-cluster.test.ts",
      "worker/deployment/local-mode.test.ts",
      "worker/deployment/rpc-nodes.test.ts",
      "worker/domain/dust.test.ts",
      "worker/auth/siwe.test.ts",
      "worker/auth/siws.test.ts",
      "worker/auth/roles.test.ts",
      "worker/auth/sign-in-grammar.test.ts",
      "worker/chain/contract-signature.test.ts",
      "worker/chain/node-reads.test.ts",
      "worker/chain/quorum-verifier.test.ts",
      "worker/chain/solana-transfer.test.ts",
    ],
  },
});
