// The dev wallets' relay and the localDevWallets flag exist only in a local deployment: the site and both nodes on
// this machine (deployment/local-mode.ts).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../app";
import { localDevWallets } from "../routes/dev-chains";
import { postJson } from "./helpers";
import { client, unchecked } from "./client";

const app = createApp();
const withEnv = (path: string, init: RequestInit, overrides: Partial<Env>) => app.request(path, init, { ...env, ...overrides });
const rpc = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const call = { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] };

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
    const remote = await withEnv("/api/config", {}, { SOL_RPC_URL: "https://api.mainnet-beta.solana.com" });
    expect(await remote.json()).toMatchObject({ localDevWallets: false });
    const local = await withEnv("/api/config", {}, {});
    expect(await local.json()).toMatchObject({ localDevWallets: true });
    const publicHost = await app.request("https://vanity.example/api/config", {}, env);
    expect(await publicHost.json()).toMatchObject({ localDevWallets: false });
  });
});

describe("POST /api/dev-chains/:network", () => {
  it("does not exist when a chain is remote", async () => {
    const res = await withEnv("/api/dev-chains/ethereum", rpc(call), { ETH_RPC_URL: "https://eth.example.com" });
    expect(res.status).toBe(404);
    const sol = await withEnv("/api/dev-chains/solana", rpc({ ...call, method: "getHealth" }), { SOL_RPC_URL: "https://api.devnet.solana.com" });
    expect(sol.status).toBe(404);
  });

  it("does not exist on a site that is not this machine", async () => {
    expect((await app.request("https://vanity.example/api/dev-chains/ethereum", rpc(call), env)).status).toBe(404);
    expect((await withEnv("/api/dev-chains/ethereum", rpc(call), { SITE_ORIGIN: "https://vanity.example" })).status).toBe(404);
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
    expect((await postJson("/api/dev-chains/ethereum", "{not json")).status).toBe(400);
  });

  it("answers 502 when the local node is down", async () => {
    const res = await withEnv("/api/dev-chains/ethereum", rpc(call), { ETH_RPC_URL: "http://127.0.0.1:9" });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: "Bad Gateway", message: "The local ethereum node did not answer" });
  });
});
