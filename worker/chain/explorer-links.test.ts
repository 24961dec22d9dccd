// The Worker's payment links (an operator's refund and payment-difference rows) and the web's come from one function
// (schema/explorer.ts): the same page for the same payment, on the chain the Worker is configured for.
import { describe, expect, it } from "vitest";
import { explorerTxUrl } from "../../schema/explorer";
import { ethereumVerifier } from "./ethereum-payments";
import { type DeploymentEnv, readDeployment } from "../deployment/deployment";
import { solanaVerifier } from "./solana-payments";

/** The deployment's chain rules for these settings, as a request or a cron run reads them. */
const deployment = (over: Partial<DeploymentEnv>) =>
  readDeployment({
    ETH_RPC_URL: "http://127.0.0.1:9",
    ETH_CHAIN_ID: "1",
    ETH_CONFIRMATIONS: "12",
    PLATFORM_ETH_ADDRESS: "0x0000000000000000000000000000000000000001",
    SOL_RPC_URL: "http://127.0.0.1:9",
    SOL_CLUSTER: "mainnet-beta",
    SOL_COMMITMENT: "finalized",
    PLATFORM_SOL_ADDRESS: "11111111111111111111111111111111",
    ...over,
  } as DeploymentEnv);
const eth = (over: Partial<DeploymentEnv>) => ethereumVerifier("http://127.0.0.1:9", deployment(over).ethereum);
const sol = (over: Partial<DeploymentEnv>) => solanaVerifier(over.SOL_RPC_URL ?? "http://127.0.0.1:9", deployment(over).solana);

const HASH = `0x${"ab".repeat(32)}`;
const SIG = "5".repeat(88);

describe("the verifiers' explorer links", () => {
  it("Ethereum: Etherscan of ETH_CHAIN_ID, as the web links it; none on a local chain", () => {
    for (const id of [1, 11155111, 17000, 560048]) {
      const link = eth({ ETH_CHAIN_ID: String(id) }).explorerUrl(HASH);
      expect(link).toMatch(/^https:\/\/([a-z]+\.)?etherscan\.io\/tx\//);
      expect(link).toBe(explorerTxUrl("ethereum", HASH, { ethChainId: id }));
    }
    expect(eth({ ETH_CHAIN_ID: "31337" }).explorerUrl(HASH)).toBeNull();
  });

  it("Solana: Solscan of SOL_CLUSTER, whatever the node's URL says; none on localnet or an unreadable setting", () => {
    expect(sol({ SOL_RPC_URL: "https://api.devnet.solana.com" }).explorerUrl(SIG)).toBe(`https://solscan.io/tx/${SIG}`);
    expect(sol({ SOL_CLUSTER: "devnet" }).explorerUrl(SIG)).toBe(explorerTxUrl("solana", SIG, { solCluster: "devnet" }));
    expect(sol({ SOL_CLUSTER: "devnet" }).explorerUrl(SIG)).toBe(`https://solscan.io/tx/${SIG}?cluster=devnet`);
    expect(sol({ SOL_CLUSTER: "localnet" }).explorerUrl(SIG)).toBeNull();
    expect(sol({ SOL_CLUSTER: "mainnet" }).explorerUrl(SIG)).toBeNull();
  });
});
