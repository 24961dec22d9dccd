// The deployment as one reading (deployment.ts): what it holds is what the parsers beside it say, never a secret's
// value, and a bad deployment carries the payment rules' own problems word for word.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { wranglerVars } from "../../scripts/test/wrangler-vars";
import { DEFAULT_DUST } from "../domain/dust";
import { readDeployment } from "./deployment";
import { checkDeployment, type DeploymentText } from "./payment-rules";

const LOCAL: DeploymentText = wranglerVars(readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8"));
const SECRET = "s".repeat(40);

const MAINNET = {
  SITE_ORIGIN: "https://vanity.example",
  ETH_RPC_URLS: "https://RPC.A.example./v2/KEY-ONE, https://rpc.b.example:8443/KEY-TWO",
  ETH_RPC_QUORUM: "2",
  ETH_CHAIN_ID: "1",
  ETH_CONFIRMATIONS: "12",
  PLATFORM_ETH_ADDRESS: "0x52908400098527886E0F7030069857D2E4169EE7",
  SOL_RPC_URLS: "https://sol.a.example/?api-key=K1,https://sol.b.example/K2",
  SOL_CLUSTER: "mainnet-beta",
  SOL_COMMITMENT: "finalized",
  PLATFORM_SOL_ADDRESS: "GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW",
  KEY_ENCRYPTION_SECRET: SECRET,
  PAYMENT_DUST_ETH: "0.0001",
};

describe("readDeployment", () => {
  it("reads each network's nodes (hosts as the mainnet rule compares them), quorum and chain rules", () => {
    const d = readDeployment(MAINNET, "vanity.example");
    expect(d.site?.origin).toBe("https://vanity.example");
    expect(d.ethereum.nodes).toEqual([
      { url: "https://RPC.A.example./v2/KEY-ONE", name: "rpc.a.example.", host: "rpc.a.example" },
      { url: "https://rpc.b.example:8443/KEY-TWO", name: "rpc.b.example:8443", host: "rpc.b.example" },
    ]);
    expect(d.ethereum).toMatchObject({ quorum: 2, chainId: 1, chain: "real", confirmations: 12, dustBelow: 100_000_000_000_000n });
    // SOL_RPC_QUORUM unset: a majority of the two nodes.
    expect(d.solana).toMatchObject({ quorum: 2, cluster: "mainnet-beta", commitment: "finalized", dustBelow: DEFAULT_DUST.SOL });
    expect(d.solana.nodes.map((n) => n.name)).toEqual(["sol.a.example", "sol.b.example"]);
    expect(d).toMatchObject({ requestHost: "vanity.example", local: false, payments: { ok: true } });
  });

  it("says which secrets are set, never what they are, and keeps no secret in its settings text", () => {
    const d = readDeployment(MAINNET);
    expect(d.secrets).toEqual({ KEY_ENCRYPTION_SECRET: true, SESSION_SECRET: false });
    expect(readDeployment({ ...MAINNET, SESSION_SECRET: "short" }).secrets.SESSION_SECRET).toBe(false);
    expect(JSON.stringify(d, (_, v) => (typeof v === "bigint" ? v.toString() : v))).not.toContain(SECRET);
    expect(Object.keys(d.text)).not.toContain("KEY_ENCRYPTION_SECRET");
  });

  it("reads the admin lists entry by entry, trimmed, an empty entry naming no wallet", () => {
    const d = readDeployment({ ...MAINNET, ADMIN_WALLETS: " 0xAbC, ,So1ana ,", ADMIN_CONTRACT_WALLETS: "0xdef" });
    expect(d.admins).toEqual({ wallets: ["0xAbC", "So1ana"], contractWallets: ["0xdef"] });
    expect(readDeployment(MAINNET).admins).toEqual({ wallets: [], contractWallets: [] });
  });

  it("is local only where the site and both nodes are on this machine, on development chains", () => {
    expect(readDeployment(LOCAL, "localhost").local).toBe(true);
    expect(readDeployment(LOCAL, null).local).toBe(true);
    expect(readDeployment(LOCAL, "vanity.example").local).toBe(false);
    expect(readDeployment(LOCAL, "localhost").ethereum.chain).toBe("test");
  });

  it("a bad deployment reads without throwing, and carries the payment rules' problems word for word", () => {
    const bad = { ...MAINNET, ETH_CHAIN_ID: "one", ETH_CONFIRMATIONS: "0", SOL_COMMITMENT: "processed", SOL_CLUSTER: "", ETH_RPC_QUORUM: "x" };
    const d = readDeployment(bad, "vanity.example");
    expect(d.ethereum).toMatchObject({ chainId: null, chain: "unknown", confirmations: null, quorum: 2 });
    expect(d.solana).toMatchObject({ cluster: null, commitment: null });
    const expected = checkDeployment(bad, { requestHost: "vanity.example" });
    expect(expected.ok).toBe(false);
    expect(d.payments).toEqual(expected);
    expect(readDeployment({ ...MAINNET, ETH_CHAIN_ID: "999999" }).ethereum.chain).toBe("unknown");
    expect(readDeployment({ ...MAINNET, SITE_ORIGIN: "vanity.example" }).site).toBeNull();
  });
});
