// A node on another chain must not confirm payments ("nothing checks that the node's chain id is ETH_CHAIN_ID"): the payment routes ask the real
// nodes what they are (anvil's eth_chainId, the local Solana RPC's getGenesisHash) before taking a payment.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app";
import { forgetNodeFacts, nodeFacts, paymentReadiness } from "../deployment/payment-readiness";
import { clientOf } from "../test/client";
import { ethWallet } from "../test/purchase-fixtures";
import { readDeployment } from "../deployment/deployment";

beforeEach(() => forgetNodeFacts());

describe("the nodes answer for themselves", () => {
  it("anvil serves the configured chain and the local Solana RPC is no public cluster: payments ready", async () => {
    const facts = await nodeFacts(env);
    expect(facts.ethChainId).toBe(Number(env.ETH_CHAIN_ID));
    expect(facts.solGenesisHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(await paymentReadiness(readDeployment(env, "localhost"))).toMatchObject({ ok: true, settings: { production: false } });
  });

  it("ETH_CHAIN_ID naming another dev chain than the node's: refused, and the purchase call says which setting", async () => {
    // 1337 is a local chain id too, so nothing but the node's own answer (31337) shows the mistake.
    const wrong = { ...env, ETH_CHAIN_ID: "1337" };
    const check = await paymentReadiness(readDeployment(wrong, "localhost"));
    expect(check.ok).toBe(false);
    // A node that is not the configured chain is not trusted to be local either: the dev accounts are refused too.
    expect(check.ok ? [] : check.problems).toEqual([
      expect.stringMatching(/^ETH_CHAIN_ID is 1337, but the node at ETH_RPC_URL serves chain id 31337/),
      expect.stringMatching(/^PLATFORM_ETH_ADDRESS is public dev account 9/),
      expect.stringMatching(/^ADMIN_WALLETS lists 0xf39F/),
      expect.stringMatching(/^ADMIN_WALLETS lists oeYf/),
    ]);
    const buyer = await ethWallet();
    const res = await clientOf((input, init) => createApp().request(input, init, wrong), buyer).transactions.initiate.$post({
      json: { addressId: 1, buyerId: buyer.address },
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ message: expect.stringContaining("ETH_CHAIN_ID is 1337") });
  });
});
