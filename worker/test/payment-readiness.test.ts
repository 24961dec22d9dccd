// Production refuses to take payments with dev values. The payment routes answer 503 naming each
// unsafe setting and write nothing; reading a purchase and the key calls stay up; /api/config offers nothing to
// pay; /api/health shows the problems (never an RPC URL); the cron job verifies and settles nothing. The rules
// themselves are unit-tested in worker/deployment/payment-rules.test.ts. Hosted nodes cannot run here: they are
// replaced at the network boundary (fetch) by a stub answering only what a node says about itself.
import { env } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app";
import { paymentVerifier } from "../chain/payment-verifier";
import { solanaCommitment } from "../chain/solana-payments";
import { MAX_CONFIRMATIONS, SOLANA_GENESIS_HASHES } from "../deployment/payment-rules";
import { runScheduledJobs } from "../jobs/scheduled";
import { forgetNodeFacts, paymentReadiness } from "../deployment/payment-readiness";
import { actors, ethWallet, listWithKey, purchaseRow, purchaseState, reserve, solWallet, type Wallet } from "./purchase-fixtures";
import { type Answer, client, clientOf } from "./client";
import { revealSealed } from "./sealed-reveal";
import { readDeployment } from "../deployment/deployment";

const OWN_ETH = "0x52908400098527886E0F7030069857D2E4169EE7";
const OWN_SOL = "GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB";
const ETH_NODE = "https://eth-node.test";
const SOL_NODE = "https://sol-node.test";
const HOSTED = { ETH_RPC_URL: `${ETH_NODE}/v2/SECRET-KEY`, SOL_RPC_URL: `${SOL_NODE}/?api-key=SECRET-KEY` };

/** wrangler.toml's local values pointed at mainnet nodes (docs/production-settings.md). */
const SHIPPED_ON_MAINNET = { ...env, ...HOSTED, ETH_CHAIN_ID: "1", SOL_CLUSTER: "mainnet-beta" };
/** The same with every payment setting done right. */
const MAINNET = {
  ...SHIPPED_ON_MAINNET,
  ETH_CONFIRMATIONS: "12",
  PLATFORM_ETH_ADDRESS: OWN_ETH,
  SOL_COMMITMENT: "finalized",
  PLATFORM_SOL_ADDRESS: OWN_SOL,
  ADMIN_WALLETS: OWN_ETH,
  // Two nodes per chain on different hosts, two of which must agree (docs/payments.md#trust-no-single-node).
  ETH_RPC_URLS: `${HOSTED.ETH_RPC_URL},https://second.eth-node.test/SECRET-KEY`,
  ETH_RPC_QUORUM: "2",
  SOL_RPC_URLS: `${HOSTED.SOL_RPC_URL},https://second.sol-node.test/SECRET-KEY`,
  SOL_RPC_QUORUM: "2",
};

let restoreFetch: (() => void) | null = null;
/** Hosted nodes (any host under eth-node.test or sol-node.test) at the network boundary: `eth_chainId` and `getGenesisHash` only; anything else is a JSON-RPC error. */
function stubNodes(ethChainId: string, solGenesis: string) {
  const original = globalThis.fetch;
  const chainOf = (host: string) => (host.endsWith(new URL(ETH_NODE).hostname) ? "eth" : host.endsWith(new URL(SOL_NODE).hostname) ? "sol" : null);
  const answer = (chain: "eth" | "sol", method: string) =>
    chain === "eth" && method === "eth_chainId" ? ethChainId : chain === "sol" && method === "getGenesisHash" ? solGenesis : undefined;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const chain = chainOf(new URL(request.url).hostname);
    if (!chain) return original(input, init);
    const body = (await request.json()) as { id: number; method: string } | { id: number; method: string }[];
    const one = (b: { id: number; method: string }) => {
      const result = answer(chain, b.method);
      return result === undefined
        ? { jsonrpc: "2.0", id: b.id, error: { code: -32601, message: "not served by this stub" } }
        : { jsonrpc: "2.0", id: b.id, result };
    };
    return Response.json(Array.isArray(body) ? body.map(one) : one(body));
  }) as typeof fetch;
  restoreFetch = () => (globalThis.fetch = original);
}

beforeEach(() => forgetNodeFacts());
afterEach(() => {
  restoreFetch?.();
  restoreFetch = null;
});

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

/** The API on a deployment with these settings, as `wallet`. */
const as = (settings: Record<string, unknown>, wallet?: Wallet) => clientOf((input, init) => createApp().request(input, init, settings), wallet);
/** `buyer` reserves listing `addressId` on a deployment with these settings. */
const initiate = (settings: Record<string, unknown>, buyer: Wallet, addressId: number) =>
  as(settings, buyer).transactions.initiate.$post({ json: { addressId, buyerId: buyer.address } });

async function expectRefused(res: Answer, settings: string[]) {
  expect(res.status).toBe(503);
  const text = await res.text();
  expect(text).not.toContain("SECRET-KEY");
  expect(text).not.toContain("node.test");
  const body = JSON.parse(text) as { error: string; message: string; problems: string[] };
  expect(body.error).toBe("Service Unavailable");
  expect(body.message).toMatch(/^Payments are disabled until the server's payment settings are fixed: /);
  for (const setting of settings)
    expect(
      body.problems.some((p) => p.startsWith(setting)),
      `${setting} in ${body.message}`,
    ).toBe(true);
  return body;
}

describe("the shipped settings on mainnet", () => {
  const unsafe = ["ETH_CONFIRMATIONS", "PLATFORM_ETH_ADDRESS", "SOL_COMMITMENT", "PLATFORM_SOL_ADDRESS", "ADMIN_WALLETS"];

  it("every payment route refuses with 503 naming each setting, and nothing is written", async () => {
    stubNodes("0x1", SOLANA_GENESIS_HASHES["mainnet-beta"]);
    const buyer = await ethWallet();
    const solBuyer = await solWallet();
    const listing = await listWithKey(seller.userId);
    const open = await reserve(buyer, (await listWithKey(seller.userId)).id);
    const solOpen = await reserve(solBuyer, (await listWithKey(seller.userId, { network: "solana" })).id);
    const before = await purchaseState();
    const counters = await env.DB.prepare("SELECT count(*) AS n FROM rate_limits").first();
    const chainAudits = await env.DB.prepare("SELECT count(*) AS n FROM blockchain_transaction_audit").first();
    const body = await expectRefused(await initiate(SHIPPED_ON_MAINNET, buyer, listing.id), unsafe);
    expect(body.message).toMatch(/PLATFORM_ETH_ADDRESS is public dev account 9/);
    expect(body.message).toMatch(/ETH_CONFIRMATIONS is 2 on Ethereum mainnet/);
    const shipped = (wallet: Wallet) => as(SHIPPED_ON_MAINNET, wallet);
    await expectRefused(await shipped(buyer).transactions.$post({ json: { addressId: listing.id, buyerId: buyer.address } }), unsafe);
    await expectRefused(
      await shipped(buyer).transactions[":id"].confirm.$post({
        param: { id: open },
        json: { txHash: `0x${"5".repeat(64)}`, buyerWallet: buyer.address },
      }),
      unsafe,
    );
    await expectRefused(
      await shipped(solBuyer).transactions[":id"]["solana-transaction"].$post({ param: { id: solOpen }, json: { account: solBuyer.address } }),
      unsafe,
    );
    await expectRefused(await shipped(buyer)["custom-orders"][":id"].pay.$post({ param: { id: "1" } }), unsafe);

    expect(await purchaseState()).toBe(before);
    expect((await purchaseRow(open))!.status).toBe("initiated");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM rate_limits").first()).toEqual(counters);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM blockchain_transaction_audit").first()).toEqual(chainAudits);
  }, 30_000);

  it("a public dev wallet is no admin off the local chains, whether listed in ADMIN_WALLETS or marked in its user row", async () => {
    stubNodes("0x1", SOLANA_GENESIS_HASHES["mainnet-beta"]);
    // seller is dev account 0, listed in wrangler.toml's ADMIN_WALLETS; mark its row too.
    await env.DB.prepare("UPDATE users SET is_admin = 1 WHERE id = ?").bind(seller.userId).run();
    expect((await as({ ...env }, seller).admin.payments.attention.$get()).status).toBe(200);
    expect((await as(SHIPPED_ON_MAINNET, seller).admin.payments.attention.$get()).status).toBe(403);
    const status = await as(SHIPPED_ON_MAINNET).users["admin-status"].$get({ query: { walletAddress: seller.address } });
    expect(await status.json()).toMatchObject({ isAdmin: false });
    // Their own wallet, listed, is an admin on mainnet.
    const own = await as({ ...MAINNET, ADMIN_WALLETS: OWN_ETH }).users["admin-status"].$get({ query: { walletAddress: OWN_ETH } });
    expect(await own.json()).toMatchObject({ isAdmin: true });
    await env.DB.prepare("UPDATE users SET is_admin = 0 WHERE id = ?").bind(seller.userId).run();
  });

  it("reading a purchase, cancelling it and the key stay available to the buyer", async () => {
    stubNodes("0x1", SOLANA_GENESIS_HASHES["mainnet-beta"]);
    const buyer = await ethWallet();
    const listing = await listWithKey(seller.userId);
    const id = await reserve(buyer, listing.id);
    const api = as(SHIPPED_ON_MAINNET, buyer);
    const purchase = api.transactions[":id"];
    expect((await purchase.$get({ param: { id } })).status).toBe(200);
    await env.DB.prepare("UPDATE transactions SET status = 'completed', tx_hash = ?, completed_at = ? WHERE id = ?")
      .bind(`0x${"6".repeat(63)}${Date.now() % 10}`, Date.now(), id)
      .run();
    const reveal = await revealSealed(api, id);
    expect(reveal.status).toBe(200);
    expect(reveal.privateKey).toBe(listing.key.privateKey);
    const other = await reserve(buyer, (await listWithKey(seller.userId)).id);
    expect((await purchase.cancel.$post({ param: { id: other } })).status).toBe(200);
  });

  it("/api/config offers nothing to pay; /api/health says degraded and lists the problems without an RPC URL", async () => {
    stubNodes("0x1", SOLANA_GENESIS_HASHES["mainnet-beta"]);
    const shipped = clientOf((input, init) => createApp().request(input, init, SHIPPED_ON_MAINNET));
    const config = await (await shipped.config.$get()).json();
    expect(config).not.toHaveProperty("payments");
    expect(config).toMatchObject({ ethChainId: 1, solCluster: "mainnet-beta" });

    // Browsing still works, so the site stays up (200) for a load balancer; payments are what is refused.
    const health = await shipped.health.$get();
    expect(health.status).toBe(200);
    const text = await health.text();
    expect(text).not.toContain("SECRET-KEY");
    expect(text).not.toContain("node.test");
    const body = JSON.parse(text) as { status: string; database: string; payments: { ready: boolean; problems: string[] } };
    expect(body).toMatchObject({ status: "degraded", database: "reachable", payments: { ready: false } });
    for (const setting of unsafe)
      expect(
        body.payments.problems.some((p) => p.startsWith(setting)),
        setting,
      ).toBe(true);
  });
});

describe("settings that used to be coerced", () => {
  it("ETH_CONFIRMATIONS missing, even on the local chain, is refused rather than read as 1", async () => {
    const buyer = await ethWallet();
    const listing = await listWithKey(seller.userId);
    const res = await initiate({ ...env, ETH_CONFIRMATIONS: undefined }, buyer, listing.id);
    await expectRefused(res, ["ETH_CONFIRMATIONS"]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM transactions WHERE address_id = ?").bind(listing.id).first()).toEqual({ n: 0 });
  });

  it('SOL_COMMITMENT "processed" is refused rather than read as "confirmed"', async () => {
    const buyer = await solWallet();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { network: "solana" })).id);
    const res = await as({ ...env, SOL_COMMITMENT: "processed" }, buyer).transactions[":id"]["solana-transaction"].$post({
      param: { id },
      json: { account: buyer.address },
    });
    await expectRefused(res, ["SOL_COMMITMENT"]);
  });

  it("an admin cannot mark a refund paid: its chain re-check would ask a node that cannot be trusted", async () => {
    const id = crypto.randomUUID();
    await env.DB.prepare(
      `INSERT INTO escrow_transactions (id, network, amount, currency, sender_address, status, tx_hash, amount_base_units, expected_base_units,
                                        attention_reason, refund_status, refund_base_units, created_at)
       VALUES (?, 'ethereum', '0.4', 'ETH', '0xabc', 'refund', ?, '400000000000000000', '500000000000000000', 'partial', 'needed', '400000000000000000', ?)`,
    )
      .bind(id, `0x${"8".repeat(64)}`, Date.now())
      .run();
    await expectRefused(
      await as({ ...env, ETH_CONFIRMATIONS: "" }, seller).admin.payments[":id"].refund.$post({ param: { id }, json: { refundTxHash: `0x${"9".repeat(64)}` } }),
      ["ETH_CONFIRMATIONS"],
    );
    expect(await env.DB.prepare("SELECT refund_status, release_tx_hash, check_failure FROM escrow_transactions WHERE id = ?").bind(id).first()).toEqual({
      refund_status: "needed",
      release_tx_hash: null,
      check_failure: null,
    });
  });

  it("the cron job verifies and settles nothing while the settings are unsafe, and says why", async () => {
    const buyer = await ethWallet();
    const id = await reserve(buyer, (await listWithKey(seller.userId)).id);
    await client(buyer).transactions[":id"].confirm.$post({
      param: { id },
      json: { txHash: `0x${"7".repeat(64)}`, buyerWallet: buyer.address },
    });
    const audits = () => env.DB.prepare("SELECT count(*) AS n FROM blockchain_transaction_audit WHERE transaction_id = ?").bind(id).first<{ n: number }>();
    const written = await audits();
    const report = await runScheduledJobs({ ...env, ETH_CONFIRMATIONS: "" } as Env);
    expect(report.payments).toMatchObject({ verified: 0, settled: 0, foundByScan: 0 });
    expect(report.reconciliation).toEqual({ ethereum: null, solana: null });
    expect(report.errors.some((e) => /^payments: skipped, unsafe payment settings: ETH_CONFIRMATIONS/.test(e))).toBe(true);
    expect(await audits()).toEqual(written);
    // With the local settings the same purchase is checked again.
    expect((await runScheduledJobs(env)).payments.verified).toBeGreaterThanOrEqual(1);
  });
});

describe("a verifier made while a setting is unreadable (a purchase page's view)", () => {
  it("reads the depth as the deepest allowed and the commitment as finalized, never a shallow default", () => {
    expect(paymentVerifier(readDeployment({ ...env, ETH_CONFIRMATIONS: "" }), "ethereum", null).requiredConfirmations).toBe(MAX_CONFIRMATIONS);
    expect(paymentVerifier(readDeployment({ ...env, ETH_CONFIRMATIONS: "0" }), "ethereum", null).requiredConfirmations).toBe(MAX_CONFIRMATIONS);
    expect(paymentVerifier(readDeployment(env), "ethereum", null).requiredConfirmations).toBe(Number(env.ETH_CONFIRMATIONS));
    expect(solanaCommitment("processed")).toBe("finalized");
    expect(solanaCommitment(undefined)).toBe("finalized");
    expect(solanaCommitment(" confirmed ")).toBe("confirmed");
  });
});

describe("the node must be the configured chain", () => {
  it("an Ethereum node serving Sepolia under ETH_CHAIN_ID 1: payment routes refuse, naming ETH_CHAIN_ID", async () => {
    stubNodes("0xaa36a7", SOLANA_GENESIS_HASHES["mainnet-beta"]);
    const buyer = await ethWallet();
    const listing = await listWithKey(seller.userId);
    const body = await expectRefused(await initiate(MAINNET, buyer, listing.id), ["ETH_CHAIN_ID"]);
    expect(body.problems).toEqual([expect.stringMatching(/^ETH_CHAIN_ID is 1, but the node at ETH_RPC_URL serves chain id 11155111/)]);
  });

  it("a Solana node whose genesis is mainnet's is mainnet, whatever SOL_CLUSTER and its URL say: refused, and finalized required", async () => {
    stubNodes("0xaa36a7", SOLANA_GENESIS_HASHES["mainnet-beta"]);
    const staging = { ...MAINNET, ETH_CHAIN_ID: "11155111", ETH_CONFIRMATIONS: "1" };
    const named = {
      ...staging,
      SOL_RPC_URLS: "https://devnet-gateway.sol-node.test,https://devnet-2.sol-node.test",
      SOL_CLUSTER: "devnet",
      SOL_COMMITMENT: "confirmed",
    };
    const check = await paymentReadiness(readDeployment(named, null));
    expect(check).toEqual({
      ok: false,
      problems: [
        expect.stringMatching(/^SOL_CLUSTER is "devnet", but the node at SOL_RPC_URL serves mainnet-beta/),
        expect.stringMatching(/^SOL_COMMITMENT is "confirmed" on Solana mainnet \(the node's genesis hash is mainnet-beta's\)/),
      ],
    });
  });

  it("ETH_CHAIN_ID 1 beside a devnet Solana node: payment routes refuse, naming SOL_CLUSTER (faucet SOL must not buy real keys)", async () => {
    stubNodes("0x1", SOLANA_GENESIS_HASHES.devnet);
    const buyer = await ethWallet();
    const listing = await listWithKey(seller.userId);
    const body = await expectRefused(await initiate(MAINNET, buyer, listing.id), ["SOL_CLUSTER"]);
    expect(body.problems).toEqual([expect.stringMatching(/^SOL_CLUSTER is "mainnet-beta", but the node at SOL_RPC_URL serves devnet/)]);
    expect(await (await as(MAINNET).health.$get()).json()).toMatchObject({ status: "degraded", payments: { ready: false } });
  });

  it("correct mainnet settings and nodes that agree: the payment routes are open", async () => {
    stubNodes("0x1", SOLANA_GENESIS_HASHES["mainnet-beta"]);
    expect(await paymentReadiness(readDeployment(MAINNET, "localhost"))).toMatchObject({
      ok: true,
      settings: { production: true, ethereum: { chainId: 1, confirmations: 12 }, solana: { commitment: "finalized" } },
    });
    const config = await (await as(MAINNET).config.$get()).json();
    expect(config.payments).toEqual({
      ethereum: { recipient: OWN_ETH, chainId: 1, confirmations: 12 },
      solana: { recipient: OWN_SOL, cluster: "mainnet-beta", commitment: "finalized" },
    });
    const buyer = await ethWallet();
    const res = await initiate(MAINNET, buyer, (await listWithKey(seller.userId)).id);
    expect(res.status, await res.clone().text()).toBe(201);
  });
});

describe("several nodes on mainnet (docs/payments.md#trust-no-single-node)", () => {
  it("one Ethereum node on mainnet: the payment routes refuse, naming ETH_RPC_URLS", async () => {
    stubNodes("0x1", SOLANA_GENESIS_HASHES["mainnet-beta"]);
    const buyer = await ethWallet();
    const oneNode = { ...MAINNET, ETH_RPC_URLS: "", ETH_RPC_QUORUM: "" };
    const res = await initiate(oneNode, buyer, (await listWithKey(seller.userId)).id);
    const body = await expectRefused(res, ["ETH_RPC_URLS"]);
    expect(body.problems).toEqual([
      expect.stringMatching(/^ETH_RPC_URLS must list at least 2 nodes on different hosts on mainnet/),
      expect.stringMatching(/^ETH_RPC_QUORUM is 1 on mainnet; it must be at least 2/),
    ]);
  });
});

describe("the local settings", () => {
  it("/api/health reports payments ready, not production", async () => {
    const body = await (await clientOf((input, init) => createApp().request(input, init, env)).health.$get()).json();
    expect(body).toMatchObject({ status: "ok", payments: { ready: true, production: false, problems: [] } });
  });
});
