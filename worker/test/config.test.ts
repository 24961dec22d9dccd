// GET /api/config: the chain and cluster the browser links explorers to, and nothing secret.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { solanaCluster } from "../routes/config";
import { client } from "./client";

describe("GET /api/config", () => {
  it("answers the configured Ethereum chain id and the Solana cluster", async () => {
    const res = await client().config.$get();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    // wrangler.toml's local settings: anvil (31337) and a local Solana validator.
    expect(await res.json()).toMatchObject({ ethChainId: 31337, solCluster: "localnet" });
  });

  it("names what a payer needs: platform addresses, chain, depth, reservation length; local chains offer dev wallets", async () => {
    const body = await (await client().config.$get()).json();
    expect(body).toEqual({
      ethChainId: 31337,
      solCluster: "localnet",
      payments: {
        ethereum: { recipient: env.PLATFORM_ETH_ADDRESS, chainId: 31337, confirmations: Number(env.ETH_CONFIRMATIONS) },
        solana: { recipient: env.PLATFORM_SOL_ADDRESS, cluster: "localnet", commitment: "confirmed" },
      },
      reservationMinutes: 15,
      localDevWallets: true,
    });
  });

  it("never includes the RPC URLs", async () => {
    const text = await (await client().config.$get()).text();
    expect(text).not.toContain("http");
    expect(text).not.toContain("8545");
  });
});

describe("solanaCluster", () => {
  it("reads the cluster from the RPC host", () => {
    expect(solanaCluster("http://127.0.0.1:8899")).toBe("localnet");
    expect(solanaCluster("http://localhost:8899")).toBe("localnet");
    expect(solanaCluster("https://api.devnet.solana.com")).toBe("devnet");
    expect(solanaCluster("https://api.testnet.solana.com")).toBe("testnet");
    expect(solanaCluster("https://api.mainnet-beta.solana.com")).toBe("mainnet-beta");
    expect(solanaCluster("https://rpc.example.com/?api-key=secret")).toBe("mainnet-beta");
  });

  it("treats an unreadable URL as local (no public explorer link)", () => {
    expect(solanaCluster("not a url")).toBe("localnet");
  });
});
