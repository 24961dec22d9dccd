// wrangler.toml's committed [vars] (the local defaults) served behind a public host name: what a Worker deployed
// with them unchanged would do. On Cloudflare a Worker cannot reach 127.0.0.1, so the loopback nodes those
// values name do not answer here either (refused at the network boundary). The site is not this machine, so
// nothing local applies: payments, the dev admins, the dev wallets and sign-in are refused, and /api/health
// says why (docs/production-settings.md#local-and-production). The same values on this machine stay local.
import { env } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import { DEV_ACCOUNTS } from "../../scripts/dev-accounts";
import { wranglerVars } from "../../scripts/test/wrangler-vars";
import { createApp } from "../app";
import { forgetNodeFacts } from "../deployment/payment-readiness";
import { actors, ethWallet, listWithKey, purchaseState, type Wallet } from "./purchase-fixtures";

const COMMITTED = { ...env, ...wranglerVars(wranglerToml) } as Env;
const PUBLIC_SITE = "https://vanity-market.example.workers.dev";
const LOCAL_SITE = "http://localhost:8787";

let restoreFetch: (() => void) | null = null;
/** Cloudflare's network: loopback is not reachable from a deployed Worker. */
function cloudflareNetwork() {
  const original = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const host = new URL(new Request(input, init).url).hostname;
    if (host === "localhost" || host.startsWith("127.") || host === "[::1]") throw new TypeError("Network connection lost.");
    return original(input, init);
  }) as typeof fetch;
  restoreFetch = () => (globalThis.fetch = original);
}

beforeEach(() => {
  forgetNodeFacts();
  cloudflareNetwork();
});
afterEach(() => {
  restoreFetch?.();
  restoreFetch = null;
});

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

/** A request to `site` with the committed settings; a wallet's session cookie is renamed as that site's scheme needs. */
function at(site: string) {
  return (path: string, init: { method?: string; wallet?: Wallet; body?: unknown } = {}) => {
    const cookie = init.wallet && (site.startsWith("https:") ? init.wallet.cookie.replace(/^session=/, "__Host-session=") : init.wallet.cookie);
    return createApp().request(
      `${site}${path}`,
      {
        method: init.method ?? "GET",
        headers: { ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...(cookie ? { cookie } : {}) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      },
      COMMITTED,
    );
  };
}
const onPublicHost = at(PUBLIC_SITE);
const onThisMachine = at(LOCAL_SITE);

describe("the committed wrangler.toml behind a public host name", () => {
  it("reads the local defaults: loopback nodes, a development chain id, dev accounts, a loopback SITE_ORIGIN", () => {
    expect(COMMITTED).toMatchObject({
      ETH_RPC_URL: "http://127.0.0.1:8545",
      ETH_CHAIN_ID: "31337",
      SOL_RPC_URL: "http://127.0.0.1:8899",
      PLATFORM_ETH_ADDRESS: DEV_ACCOUNTS.platform.address,
      SITE_ORIGIN: LOCAL_SITE,
    });
    expect(COMMITTED.ADMIN_WALLETS).toContain(DEV_ACCOUNTS.admin.address);
  });

  it("/api/health says payments are off and why: the site is not this machine, so the dev accounts are refused", async () => {
    const res = await onPublicHost("/api/health");
    expect(res.status).toBe(200);
    const body = await res.json<{ status: string; payments: { ready: boolean; problems: string[] } }>();
    expect(body).toMatchObject({ status: "degraded", payments: { ready: false } });
    const problems = body.payments.problems;
    expect(problems).toContainEqual(
      expect.stringMatching(/^SITE_ORIGIN is "http:\/\/localhost:8787", on this machine, but this site is served at vanity-market\.example\.workers\.dev/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/^PLATFORM_ETH_ADDRESS is public dev account 9 .*not local \(the site is served at vanity-market\.example\.workers\.dev/),
    );
    expect(problems).toContainEqual(expect.stringMatching(/^PLATFORM_SOL_ADDRESS is public dev account 9 /));
    expect(problems.filter((p) => p.startsWith("ADMIN_WALLETS lists"))).toHaveLength(2);
  });

  it("every payment route answers 503 and nothing is written", async () => {
    const buyer = await ethWallet();
    const listing = await listWithKey(seller.userId);
    const before = await purchaseState();
    for (const path of ["/api/transactions/initiate", "/api/transactions"]) {
      const res = await onPublicHost(path, { method: "POST", wallet: buyer, body: { addressId: listing.id, buyerId: buyer.address } });
      expect(res.status, path).toBe(503);
      expect(await res.json()).toMatchObject({ message: expect.stringMatching(/^Payments are disabled .*PLATFORM_ETH_ADDRESS is public dev account 9/) });
    }
    expect(await purchaseState()).toBe(before);
  });

  it("the public dev admin (account 0, listed in ADMIN_WALLETS) is no admin there", async () => {
    expect((await onPublicHost("/api/admin/payments/attention", { wallet: seller })).status).toBe(403);
    const status = await onPublicHost(`/api/users/admin-status?walletAddress=${DEV_ACCOUNTS.admin.address}`);
    expect(await status.json()).toMatchObject({ isAdmin: false });
    const session = await (await onPublicHost("/api/auth/session", { wallet: seller })).json();
    expect(session).toMatchObject({ authenticated: true, user: { isAdmin: false } });
  });

  it("/api/config advertises neither the dev wallets nor anything to pay, and the dev-chain relay does not exist", async () => {
    const config = await (await onPublicHost("/api/config")).json<Record<string, unknown>>();
    expect(config).toMatchObject({ localDevWallets: false });
    expect(config).not.toHaveProperty("payments");
    const relay = await onPublicHost("/api/dev-chains/ethereum", { method: "POST", body: { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] } });
    expect(relay.status).toBe(404);
  });

  it("sign-in refuses to write messages for a localhost SITE_ORIGIN on a public site", async () => {
    const res = await onPublicHost("/api/auth/nonce", { method: "POST", body: { network: "ethereum", address: DEV_ACCOUNTS.buyer.address } });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ message: expect.stringMatching(/SITE_ORIGIN .*localhost:8787.* vanity-market\.example\.workers\.dev/) });
  });
});

describe("the same values on this machine", () => {
  it("are local: payments ready (the nodes not answering proves nothing), the dev admin is an admin, the dev wallets offered", async () => {
    expect(await (await onThisMachine("/api/health")).json()).toMatchObject({ payments: { ready: true, production: false, problems: [] } });
    expect((await onThisMachine("/api/admin/payments/attention", { wallet: seller })).status).toBe(200);
    expect(await (await onThisMachine(`/api/users/admin-status?walletAddress=${DEV_ACCOUNTS.admin.address}`)).json()).toMatchObject({ isAdmin: true });
    const config = await (await onThisMachine("/api/config")).json<Record<string, unknown>>();
    expect(config).toMatchObject({ localDevWallets: true, payments: { ethereum: { recipient: DEV_ACCOUNTS.platform.address } } });
    const nonce = await onThisMachine("/api/auth/nonce", { method: "POST", body: { network: "ethereum", address: DEV_ACCOUNTS.buyer.address } });
    expect(nonce.status).toBe(200);
  });
});
