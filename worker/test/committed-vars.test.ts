// wrangler.toml's committed [vars] (the local defaults) served behind a public host name: what a Worker deployed
// with them unchanged would do. On Cloudflare a Worker cannot reach 127.0.0.1, so the loopback nodes those
// values name do not answer here either (refused at the network boundary). The site is not this machine, so
// nothing local applies: payments, the dev admins, the dev wallets and sign-in are refused, and /api/health
// says why (docs/production-settings.md#local-and-production). The same values on this machine stay local.
import { env } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import { DEV_ACCOUNTS } from "../../schema/dev-accounts";
import { wranglerVars } from "../../scripts/test/wrangler-vars";
import { createApp } from "../app";
import { forgetNodeFacts } from "../deployment/payment-readiness";
import { atOrigin, clientOf } from "./client";
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

/** The API at `site` with the committed settings, as `wallet` (its session cookie renamed as that site's scheme needs). */
function at(site: string) {
  return (wallet?: Wallet) => {
    const cookie = wallet && (site.startsWith("https:") ? wallet.cookie.replace(/^session=/, "__Host-session=") : wallet.cookie);
    return clientOf((input, init) => createApp().request(atOrigin(site, input), init, COMMITTED), cookie ? { headers: { cookie } } : undefined);
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
    const res = await onPublicHost().health.$get();
    expect(res.status).toBe(200);
    const body = await res.json();
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
    const body = { addressId: listing.id, buyerId: buyer.address };
    for (const [name, call] of [
      ["initiate", () => onPublicHost(buyer).transactions.initiate.$post({ json: body })],
      ["create", () => onPublicHost(buyer).transactions.$post({ json: body })],
    ] as const) {
      const res = await call();
      expect(res.status, name).toBe(503);
      expect(await res.json()).toMatchObject({ message: expect.stringMatching(/^Payments are disabled .*PLATFORM_ETH_ADDRESS is public dev account 9/) });
    }
    expect(await purchaseState()).toBe(before);
  });

  it("the public dev admin (account 0, listed in ADMIN_WALLETS) is no admin there", async () => {
    expect((await onPublicHost(seller).admin.payments.attention.$get()).status).toBe(403);
    const status = await onPublicHost().users["admin-status"].$get({ query: { walletAddress: DEV_ACCOUNTS.admin.address } });
    expect(await status.json()).toMatchObject({ isAdmin: false });
    const session = await (await onPublicHost(seller).auth.session.$get()).json();
    expect(session).toMatchObject({ authenticated: true, user: { isAdmin: false } });
  });

  it("/api/config advertises neither the dev wallets nor anything to pay, and the dev-chain relay does not exist", async () => {
    const config = await (await onPublicHost().config.$get()).json();
    expect(config).toMatchObject({ localDevWallets: false });
    expect(config).not.toHaveProperty("payments");
    const relay = await onPublicHost()["dev-chains"][":network"].$post({
      param: { network: "ethereum" },
      json: { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
    });
    expect(relay.status).toBe(404);
  });

  it("sign-in refuses to write messages for a localhost SITE_ORIGIN on a public site", async () => {
    const res = await onPublicHost().auth.nonce.$post({ json: { network: "ethereum", address: DEV_ACCOUNTS.buyer.address } });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ message: expect.stringMatching(/SITE_ORIGIN .*localhost:8787.* vanity-market\.example\.workers\.dev/) });
  });
});

describe("the same values on this machine", () => {
  it("are local: payments ready (the nodes not answering proves nothing), the dev admin is an admin, the dev wallets offered", async () => {
    expect(await (await onThisMachine().health.$get()).json()).toMatchObject({ payments: { ready: true, production: false, problems: [] } });
    expect((await onThisMachine(seller).admin.payments.attention.$get()).status).toBe(200);
    expect(await (await onThisMachine().users["admin-status"].$get({ query: { walletAddress: DEV_ACCOUNTS.admin.address } })).json()).toMatchObject({
      isAdmin: true,
    });
    const config = await (await onThisMachine().config.$get()).json();
    expect(config).toMatchObject({ localDevWallets: true, payments: { ethereum: { recipient: DEV_ACCOUNTS.platform.address } } });
    const nonce = await onThisMachine().auth.nonce.$post({ json: { network: "ethereum", address: DEV_ACCOUNTS.buyer.address } });
    expect(nonce.status).toBe(200);
  });
});
