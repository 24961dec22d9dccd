import { describe, expect, it } from "vitest";
import { explorerName, explorerTxUrl, explorerUrl } from "./explorer";

const ETH = "0x0000000049cbd371133c6caece543d8108839081";
const SOL = "So11111111111111111111111111111111111111112";

describe("explorerUrl", () => {
  it("uses Etherscan for the configured Ethereum chain", () => {
    expect(explorerUrl("ethereum", ETH, { ethChainId: 1, solCluster: "mainnet-beta" })).toBe(`https://etherscan.io/address/${ETH}`);
    expect(explorerUrl("ethereum", ETH, { ethChainId: 11155111, solCluster: "devnet" })).toBe(`https://sepolia.etherscan.io/address/${ETH}`);
  });

  it("has no explorer for a local or unknown Ethereum chain", () => {
    expect(explorerUrl("ethereum", ETH, { ethChainId: 31337, solCluster: "localnet" })).toBeNull();
    expect(explorerUrl("ethereum", ETH, { ethChainId: 0 })).toBeNull();
  });

  it("knows Etherscan's test networks", () => {
    expect(explorerUrl("ethereum", ETH, { ethChainId: 17000 })).toBe(`https://holesky.etherscan.io/address/${ETH}`);
    expect(explorerUrl("ethereum", ETH, { ethChainId: 560048 })).toBe(`https://hoodi.etherscan.io/address/${ETH}`);
  });

  it("has no link for a network whose chain it is not told (the Worker's verifiers know only their own)", () => {
    expect(explorerUrl("ethereum", ETH, { solCluster: "mainnet-beta" })).toBeNull();
    expect(explorerUrl("solana", SOL, { ethChainId: 1 })).toBeNull();
  });

  it("keeps what it is given inside the path: a hostile id cannot add a query, a fragment or a path", () => {
    expect(explorerTxUrl("ethereum", "0xab?x=1#y/../z", { ethChainId: 1 })).toBe("https://etherscan.io/tx/0xab%3Fx%3D1%23y%2F..%2Fz");
    expect(explorerUrl("solana", "a b&cluster=mainnet", { solCluster: "devnet" })).toBe("https://solscan.io/account/a%20b%26cluster%3Dmainnet?cluster=devnet");
  });

  it("uses Solscan with the cluster for Solana", () => {
    expect(explorerUrl("solana", SOL, { ethChainId: 1, solCluster: "mainnet-beta" })).toBe(`https://solscan.io/account/${SOL}`);
    expect(explorerUrl("solana", SOL, { ethChainId: 1, solCluster: "devnet" })).toBe(`https://solscan.io/account/${SOL}?cluster=devnet`);
    expect(explorerUrl("solana", SOL, { ethChainId: 1, solCluster: "testnet" })).toBe(`https://solscan.io/account/${SOL}?cluster=testnet`);
    expect(explorerUrl("solana", SOL, { ethChainId: 1, solCluster: "localnet" })).toBeNull();
  });
});

describe("explorerTxUrl", () => {
  const HASH = `0x${"ab".repeat(32)}`;
  const SIG = "5".repeat(88);
  it("links a payment on the configured chain", () => {
    expect(explorerTxUrl("ethereum", HASH, { ethChainId: 1, solCluster: "mainnet-beta" })).toBe(`https://etherscan.io/tx/${HASH}`);
    expect(explorerTxUrl("ethereum", HASH, { ethChainId: 11155111, solCluster: "devnet" })).toBe(`https://sepolia.etherscan.io/tx/${HASH}`);
    expect(explorerTxUrl("solana", SIG, { ethChainId: 1, solCluster: "mainnet-beta" })).toBe(`https://solscan.io/tx/${SIG}`);
    expect(explorerTxUrl("solana", SIG, { ethChainId: 1, solCluster: "devnet" })).toBe(`https://solscan.io/tx/${SIG}?cluster=devnet`);
  });
  it("has none on a local chain", () => {
    expect(explorerTxUrl("ethereum", HASH, { ethChainId: 31337, solCluster: "localnet" })).toBeNull();
    expect(explorerTxUrl("solana", SIG, { ethChainId: 31337, solCluster: "localnet" })).toBeNull();
  });
});

describe("explorerName", () => {
  it("names the explorer the links open", () => {
    expect(explorerName("ethereum")).toBe("Etherscan");
    expect(explorerName("solana")).toBe("Solscan");
  });
});
