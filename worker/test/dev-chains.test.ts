// The dev wallets' relay and the localDevWallets flag exist only in a local deployment: the site and both nodes on
// this machine (deployment/local-mode.ts).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../app";
import { localDevWallets } from "../routes/dev-chains";
import { postJson } from "./helpers";
import { atOrigin, client, clientOf, unchecked } from "./client";

const app = createApp();
/** The API with these settings, called at `site` (the host decides whether the relay exists). */
const withEnv = (overrides: Partial<Env>, site = "http://localhost") =>
  clientOf((input, init) => app.request(atOrigin(site, input), init, { ...env, ...overrides }));
type RpcCall = Parameters<ReturnType<typeof withEnv>["dev-chains"][":network"]["$post"]>[0]["json"];
const relay = (overrides: Partial<Env>, network: "ethereum" | "solana", json: RpcCall, site?: string) =>
  withEnv(overrides, site)["dev-chains"][":network"].$post({ param: { network }, json });
const call: RpcCall = { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] };

describe("localDevWallets", () => {
  const local = {
    SITE_ORIGIN: "http://localhost",
    ETH_RPC_URL: "http://127.0.0.1:8545",
    ETH_CHAIN_ID: "31337",
    SOL_RPC_URL: "http://localhost:8899",
    SOL_CLUSTER: "localnet",
  };

  it("is true only when the site and both RPC URLs are on this machine", () => {
    expect(localDevWallets(local, "localhost")).toBe(true);
    expect(localDevWallets(local, "vanity.example")).toBe(false);
    expect(localDevWallets({ ...local, SITE_ORIGIN: "https://vanity.example" }, "localhost")).toBe(false);
    expect(localDevWallets({ ...local, SOL_RPC_URL: "https://api.devnet.solana.com" }, "localhost")).toBe(false);
    expect(localDevWallets({ ...local, ETH_RPC_URL: "https://eth.example.com" }, "localhost")).toBe(false);
    expect(localDevWallets({ ...local, ETH_RPC_URL: "http://127.0.0.1.example.com" }, "localhost")).toBe(false);
    expect(localDevWallets({ ...local, ETH_RPC_URL: "not a url" }, "localhost")).toBe(false);
  });

  it("GET /api/config reports it", async () => {
    const remote = await withEnv({ SOL_RPC_URL: "https://api.mainnet-beta.solana.com" }).config.$get();
    expect(await remote.json()).toMatchObject({ localDevWallets: false });
    const local = await withEnv({}).config.$get();
    expect(await local.json()).toMatchObject({ localDevWallets: true });
    const publicHost = await withEnv({}, "https://vanity.example").config.$get();
    expect(await publicHost.json()).toMatchObject({ localDevWallets: false });
  });
});

describe("POST /api/dev-chains/:network", () => {
  it("does not exist when a chain is remote", async () => {
    const res = await relay({ ETH_RPC_URL: "https://eth.example.com" }, "ethereum", call);
    expect(res.status).toBe(404);
    const sol = await relay({ SOL_RPC_URL: "https://api.devnet.solana.com" }, "solana", { ...call, method: "getHealth" });
    expect(sol.status).toBe(404);
  });

  it("does not exist on a site that is not this machine", async () => {
    expect((await relay({}, "ethereum", call, "https://vanity.example")).status).toBe(404);
    expect((await relay({ SITE_ORIGIN: "https://vanity.example" }, "ethereum", call)).status).toBe(404);
  });

  it("relays only the methods the dev wallets use", async () => {
    for (const [network, method] of [
      ["ethereum", "eth_sendTransaction"],
      ["ethereum", "anvil_reorg"],
      ["ethereum", "evm_mine"],
      ["solana", "localnet_advanceSlots"],
      ["solana", "requestAirdrop"],
      ["ethereum", "getHealth"],
    ] as const) {
      const res = await client()["dev-chains"][":network"].$post({ param: { network }, json: unchecked({ ...call, method }) });
      expect(res.status, method).toBe(400);
      expect(await res.json()).toEqual({ error: "Validation Error", message: `method: ${method} is not relayed to the local ${network} chain` });
    }
  });

  it("refuses malformed requests with 400", async () => {
    for (const body of [
      {},
      { ...call, jsonrpc: "1.0" },
      { ...call, id: { a: 1 } },
      { ...call, params: "x" },
      { ...call, params: Array(9).fill(0) },
      { ...call, method: "m".repeat(65) },
      [call],
    ]) {
      const res = await client()["dev-chains"][":network"].$post({ param: { network: "ethereum" }, json: unchecked(body) });
      expect(res.status, JSON.stringify(body).slice(0, 50)).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Validation Error" });
    }
    expect((await client()["dev-chains"][":network"].$post({ param: unchecked({ network: "bitcoin" }), json: unchecked(call) })).status).toBe(400);
    expect((await postJson("/api/dev-chains/ethereum", "{not json")).status).toBe(400); // raw: not JSON
  });

  it("answers 502 when the local node is down", async () => {
    const res = await relay({ ETH_RPC_URL: "http://127.0.0.1:9" }, "ethereum", call);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: "Bad Gateway", message: "The local ethereum node did not answer" });
  });
});
