// SOL_CLUSTER and the genesis hashes that identify the public clusters, written out as the nodes answer them
// (getGenesisHash on api.mainnet-beta/devnet/testnet.solana.com), not read back from the module under test.
import { describe, expect, it } from "vitest";
import { clusterMismatch, clusterOfGenesis, readCluster, SOLANA_CLUSTERS } from "./solana-cluster";

const MAINNET = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d";
const DEVNET = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG";
const TESTNET = "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY";
const OWN_VALIDATOR = "3fXAm4YAxbVzPiBDqVkNwmXJxSXsFFMTtbsfCx6G2sBc";

describe("the Solana cluster", () => {
  it("readCluster: one of the four names as written (spaces trimmed), nothing else", () => {
    expect(SOLANA_CLUSTERS).toEqual(["mainnet-beta", "devnet", "testnet", "localnet"]);
    for (const name of SOLANA_CLUSTERS) expect(readCluster(name)).toBe(name);
    expect(readCluster(" devnet ")).toBe("devnet");
    for (const text of [undefined, "", "mainnet", "Mainnet-Beta", "local", "devnet,testnet"]) expect(readCluster(text), String(text)).toBeNull();
  });

  it("clusterOfGenesis: each public cluster by its genesis hash; any other hash is a validator of one's own", () => {
    expect(clusterOfGenesis(MAINNET)).toBe("mainnet-beta");
    expect(clusterOfGenesis(DEVNET)).toBe("devnet");
    expect(clusterOfGenesis(TESTNET)).toBe("testnet");
    expect(clusterOfGenesis(OWN_VALIDATOR)).toBe("localnet");
    expect(clusterOfGenesis(MAINNET.toLowerCase())).toBe("localnet");
  });

  it("clusterMismatch: null when the node serves SOL_CLUSTER, else a problem naming the setting and what the node serves", () => {
    expect(clusterMismatch("mainnet-beta", MAINNET)).toBeNull();
    expect(clusterMismatch("localnet", OWN_VALIDATOR)).toBeNull();
    expect(clusterMismatch("mainnet-beta", DEVNET)).toBe(
      'SOL_CLUSTER is "mainnet-beta", but the node at SOL_RPC_URL serves devnet (its genesis hash is devnet\'s): payments would be read from the wrong cluster.',
    );
    expect(clusterMismatch("devnet", OWN_VALIDATOR)).toBe(
      `SOL_CLUSTER is "devnet", but the node at SOL_RPC_URL serves a cluster that is not devnet (genesis hash ${OWN_VALIDATOR}): payments would be read from the wrong cluster.`,
    );
    expect(clusterMismatch("localnet", TESTNET)).toMatch(/serves testnet/);
  });
});
