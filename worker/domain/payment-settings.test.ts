// Issue 26 §8: the payment settings production refuses. Each case is a deployment an operator could ship.
import { readFileSync } from "node:fs";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { mnemonicToSeedSync } from "@scure/bip39";
import { mnemonicToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { DEV_ACCOUNTS, LOCAL_CHAIN, SOLANA_DEV_ACCOUNTS } from "../../scripts/dev-accounts";
import { slip10Ed25519 } from "../../scripts/test/slip10";
import {
  bothChainsLocal,
  checkPaymentSettings,
  isPublicDevWallet,
  MAINNET_MIN_CONFIRMATIONS,
  MAX_CONFIRMATIONS,
  type PaymentSettingsText,
  PUBLIC_DEV_ETH_ADDRESSES,
  PUBLIC_DEV_SOL_ADDRESSES,
  readCommitment,
  readConfirmations,
  SOLANA_GENESIS_HASHES,
  solanaCluster,
} from "./payment-settings";

/** wrangler.toml's [vars], as `npm start` and the tests run them. */
const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
const LOCAL: PaymentSettingsText = Object.fromEntries([...toml.matchAll(/^([A-Z_]+) = "([^"]*)"$/gm)].map((m) => [m[1], m[2]]));

// Addresses nobody ships as dev accounts (fresh, valid, checksummed).
const OWN_ETH = "0x52908400098527886E0F7030069857D2E4169EE7";
const OWN_SOL = "GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW";

/** A production deployment on Ethereum mainnet and Solana mainnet, done right. */
const PRODUCTION: PaymentSettingsText = {
  ETH_RPC_URL: "https://eth-mainnet.example/v2/SECRET-API-KEY",
  ETH_CHAIN_ID: "1",
  ETH_CONFIRMATIONS: "12",
  PLATFORM_ETH_ADDRESS: OWN_ETH,
  SOL_RPC_URL: "https://solana-rpc.example/?api-key=SECRET-API-KEY",
  SOL_COMMITMENT: "finalized",
  PLATFORM_SOL_ADDRESS: OWN_SOL,
  ADMIN_WALLETS: `${OWN_ETH},${OWN_SOL}`,
};

function problems(env: PaymentSettingsText, facts = {}): string[] {
  const check = checkPaymentSettings(env, facts);
  return check.ok ? [] : check.problems;
}

function refused(env: PaymentSettingsText, setting: string, pattern: RegExp = /./, facts = {}) {
  const found = problems(env, facts);
  expect(found.length, `expected ${setting} to be refused`).toBeGreaterThan(0);
  const about = found.filter((p) => p.startsWith(setting));
  expect(about, found.join("\n")).toHaveLength(1);
  expect(about[0]).toMatch(pattern);
  // No problem ever repeats an RPC URL: hosted ones carry an API key.
  expect(found.join(" ")).not.toContain("SECRET");
}

describe("the local settings (wrangler.toml, npm start, the tests)", () => {
  it("are accepted: anvil and the local Solana RPC are local, so the public dev accounts may receive there", () => {
    const check = checkPaymentSettings(LOCAL);
    expect(check).toEqual({
      ok: true,
      settings: {
        production: false,
        ethereum: { chainId: 31337, local: true, recipient: DEV_ACCOUNTS.platform.address, confirmations: Number(LOCAL.ETH_CONFIRMATIONS) },
        solana: { cluster: "localnet", local: true, recipient: SOLANA_DEV_ACCOUNTS.platform.address, commitment: "confirmed" },
      },
    });
  });

  it("stay accepted when the local nodes answer for themselves", () => {
    expect(checkPaymentSettings(LOCAL, { ethChainId: 31337, solGenesisHash: "3fXAm4YAxbVzPiBDqVkNwmXJxSXsFFMTtbsfCx6G2sBc" }).ok).toBe(true);
  });
});

describe("production (a chain that is not local)", () => {
  it("a correct mainnet configuration is accepted", () => {
    expect(checkPaymentSettings(PRODUCTION)).toMatchObject({
      ok: true,
      settings: {
        production: true,
        ethereum: { chainId: 1, local: false, confirmations: 12 },
        solana: { cluster: "mainnet-beta", local: false, commitment: "finalized" },
      },
    });
  });

  it("refuses the public dev platform addresses shipped in wrangler.toml", () => {
    refused(
      { ...PRODUCTION, PLATFORM_ETH_ADDRESS: DEV_ACCOUNTS.platform.address },
      "PLATFORM_ETH_ADDRESS",
      /public dev account 9 .*anyone could take the payments/,
    );
    refused({ ...PRODUCTION, PLATFORM_ETH_ADDRESS: DEV_ACCOUNTS.platform.address.toLowerCase() }, "PLATFORM_ETH_ADDRESS", /public dev account 9/);
    refused({ ...PRODUCTION, PLATFORM_SOL_ADDRESS: SOLANA_DEV_ACCOUNTS.platform.address }, "PLATFORM_SOL_ADDRESS", /public dev account 9/);
    // Any of the ten, on a testnet too: its keys are just as public.
    refused(
      { ...PRODUCTION, ETH_CHAIN_ID: "11155111", ETH_CONFIRMATIONS: "1", PLATFORM_ETH_ADDRESS: PUBLIC_DEV_ETH_ADDRESSES[3] },
      "PLATFORM_ETH_ADDRESS",
      /account 3/,
    );
    refused({ ...PRODUCTION, PLATFORM_ETH_ADDRESS: PUBLIC_DEV_ETH_ADDRESSES[0] }, "PLATFORM_ETH_ADDRESS", /account 0 /);
    refused({ ...PRODUCTION, PLATFORM_SOL_ADDRESS: PUBLIC_DEV_SOL_ADDRESSES[0] }, "PLATFORM_SOL_ADDRESS", /account 0 /);
    refused(
      { ...PRODUCTION, SOL_RPC_URL: "https://api.devnet.solana.com", PLATFORM_SOL_ADDRESS: PUBLIC_DEV_SOL_ADDRESSES[5] },
      "PLATFORM_SOL_ADDRESS",
      /account 5/,
    );
  });

  it("one local chain does not make the other local: the dev address is refused where the chain is public", () => {
    refused({ ...LOCAL, SOL_RPC_URL: "https://api.devnet.solana.com" }, "PLATFORM_SOL_ADDRESS", /public dev account 9/);
    expect(problems({ ...LOCAL, SOL_RPC_URL: "https://api.devnet.solana.com" }).some((p) => p.startsWith("PLATFORM_ETH_ADDRESS"))).toBe(false);
    // Either chain in public is production: the dev admin wallets go too.
    expect(problems({ ...LOCAL, SOL_RPC_URL: "https://api.devnet.solana.com" }).filter((p) => p.startsWith("ADMIN_WALLETS lists"))).toHaveLength(2);
    // An RPC URL that cannot be read is no proof of a local chain.
    refused({ ...LOCAL, SOL_RPC_URL: "localhost:8899" }, "PLATFORM_SOL_ADDRESS", /public dev account 9/);
    refused({ ...LOCAL, ETH_RPC_URL: "127.0.0.1:8545" }, "PLATFORM_ETH_ADDRESS", /public dev account 9/);
    // anvil's chain id on a hosted node is not local.
    refused({ ...LOCAL, ETH_RPC_URL: "https://rpc.example", SOL_RPC_URL: LOCAL.SOL_RPC_URL }, "PLATFORM_ETH_ADDRESS", /public dev account 9/);
    // A loopback node with a public chain id (a fork of mainnet, a tunnel) is not local.
    refused({ ...LOCAL, ETH_CHAIN_ID: "1", ETH_CONFIRMATIONS: "12" }, "PLATFORM_ETH_ADDRESS", /public dev account 9/);
  });

  it("refuses a public dev wallet in ADMIN_WALLETS (anyone could sign in as admin), any case", () => {
    refused(
      { ...PRODUCTION, ADMIN_WALLETS: `${OWN_ETH}, ${DEV_ACCOUNTS.admin.address.toLowerCase()}` },
      "ADMIN_WALLETS",
      /public dev account 0 .*anyone could sign in as admin/,
    );
    refused({ ...PRODUCTION, ADMIN_WALLETS: SOLANA_DEV_ACCOUNTS.admin.address }, "ADMIN_WALLETS", /account 0/);
    // Solana wallets are compared exactly, as ADMIN_WALLETS itself does: another case is another (unlisted) wallet.
    expect(problems({ ...PRODUCTION, ADMIN_WALLETS: `${OWN_ETH},,${SOLANA_DEV_ACCOUNTS.admin.address.toLowerCase()}` })).toEqual([]);
    expect(checkPaymentSettings(LOCAL).ok).toBe(true);
  });

  it("refuses plain http to a node that is not on this machine", () => {
    refused({ ...PRODUCTION, ETH_RPC_URL: "http://eth.example:8545" }, "ETH_RPC_URL", /https/);
    refused({ ...PRODUCTION, SOL_RPC_URL: "http://sol.example" }, "SOL_RPC_URL", /https/);
    refused({ ...PRODUCTION, SOL_RPC_URL: "not a url SECRET" }, "SOL_RPC_URL", /http\(s\) URL/);
    refused({ ...PRODUCTION, ETH_RPC_URL: "ftp://eth.example" }, "ETH_RPC_URL", /http\(s\) URL/);
  });
});

describe("ETH_CONFIRMATIONS is never silently 1", () => {
  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["not a number", "twelve"],
    ["zero", "0"],
    ["negative", "-12"],
    ["a fraction", "12.5"],
    ["exponent notation", "1e2"],
    ["too deep", "1001"],
  ])("%s: refused, on a local chain too", (_, value) => {
    refused({ ...PRODUCTION, ETH_CONFIRMATIONS: value }, "ETH_CONFIRMATIONS", /whole number of blocks from 1 to 1000/);
    refused({ ...LOCAL, ETH_CONFIRMATIONS: value }, "ETH_CONFIRMATIONS", /whole number/);
  });

  it("the refusal quotes the value as written, or says it is not set", () => {
    refused({ ...PRODUCTION, ETH_CONFIRMATIONS: undefined }, "ETH_CONFIRMATIONS", /; it is not set\.$/);
    refused({ ...PRODUCTION, ETH_CONFIRMATIONS: "" }, "ETH_CONFIRMATIONS", /; it is not set\.$/);
    refused({ ...PRODUCTION, ETH_CONFIRMATIONS: "   " }, "ETH_CONFIRMATIONS", /; it is " {3}"\.$/);
    refused({ ...PRODUCTION, ETH_CONFIRMATIONS: "twelve" }, "ETH_CONFIRMATIONS", /; it is "twelve"\.$/);
    refused(
      { ...PRODUCTION, PLATFORM_ETH_ADDRESS: `${OWN_ETH}${"f".repeat(60)}` },
      "PLATFORM_ETH_ADDRESS",
      new RegExp(`it is "${OWN_ETH}${"f".repeat(24)}"\\.$`),
    );
  });

  it("surrounding spaces are read past in numbers and the commitment, not in addresses (the verifier compares those as written)", () => {
    expect(problems({ ...PRODUCTION, ETH_CHAIN_ID: " 1 ", ETH_CONFIRMATIONS: " 12 ", SOL_COMMITMENT: " finalized " })).toEqual([]);
    refused({ ...PRODUCTION, PLATFORM_ETH_ADDRESS: ` ${OWN_ETH}` }, "PLATFORM_ETH_ADDRESS", /must be an Ethereum address/);
    refused({ ...PRODUCTION, PLATFORM_SOL_ADDRESS: `${OWN_SOL} ` }, "PLATFORM_SOL_ADDRESS", /must be a Solana address/);
  });

  it(`on chain id 1 at least ${MAINNET_MIN_CONFIRMATIONS}; depth 1 is refused there, accepted on a testnet and locally`, () => {
    refused({ ...PRODUCTION, ETH_CONFIRMATIONS: "1" }, "ETH_CONFIRMATIONS", /is 1 on Ethereum mainnet .* at least 12/);
    refused({ ...PRODUCTION, ETH_CONFIRMATIONS: "11" }, "ETH_CONFIRMATIONS", /at least 12/);
    expect(problems({ ...PRODUCTION, ETH_CONFIRMATIONS: " 64 " })).toEqual([]);
    expect(problems({ ...PRODUCTION, ETH_CONFIRMATIONS: "1000" })).toEqual([]);
    expect(problems({ ...PRODUCTION, ETH_CHAIN_ID: "11155111", ETH_CONFIRMATIONS: "1" })).toEqual([]);
    expect(problems({ ...LOCAL, ETH_CONFIRMATIONS: "1" })).toEqual([]);
  });

  it("ETH_CHAIN_ID must be a chain id", () => {
    for (const value of [undefined, "", "mainnet", "0", "-1", "1.0", "0x1"])
      refused({ ...PRODUCTION, ETH_CHAIN_ID: value }, "ETH_CHAIN_ID", /positive whole number/);
    // A chain id that is not one is refused once, whatever the node says.
    refused({ ...PRODUCTION, ETH_CHAIN_ID: "mainnet" }, "ETH_CHAIN_ID", /positive whole number/, { ethChainId: 1 });
  });
});

describe("SOL_COMMITMENT is refused rather than coerced", () => {
  it.each([
    ["missing", undefined],
    ["processed", "processed"],
    ["another case", "Finalized"],
    ["a typo", "finalised"],
    ["empty", ""],
  ])("%s: refused", (_, value) => {
    refused({ ...PRODUCTION, SOL_COMMITMENT: value }, "SOL_COMMITMENT", /must be "confirmed" or "finalized"/);
    refused({ ...LOCAL, SOL_COMMITMENT: value }, "SOL_COMMITMENT", /must be "confirmed" or "finalized"/);
  });

  it('anything but "finalized" on mainnet, recognised by the RPC host', () => {
    refused(
      { ...PRODUCTION, SOL_COMMITMENT: "confirmed" },
      "SOL_COMMITMENT",
      /"confirmed" on Solana mainnet \(SOL_RPC_URL is not a local, devnet or testnet host\); it must be "finalized"/,
    );
    expect(problems({ ...PRODUCTION, SOL_RPC_URL: "https://api.devnet.solana.com", SOL_COMMITMENT: "confirmed" })).toEqual([]);
    expect(problems({ ...PRODUCTION, SOL_RPC_URL: "https://api.testnet.solana.com", SOL_COMMITMENT: "confirmed" })).toEqual([]);
  });

  it("or by the node's genesis hash, whatever the host says", () => {
    const devnetNamed = { ...PRODUCTION, SOL_RPC_URL: "https://devnet-proxy.example", SOL_COMMITMENT: "confirmed" };
    expect(problems(devnetNamed)).toEqual([]);
    refused(devnetNamed, "SOL_COMMITMENT", /the node's genesis hash is mainnet-beta's/, { solGenesisHash: SOLANA_GENESIS_HASHES["mainnet-beta"] });
    // A loopback URL tunnelled to mainnet is mainnet: the dev platform address and "confirmed" are both refused.
    const tunnel = { solGenesisHash: SOLANA_GENESIS_HASHES["mainnet-beta"] };
    refused(LOCAL, "SOL_COMMITMENT", /mainnet/, tunnel);
    refused(LOCAL, "PLATFORM_SOL_ADDRESS", /public dev account 9/, tunnel);
    refused({ ...LOCAL, SOL_COMMITMENT: "finalized" }, "PLATFORM_SOL_ADDRESS", /public dev account 9/, { solGenesisHash: SOLANA_GENESIS_HASHES.devnet });
  });
});

describe("the node must be the configured chain", () => {
  it("an Ethereum node serving another chain id is refused", () => {
    refused(PRODUCTION, "ETH_CHAIN_ID", /ETH_CHAIN_ID is 1, but the node at ETH_RPC_URL serves chain id 11155111/, { ethChainId: 11155111 });
    refused(LOCAL, "ETH_CHAIN_ID", /serves chain id 1:/, { ethChainId: 1 });
    // ... and a node that is not the configured dev chain is no local chain: its dev accounts are refused too.
    refused(LOCAL, "PLATFORM_ETH_ADDRESS", /public dev account 9/, { ethChainId: 1 });
    expect(problems(PRODUCTION, { ethChainId: 1 })).toEqual([]);
    // A node that did not answer proves nothing either way.
    expect(problems(PRODUCTION, { ethChainId: null, solGenesisHash: null })).toEqual([]);
  });
});

describe("platform addresses must be addresses", () => {
  it("refuses malformed ones, a bad EIP-55 checksum, and the zero address", () => {
    for (const value of [undefined, "", "0x1234", OWN_ETH.replace("E7", "e7"), "0x0000000000000000000000000000000000000000"])
      refused({ ...PRODUCTION, PLATFORM_ETH_ADDRESS: value }, "PLATFORM_ETH_ADDRESS", /must be an Ethereum address/);
    expect(problems({ ...PRODUCTION, PLATFORM_ETH_ADDRESS: OWN_ETH.toLowerCase() })).toEqual([]);
    for (const value of [undefined, "", "0OIl", `0${OWN_SOL}`, "11111111111111111111111111111111111"])
      refused({ ...PRODUCTION, PLATFORM_SOL_ADDRESS: value }, "PLATFORM_SOL_ADDRESS", /must be a Solana address/);
  });
});

describe("the public dev accounts", () => {
  it("are accounts 0-9 of the test mnemonic on both chains, including every one scripts/dev-accounts.ts uses", () => {
    const seed = mnemonicToSeedSync(LOCAL_CHAIN.mnemonic);
    for (let i = 0; i < 10; i++) {
      expect(PUBLIC_DEV_ETH_ADDRESSES[i]).toBe(mnemonicToAccount(LOCAL_CHAIN.mnemonic, { addressIndex: i }).address);
      expect(PUBLIC_DEV_SOL_ADDRESSES[i]).toBe(base58.encode(ed25519.getPublicKey(slip10Ed25519(seed, [44, 501, i, 0]))));
    }
    for (const a of Object.values(DEV_ACCOUNTS)) expect(PUBLIC_DEV_ETH_ADDRESSES[a.index]).toBe(a.address);
    for (const a of Object.values(SOLANA_DEV_ACCOUNTS)) expect(PUBLIC_DEV_SOL_ADDRESSES[a.index]).toBe(a.address);
  });
});

describe("solanaCluster and this machine's hosts", () => {
  it("reads the cluster from the RPC host; anything unrecognised is mainnet", () => {
    expect(solanaCluster("https://api.devnet.solana.com")).toBe("devnet");
    expect(solanaCluster("https://api.testnet.solana.com")).toBe("testnet");
    expect(solanaCluster("https://rpc.example.com/?api-key=secret")).toBe("mainnet-beta");
    // Unreadable: no public explorer link (and checkPaymentSettings refuses it).
    expect(solanaCluster("not a url")).toBe("localnet");
  });

  it.each([
    "http://localhost:8899",
    "http://LOCALHOST:8899",
    "http://validator.localhost:8899",
    "http://127.0.0.1:8899",
    "http://127.10.200.3:8899",
    "http://[::1]:8899",
    "http://0.0.0.0:8899",
  ])("%s is this machine", (url) => {
    expect(solanaCluster(url)).toBe("localnet");
    expect(problems({ ...PRODUCTION, SOL_RPC_URL: url })).toEqual([]);
  });

  it.each(["http://127.0.0.1.example.com", "http://localhost.example.com", "http://10.0.0.1:8899", "http://[::2]:8899", "http://notlocalhost:8899"])(
    "%s is not",
    (url) => {
      expect(solanaCluster(url)).toBe("mainnet-beta");
      refused({ ...PRODUCTION, SOL_RPC_URL: url }, "SOL_RPC_URL", /must use https/);
    },
  );
});

describe("the readers the verifiers and the admin role use", () => {
  it("readConfirmations: a whole number of blocks from 1 to the maximum, spaces trimmed, anything else null", () => {
    expect(readConfirmations("1")).toBe(1);
    expect(readConfirmations(" 12 ")).toBe(12);
    expect(readConfirmations("0012")).toBe(12);
    expect(readConfirmations(String(MAX_CONFIRMATIONS))).toBe(MAX_CONFIRMATIONS);
    for (const text of [undefined, "", " ", "0", String(MAX_CONFIRMATIONS + 1), "12.5", "1e3", "-3", "0x10", "twelve", "12 blocks", "00012"]) {
      expect(readConfirmations(text), String(text)).toBeNull();
    }
  });

  it("readCommitment: confirmed or finalized as written (spaces trimmed), never processed or another case", () => {
    expect(readCommitment("confirmed")).toBe("confirmed");
    expect(readCommitment(" finalized ")).toBe("finalized");
    for (const text of [undefined, "", "processed", "Finalized", "CONFIRMED", "final", "confirmed,finalized"])
      expect(readCommitment(text), String(text)).toBeNull();
  });

  it("bothChainsLocal: a loopback Ethereum node on a local chain id and a loopback Solana node, nothing else", () => {
    const local = { ETH_RPC_URL: "http://127.0.0.1:8545", ETH_CHAIN_ID: "31337", SOL_RPC_URL: "http://localhost:8899" };
    expect(bothChainsLocal(local)).toBe(true);
    expect(bothChainsLocal({ ...local, ETH_CHAIN_ID: " 1337 " })).toBe(true);
    expect(bothChainsLocal(LOCAL)).toBe(true);
    for (const [name, change] of [
      ["mainnet chain id", { ETH_CHAIN_ID: "1" }],
      ["no chain id", { ETH_CHAIN_ID: undefined }],
      ["hex chain id", { ETH_CHAIN_ID: "0x7a69" }],
      ["16-digit chain id", { ETH_CHAIN_ID: "0000000000031337" }],
      ["remote Ethereum node", { ETH_RPC_URL: "https://eth-mainnet.example" }],
      ["unreadable Ethereum URL", { ETH_RPC_URL: "127.0.0.1:8545" }],
      ["no Ethereum URL", { ETH_RPC_URL: undefined }],
      ["remote Solana node", { SOL_RPC_URL: "https://api.devnet.solana.com" }],
      ["unreadable Solana URL", { SOL_RPC_URL: "not a url" }],
      ["no Solana URL", { SOL_RPC_URL: undefined }],
    ] as const) {
      expect(bothChainsLocal({ ...local, ...change }), name).toBe(false);
    }
  });

  it("isPublicDevWallet: every public dev account (Ethereum in any case, Solana exactly), no other address", () => {
    for (const a of PUBLIC_DEV_ETH_ADDRESSES) {
      expect(isPublicDevWallet(a), a).toBe(true);
      expect(isPublicDevWallet(a.toLowerCase()), a).toBe(true);
      expect(isPublicDevWallet(`0x${a.slice(2).toUpperCase()}`), a).toBe(true);
    }
    for (const a of PUBLIC_DEV_SOL_ADDRESSES) {
      expect(isPublicDevWallet(a), a).toBe(true);
      expect(isPublicDevWallet(a.toLowerCase()), a).toBe(false);
    }
    for (const a of [OWN_ETH, OWN_SOL, "", "0x", PUBLIC_DEV_ETH_ADDRESSES[0].slice(0, 41)]) expect(isPublicDevWallet(a), a).toBe(false);
  });
});
