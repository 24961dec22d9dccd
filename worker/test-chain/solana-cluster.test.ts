// SOL_CLUSTER is checked against the node's genesis hash when verifying, not only when a payment route or the
// cron job starts (docs/production-settings.md#the-solana-cluster): nothing in a Solana transaction names its
// cluster, so a payment is read only from a node that has shown it serves the configured one. Against the
// LiteSVM RPC, whose genesis hash is its own (a localnet).
import { Keypair } from "@solana/web3.js";
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { paymentVerifier } from "../chain/payment-verifier";
import { EMPTY_CURSOR } from "../domain/reconciliation";
import { forgetNodeFacts } from "../deployment/payment-readiness";
import { fundedKeypair, sendInstructions, transferToPlatform } from "./solana-helpers";
import { readDeployment } from "../deployment/deployment";

let restoreFetch: (() => void) | null = null;
/** The node stops answering getGenesisHash (an error), and nothing else changes. */
function genesisUnanswered() {
  const original = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.url.startsWith(env.SOL_RPC_URL!)) {
      const body = (await request.clone().json()) as { method?: string };
      if (body.method === "getGenesisHash") return Response.json({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "internal error" } });
    }
    return original(request);
  }) as typeof fetch;
  restoreFetch = () => (globalThis.fetch = original);
}

/** A scan that has read nothing yet. */
const EMPTY_SCAN = { nextBlock: null, lastSignature: null };

beforeEach(() => forgetNodeFacts());
afterEach(() => {
  restoreFetch?.();
  restoreFetch = null;
});

async function payment() {
  const payer = await fundedKeypair();
  const reference = Keypair.generate().publicKey.toBase58();
  const signature = await sendInstructions([payer], transferToPlatform(payer, 250_000_000n, [reference]));
  return { signature, expect: { buyer: payer.publicKey.toBase58(), reference } };
}

describe("the Solana verifier reads payments only from a node that serves SOL_CLUSTER", () => {
  it("localnet, as the LiteSVM node is: the payment is found", async () => {
    const { signature, expect: wanted } = await payment();
    expect(await paymentVerifier(readDeployment(env), "solana", null).inspect(signature, wanted)).toMatchObject({
      kind: "found",
      amount: 250_000_000n,
      carriesReference: true,
    });
  });

  it("SOL_CLUSTER devnet or mainnet-beta on this node: the payment, its receipt, the scan and the reconciliation read as an unavailable node", async () => {
    const { signature, expect: wanted } = await payment();
    for (const cluster of ["devnet", "mainnet-beta", "", "Localnet"]) {
      const verifier = paymentVerifier(readDeployment({ ...env, SOL_CLUSTER: cluster }), "solana", null);
      expect(await verifier.inspect(signature, wanted), cluster).toEqual({ kind: "unavailable" });
      expect(await verifier.received(signature), cluster).toEqual({ kind: "unavailable" });
      expect(await verifier.scanTransfers(EMPTY_SCAN, { limit: 100, startAt: null }), cluster).toBeNull();
      expect(await verifier.chainPosition(), cluster).toBeNull();
      expect(await verifier.reconcile(EMPTY_CURSOR, { limit: 10 }), cluster).toBeNull();
    }
    // The same verifier settings with the right cluster find it.
    const window = await paymentVerifier(readDeployment(env), "solana", null).scanTransfers(EMPTY_SCAN, { limit: 100, startAt: null });
    expect(window?.transfers.map((transfer) => transfer.hash)).toContain(signature);
  });

  it("a node that has not said which cluster it serves is not read either, until it does", async () => {
    const { signature, expect: wanted } = await payment();
    genesisUnanswered();
    expect(await paymentVerifier(readDeployment(env), "solana", null).inspect(signature, wanted)).toEqual({ kind: "unavailable" });
    restoreFetch?.();
    restoreFetch = null;
    // An unanswered question is asked again after 30 s; a fresh isolate asks at once.
    forgetNodeFacts();
    expect(await paymentVerifier(readDeployment(env), "solana", null).inspect(signature, wanted)).toMatchObject({ kind: "found" });
  });
});
