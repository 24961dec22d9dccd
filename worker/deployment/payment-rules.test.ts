// The payment settings production refuses (docs/production-settings.md). Each case is a deployment an operator
// could ship.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEV_ACCOUNTS, SOLANA_DEV_ACCOUNTS } from "../../schema/dev-accounts";
import { wranglerVars } from "../../scripts/test/wrangler-vars";
import { REAL_VALUE_EVM_CHAINS, TEST_EVM_CHAINS } from "./evm-chains";
import { isLocalDeployment } from "./local-mode";
import {
  checkDeployment,
  MAINNET_MIN_CONFIRMATIONS,
  MAX_CONFIRMATIONS,
  type DeploymentText,
  PUBLIC_DEV_ETH_ADDRESSES,
  PUBLIC_DEV_SOL_ADDRESSES,
  readCommitment,
  readConfirmations,
  SOLANA_GENESIS_HASHES,
  solanaCluster,
} from "./payment-rules";

/** wrangler.toml's top-level [vars], as `npm start` and the tests run them. */
const LOCAL: DeploymentText = wranglerVars(readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8"));
/** Where a request to `npm start`'s site comes, and where one to a deployed Worker does. */
const ON_THIS_MACHINE = { requestHost: "localhost" };
const ON_A_PUBLIC_HOST = { requestHost: "vanity.example" };

// Addresses nobody ships as dev accounts (fresh, valid, checksummed).
const OWN_ETH = "0x52908400098527886E0F7030069857D2E4169EE7";
const OWN_SOL = "GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW";

/** A production deployment on Ethereum mainnet and Solana mainnet, done right. */
const PRODUCTION: DeploymentText = {
  ETH_RPC_URL: "https://eth-mainnet.example/v2/SECRET-API-KEY",
  ETH_CHAIN_ID: "1",
  ETH_CONFIRMATIONS: "12",
  PLATFORM_ETH_ADDRESS: OWN_ETH,
  SOL_RPC_URL: "https://solana-rpc.example/?api-key=SECRET-API-KEY",
  // Two nodes per chain on different hosts, two of which must agree (docs/payments.md#trust-no-single-node).
  ETH_RPC_URLS: `https://eth-mainnet.example/v2/SECRET-API-KEY,${"https://eth-second.example/SECRET-API-KEY"}`,
  ETH_RPC_QUORUM: "2",
  SOL_RPC_URLS: "https://solana-rpc.example/?api-key=SECRET-API-KEY,https://sol-second.example/SECRET-API-KEY",
  SOL_RPC_QUORUM: "2",
  SOL_CLUSTER: "mainnet-beta",
  SOL_COMMITMENT: "finalized",
  PLATFORM_SOL_ADDRESS: OWN_SOL,
  ADMIN_WALLETS: `${OWN_ETH},${OWN_SOL}`,
  SITE_ORIGIN: "https://vanity.example",
};
/** A staging deployment on Sepolia and Solana devnet. */
const TESTNETS: DeploymentText = {
  ...PRODUCTION,
  ETH_CHAIN_ID: "11155111",
  ETH_CONFIRMATIONS: "1",
  SOL_RPC_URL: "https://api.devnet.solana.com",
  SOL_RPC_URLS: "",
  SOL_RPC_QUORUM: "",
  SOL_CLUSTER: "devnet",
  SOL_COMMITMENT: "confirmed",
};
const ETH_SECOND = "https://eth-second.example/SECRET-API-KEY";
const SOL_SECOND = "https://sol-second.example/SECRET-API-KEY";

function problems(env: DeploymentText, facts = {}): string[] {
  const check = checkDeployment(env, facts);
  return check.ok ? [] : check.problems;
}

function refused(env: DeploymentText, setting: string, pattern: RegExp = /./, facts = {}) {
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
    const check = checkDeployment(LOCAL);
    expect(check).toEqual({
      ok: true,
      settings: {
        production: false,
        ethereum: {
          chainId: 31337,
          local: true,
          recipient: DEV_ACCOUNTS.platform.address,
          confirmations: Number(LOCAL.ETH_CONFIRMATIONS),
          nodes: 1,
          quorum: 1,
        },
        solana: { cluster: "localnet", local: true, recipient: SOLANA_DEV_ACCOUNTS.platform.address, commitment: "confirmed", nodes: 1, quorum: 1 },
      },
    });
  });

  it("stay accepted when the local nodes answer for themselves, and when a request comes to this machine", () => {
    expect(checkDeployment(LOCAL, { ethChainId: 31337, solGenesisHash: "3fXAm4YAxbVzPiBDqVkNwmXJxSXsFFMTtbsfCx6G2sBc" }).ok).toBe(true);
    for (const requestHost of ["localhost", "127.0.0.1", "[::1]", "app.localhost"]) expect(checkDeployment(LOCAL, { requestHost }).ok, requestHost).toBe(true);
  });
});

describe("the local settings on a site that is not this machine (a deploy of wrangler.toml as committed)", () => {
  it("behind a public host name: the dev accounts are refused as platform addresses and admins, and SITE_ORIGIN says why", () => {
    const found = problems(LOCAL, ON_A_PUBLIC_HOST);
    expect(found).toEqual([
      expect.stringMatching(
        /^SITE_ORIGIN is "http:\/\/localhost:8787", on this machine, but this site is served at vanity\.example: these are the local settings/,
      ),
      expect.stringMatching(
        /^PLATFORM_ETH_ADDRESS is public dev account 9 .* not local \(the site is served at vanity\.example, not on this machine\), so anyone could take the payments/,
      ),
      expect.stringMatching(/^PLATFORM_SOL_ADDRESS is public dev account 9 .* not local \(the site is served at vanity\.example/),
      expect.stringMatching(/^ADMIN_WALLETS lists 0xf39F.* anyone could sign in as admin/),
      expect.stringMatching(/^ADMIN_WALLETS lists oeYf.* anyone could sign in as admin/),
    ]);
    // Whatever the nodes say: loopback nodes that answer are still behind a public site.
    expect(problems(LOCAL, { ...ON_A_PUBLIC_HOST, ethChainId: 31337, solGenesisHash: "3fXAm4YAxbVzPiBDqVkNwmXJxSXsFFMTtbsfCx6G2sBc" })).toHaveLength(5);
  });

  it("with a public SITE_ORIGIN and no request (the cron job, the deploy check): not local either", () => {
    const publicSite = { ...LOCAL, SITE_ORIGIN: "https://vanity.example" };
    refused(publicSite, "PLATFORM_ETH_ADDRESS", /not local \(SITE_ORIGIN is https:\/\/vanity\.example, not this machine\)/);
    refused(publicSite, "PLATFORM_SOL_ADDRESS", /public dev account 9/);
    expect(problems(publicSite).filter((p) => p.startsWith("ADMIN_WALLETS lists"))).toHaveLength(2);
    // ... and in a request to this machine too: the site is what SITE_ORIGIN says.
    refused(publicSite, "PLATFORM_ETH_ADDRESS", /SITE_ORIGIN is https:\/\/vanity\.example/, ON_THIS_MACHINE);
  });

  it("SITE_ORIGIN must be an origin, and https off this machine", () => {
    for (const value of [undefined, "", "vanity.example", "https://vanity.example/shop", "ftp://vanity.example"])
      refused({ ...PRODUCTION, SITE_ORIGIN: value }, "SITE_ORIGIN", /must be the site's origin/);
    refused({ ...PRODUCTION, SITE_ORIGIN: "http://vanity.example" }, "SITE_ORIGIN", /must use https/);
    // Without an origin nothing is local: the dev accounts go with it.
    refused({ ...LOCAL, SITE_ORIGIN: undefined }, "PLATFORM_ETH_ADDRESS", /not local \(SITE_ORIGIN is not an origin\)/);
    expect(problems({ ...PRODUCTION, SITE_ORIGIN: "https://vanity.example:8443" })).toEqual([]);
    expect(problems({ ...LOCAL, SITE_ORIGIN: "http://127.0.0.1:8790" }, { requestHost: "127.0.0.1" })).toEqual([]);
  });
});

describe("production (a chain that is not local)", () => {
  it("a correct mainnet configuration is accepted", () => {
    expect(checkDeployment(PRODUCTION)).toMatchObject({
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
    refused({ ...TESTNETS, PLATFORM_SOL_ADDRESS: PUBLIC_DEV_SOL_ADDRESSES[5] }, "PLATFORM_SOL_ADDRESS", /account 5/);
  });

  it("refuses Hardhat's accounts 10-19 and Ganache's deterministic accounts, on both chains", () => {
    refused(
      { ...PRODUCTION, PLATFORM_ETH_ADDRESS: PUBLIC_DEV_ETH_ADDRESSES[12] },
      "PLATFORM_ETH_ADDRESS",
      /public dev account 12 of the test mnemonic .*m\/44'\/60'\/0'\/0\/12/,
    );
    refused({ ...PRODUCTION, PLATFORM_ETH_ADDRESS: PUBLIC_DEV_ETH_ADDRESSES[19] }, "PLATFORM_ETH_ADDRESS", /account 19 /);
    // Ganache --deterministic's account 0.
    refused(
      { ...PRODUCTION, PLATFORM_ETH_ADDRESS: "0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1" },
      "PLATFORM_ETH_ADDRESS",
      /account 0 of Ganache's deterministic mnemonic/,
    );
    refused({ ...PRODUCTION, ADMIN_WALLETS: "0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1" }, "ADMIN_WALLETS", /Ganache's deterministic mnemonic/);
    const ganacheSol = PUBLIC_DEV_SOL_ADDRESSES.slice(42);
    expect(ganacheSol).toHaveLength(42);
    for (const address of [PUBLIC_DEV_SOL_ADDRESSES[15], PUBLIC_DEV_SOL_ADDRESSES[25], ganacheSol[0], ganacheSol[41]]) {
      refused({ ...PRODUCTION, PLATFORM_SOL_ADDRESS: address }, "PLATFORM_SOL_ADDRESS", /public dev account/);
      refused({ ...PRODUCTION, ADMIN_WALLETS: address }, "ADMIN_WALLETS", /public dev account/);
    }
    // Locally they are as usable as accounts 0-9 (a developer may run Ganache or Hardhat's 20 accounts).
    expect(problems({ ...LOCAL, PLATFORM_ETH_ADDRESS: PUBLIC_DEV_ETH_ADDRESSES[15], ADMIN_WALLETS: PUBLIC_DEV_ETH_ADDRESSES[25] })).toEqual([]);
  });

  it("one local chain does not make the other local: the dev address is refused where the chain is public", () => {
    const devnet = { ...LOCAL, SOL_RPC_URL: "https://api.devnet.solana.com", SOL_CLUSTER: "devnet" };
    refused(devnet, "PLATFORM_SOL_ADDRESS", /public dev account 9 .*not local \(SOL_RPC_URL is not on this machine\)/);
    expect(problems(devnet).some((p) => p.startsWith("PLATFORM_ETH_ADDRESS"))).toBe(false);
    // Either chain in public is production: the dev admin wallets go too.
    expect(problems(devnet).filter((p) => p.startsWith("ADMIN_WALLETS lists"))).toHaveLength(2);
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
    expect(checkDeployment(LOCAL).ok).toBe(true);
  });

  it("refuses plain http to a node that is not on this machine", () => {
    refused({ ...PRODUCTION, ETH_RPC_URLS: `http://eth.example:8545,${ETH_SECOND}` }, "ETH_RPC_URL", /https/);
    refused({ ...PRODUCTION, SOL_RPC_URLS: `http://sol.example,${SOL_SECOND}` }, "SOL_RPC_URL", /https/);
    refused({ ...PRODUCTION, SOL_RPC_URLS: `not a url SECRET,${SOL_SECOND}` }, "SOL_RPC_URL", /http\(s\) URL/);
    refused({ ...PRODUCTION, ETH_RPC_URLS: `ftp://eth.example,${ETH_SECOND}` }, "ETH_RPC_URL", /http\(s\) URL/);
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
    expect(problems(TESTNETS)).toEqual([]);
    expect(problems({ ...LOCAL, ETH_CONFIRMATIONS: "1" })).toEqual([]);
  });

  it("ETH_CHAIN_ID must be a chain id", () => {
    for (const value of [undefined, "", "mainnet", "0", "-1", "1.0", "0x1"])
      refused({ ...PRODUCTION, ETH_CHAIN_ID: value }, "ETH_CHAIN_ID", /positive whole number/);
    // A chain id that is not one is refused once, whatever the node says.
    refused({ ...PRODUCTION, ETH_CHAIN_ID: "mainnet" }, "ETH_CHAIN_ID", /positive whole number/, { ethChainId: 1 });
  });
});

describe("which EVM chains are mainnet (evm-chains.ts, docs/production-settings.md#which-chains-are-mainnet)", () => {
  const ONE_PROVIDER = "one node alone would decide which payments release keys.";
  // Written out here, not read from the table: a chain dropped from it, or a depth lowered, must fail a test.
  const REAL: [number, string, number][] = [
    [1, "Ethereum mainnet", 12],
    [10, "OP Mainnet", 12],
    [8453, "Base", 12],
    [42161, "Arbitrum One", 12],
    [42170, "Arbitrum Nova", 12],
    [59144, "Linea", 12],
    [324, "zkSync Era", 12],
    [534352, "Scroll", 12],
    [7777777, "Zora", 12],
    [81457, "Blast", 12],
    [130, "Unichain", 12],
    [137, "Polygon PoS", 256],
    [56, "BNB Smart Chain", 15],
    [43114, "Avalanche C-Chain", 12],
    [100, "Gnosis", 12],
  ];
  const TEST = [31337, 1337, 11155111, 17000, 560048, 84532, 11155420, 421614, 59141, 300, 534351, 80002, 97, 43113, 10200];
  const UNKNOWN = "424242";
  const unknownChain = (id: string) =>
    `ETH_CHAIN_ID is ${id}, a chain this site does not know, so nothing says whether its coins have value: if it is a test chain, declare it with ETH_TEST_CHAIN_ID = "${id}"; a chain whose coins have value needs its least confirmation depth in worker/deployment/evm-chains.ts first.`;

  it("the tables hold exactly these chains, none in both", () => {
    expect([...REAL_VALUE_EVM_CHAINS].map(([id, c]) => [id, c.name, c.minConfirmations])).toEqual(REAL);
    expect([...TEST_EVM_CHAINS]).toEqual(TEST);
    for (const id of TEST) expect(REAL_VALUE_EVM_CHAINS.has(id), String(id)).toBe(false);
  });

  it.each(REAL)("chain id %i (%s) gets the mainnet rules: depth at least %i, two nodes on different hosts, a quorum of two", (id, name, depth) => {
    const chain = { ...PRODUCTION, ETH_CHAIN_ID: String(id), ETH_CONFIRMATIONS: String(depth) };
    expect(checkDeployment(chain)).toMatchObject({
      ok: true,
      settings: { production: true, ethereum: { chainId: id, confirmations: depth, nodes: 2, quorum: 2 } },
    });
    expect(problems({ ...chain, ETH_CONFIRMATIONS: String(depth - 1) })).toEqual([
      `ETH_CONFIRMATIONS is ${depth - 1} on ${name} (chain id ${id}); it must be at least ${depth}, or a reorganised block could take back a payment after the key is released.`,
    ]);
    expect(problems({ ...chain, ETH_CONFIRMATIONS: "0" })).toEqual([
      `ETH_CONFIRMATIONS must be a whole number of blocks from 1 to 1000 (at least ${depth} on ${name}); it is "0".`,
    ]);
    expect(problems({ ...chain, ETH_RPC_URLS: "", ETH_RPC_QUORUM: "" })).toEqual([
      `ETH_RPC_URLS must list at least 2 nodes on different hosts on mainnet (it lists 1): ${ONE_PROVIDER}`,
      `ETH_RPC_QUORUM is 1 on mainnet; it must be at least 2, or ${ONE_PROVIDER}`,
    ]);
    // Its coins are worth something: Solana beside it is mainnet-beta too, and it cannot be declared a test chain.
    expect(problems({ ...chain, SOL_CLUSTER: "devnet", SOL_COMMITMENT: "confirmed" })).toEqual([
      `SOL_CLUSTER is "devnet" while ETH_CHAIN_ID is ${id} (${name}): keys would sell for devnet SOL, which costs nothing. Use mainnet-beta, or test chains for both.`,
    ]);
    expect(problems({ ...chain, ETH_TEST_CHAIN_ID: String(id) })).toEqual([
      `ETH_TEST_CHAIN_ID declares chain id ${id} (${name}) a test chain, but its coins have real value and the mainnet rules hold there: remove ETH_TEST_CHAIN_ID.`,
    ]);
  });

  it.each(TEST)("chain id %i keeps the test rules: one node, depth 1, beside a Solana test cluster", (id) => {
    const chain = { ...TESTNETS, ETH_CHAIN_ID: String(id), ETH_RPC_URLS: "", ETH_RPC_QUORUM: "" };
    expect(checkDeployment(chain)).toMatchObject({ ok: true, settings: { ethereum: { chainId: id, confirmations: 1, nodes: 1, quorum: 1 } } });
    const solanaMainnet = { SOL_CLUSTER: "mainnet-beta", SOL_COMMITMENT: "finalized", SOL_RPC_URLS: PRODUCTION.SOL_RPC_URLS, SOL_RPC_QUORUM: "2" };
    expect(problems({ ...chain, ...solanaMainnet })).toEqual([
      `ETH_CHAIN_ID is ${id} while SOL_CLUSTER is "mainnet-beta": keys would sell for coins of a test chain, which cost nothing. Use a chain whose coins have real value (1 for Ethereum mainnet), or test chains for both.`,
    ]);
    // Declaring a known test chain a test chain changes nothing.
    expect(problems({ ...chain, ETH_TEST_CHAIN_ID: String(id) })).toEqual([]);
  });

  it("a chain id this site does not know is refused, naming the setting that declares a test chain; declared, it gets the test rules", () => {
    const unknown = { ...TESTNETS, ETH_CHAIN_ID: UNKNOWN };
    expect(problems(unknown)).toEqual([unknownChain(UNKNOWN)]);
    expect(problems({ ...unknown, ETH_TEST_CHAIN_ID: "" })).toEqual([unknownChain(UNKNOWN)]);
    expect(checkDeployment({ ...unknown, ETH_TEST_CHAIN_ID: UNKNOWN, ETH_RPC_URLS: "", ETH_RPC_QUORUM: "" })).toMatchObject({
      ok: true,
      settings: { production: true, ethereum: { chainId: 424242, confirmations: 1, nodes: 1, quorum: 1 } },
    });
    expect(problems({ ...unknown, ETH_CHAIN_ID: ` ${UNKNOWN} `, ETH_TEST_CHAIN_ID: ` 0${UNKNOWN} ` })).toEqual([]);
    // Declared, it is a test chain: not beside Solana mainnet.
    expect(problems({ ...PRODUCTION, ETH_CHAIN_ID: UNKNOWN, ETH_TEST_CHAIN_ID: UNKNOWN })).toEqual([
      `ETH_CHAIN_ID is ${UNKNOWN} while SOL_CLUSTER is "mainnet-beta": keys would sell for coins of a test chain, which cost nothing. Use a chain whose coins have real value (1 for Ethereum mainnet), or test chains for both.`,
    ]);
    // Undeclared beside Solana mainnet: refused once, as unknown.
    expect(problems({ ...PRODUCTION, ETH_CHAIN_ID: UNKNOWN })).toEqual([unknownChain(UNKNOWN)]);
    // anvil on this machine with a chain id of its own is no development chain: refused until declared.
    expect(problems({ ...LOCAL, ETH_CHAIN_ID: "999" })).toContain(unknownChain("999"));
    expect(problems({ ...LOCAL, ETH_CHAIN_ID: "999", ETH_TEST_CHAIN_ID: "999" }).filter((p) => p.startsWith("ETH_"))).toEqual([]);
  });

  it("ETH_TEST_CHAIN_ID declares only ETH_CHAIN_ID's own chain: any other value is refused, quoted", () => {
    const mismatch = (id: string, shown: string) =>
      `ETH_TEST_CHAIN_ID must be unset or ETH_CHAIN_ID's chain id (${id}): it declares that chain a test chain; it is ${shown}.`;
    expect(problems({ ...TESTNETS, ETH_CHAIN_ID: UNKNOWN, ETH_TEST_CHAIN_ID: "1" })).toEqual([mismatch(UNKNOWN, '"1"'), unknownChain(UNKNOWN)]);
    expect(problems({ ...TESTNETS, ETH_TEST_CHAIN_ID: "sepolia" })).toEqual([mismatch("11155111", '"sepolia"')]);
    expect(problems({ ...TESTNETS, ETH_TEST_CHAIN_ID: "0x aa36a7" })).toEqual([mismatch("11155111", '"0x aa36a7"')]);
    expect(problems({ ...TESTNETS, ETH_TEST_CHAIN_ID: "1".repeat(16) })).toEqual([mismatch("11155111", `"${"1".repeat(16)}"`)]);
    // Spellings Number() would read as the chain id are not a chain id as written: 0x67932 and 4.24242e5 are 424242.
    for (const spelling of ["0x67932", "4.24242e5"])
      expect(problems({ ...TESTNETS, ETH_CHAIN_ID: UNKNOWN, ETH_TEST_CHAIN_ID: spelling })).toEqual([
        mismatch(UNKNOWN, `"${spelling}"`),
        unknownChain(UNKNOWN),
      ]);
    expect(problems({ ...PRODUCTION, ETH_TEST_CHAIN_ID: "11155111" })).toEqual([mismatch("1", '"11155111"')]);
    // An unreadable ETH_CHAIN_ID is refused as that alone, whatever ETH_TEST_CHAIN_ID says.
    expect(problems({ ...TESTNETS, ETH_CHAIN_ID: "sepolia", ETH_TEST_CHAIN_ID: "11155111" })).toEqual([
      'ETH_CHAIN_ID must be a positive whole number (1 for Ethereum mainnet); it is "sepolia".',
    ]);
  });

  it("a test chain's depth may be 1 and the unreadable-depth refusal names no chain's least depth", () => {
    expect(problems({ ...TESTNETS, ETH_CONFIRMATIONS: "0" })).toEqual(['ETH_CONFIRMATIONS must be a whole number of blocks from 1 to 1000; it is "0".']);
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

  it('anything but "finalized" on mainnet, as SOL_CLUSTER says', () => {
    refused(
      { ...PRODUCTION, SOL_COMMITMENT: "confirmed" },
      "SOL_COMMITMENT",
      /"confirmed" on Solana mainnet \(SOL_CLUSTER is "mainnet-beta"\); it must be "finalized"/,
    );
    expect(problems({ ...TESTNETS, SOL_COMMITMENT: "confirmed" })).toEqual([]);
    expect(problems({ ...TESTNETS, SOL_RPC_URL: "https://api.testnet.solana.com", SOL_CLUSTER: "testnet" })).toEqual([]);
  });

  it("or as the node's genesis hash says, whatever SOL_CLUSTER and the host say", () => {
    const devnetNamed = { ...TESTNETS, SOL_RPC_URL: "https://devnet-proxy.example" };
    expect(problems(devnetNamed)).toEqual([]);
    refused(devnetNamed, "SOL_COMMITMENT", /the node's genesis hash is mainnet-beta's/, { solGenesisHash: SOLANA_GENESIS_HASHES["mainnet-beta"] });
    // A loopback URL tunnelled to mainnet is mainnet: the dev platform address and "confirmed" are both refused.
    const tunnel = { solGenesisHash: SOLANA_GENESIS_HASHES["mainnet-beta"] };
    refused(LOCAL, "SOL_COMMITMENT", /mainnet/, tunnel);
    refused(LOCAL, "PLATFORM_SOL_ADDRESS", /public dev account 9/, tunnel);
    refused({ ...LOCAL, SOL_COMMITMENT: "finalized" }, "PLATFORM_SOL_ADDRESS", /public dev account 9/, { solGenesisHash: SOLANA_GENESIS_HASHES.devnet });
  });
});

describe("SOL_CLUSTER pins the Solana cluster", () => {
  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["a typo", "mainnet"],
    ["another case", "Devnet"],
  ])("%s: refused", (_, value) => {
    refused(
      { ...PRODUCTION, SOL_CLUSTER: value },
      "SOL_CLUSTER",
      /must be the Solana cluster SOL_RPC_URL serves, one of mainnet-beta, devnet, testnet, localnet/,
    );
    refused({ ...LOCAL, SOL_CLUSTER: value }, "SOL_CLUSTER", /must be the Solana cluster/);
  });

  it("a node whose genesis hash is another cluster's is refused, naming both", () => {
    refused(PRODUCTION, "SOL_CLUSTER", /^SOL_CLUSTER is "mainnet-beta", but the node at SOL_RPC_URL serves devnet/, {
      solGenesisHash: SOLANA_GENESIS_HASHES.devnet,
    });
    refused(TESTNETS, "SOL_CLUSTER", /is "devnet", but the node .* serves testnet/, { solGenesisHash: SOLANA_GENESIS_HASHES.testnet });
    refused(TESTNETS, "SOL_CLUSTER", /serves a cluster that is not devnet \(genesis hash 3fXAm4/, {
      solGenesisHash: "3fXAm4YAxbVzPiBDqVkNwmXJxSXsFFMTtbsfCx6G2sBc",
    });
    refused(LOCAL, "SOL_CLUSTER", /is "localnet", but the node .* serves mainnet-beta/, { solGenesisHash: SOLANA_GENESIS_HASHES["mainnet-beta"] });
    expect(problems(PRODUCTION, { solGenesisHash: SOLANA_GENESIS_HASHES["mainnet-beta"] })).toEqual([]);
    expect(problems(TESTNETS, { solGenesisHash: SOLANA_GENESIS_HASHES.devnet })).toEqual([]);
  });

  it("ETH_CHAIN_ID 1 beside a devnet Solana node is refused, however it is written: faucet SOL would buy real keys", () => {
    // SOL_CLUSTER left at mainnet-beta, the URL repointed at devnet: the genesis hash tells.
    refused({ ...PRODUCTION, SOL_RPC_URLS: `https://api.devnet.solana.com,${SOL_SECOND}` }, "SOL_CLUSTER", /serves devnet/, {
      solGenesisHash: SOLANA_GENESIS_HASHES.devnet,
    });
    // SOL_CLUSTER written as devnet: Ethereum mainnet and a Solana test cluster do not mix.
    refused(
      { ...PRODUCTION, SOL_CLUSTER: "devnet", SOL_RPC_URLS: "https://api.devnet.solana.com" },
      "SOL_CLUSTER",
      /is "devnet" while ETH_CHAIN_ID is 1 .*costs nothing/,
    );
    refused({ ...TESTNETS, SOL_CLUSTER: "mainnet-beta", SOL_COMMITMENT: "finalized" }, "ETH_CHAIN_ID", /is 11155111 while SOL_CLUSTER is "mainnet-beta"/);
    // anvil beside Solana mainnet: the same.
    refused({ ...LOCAL, SOL_RPC_URL: PRODUCTION.SOL_RPC_URL, SOL_CLUSTER: "mainnet-beta", SOL_COMMITMENT: "finalized" }, "ETH_CHAIN_ID", /is 31337 while/);
  });

  it("a node that is not SOL_CLUSTER is refused once, as that (not also as a cluster that does not go with Ethereum mainnet)", () => {
    const mainnetNode = { solGenesisHash: SOLANA_GENESIS_HASHES["mainnet-beta"] };
    refused({ ...PRODUCTION, SOL_CLUSTER: "devnet" }, "SOL_CLUSTER", /is "devnet", but the node .* serves mainnet-beta/, mainnetNode);
    // An unreadable SOL_CLUSTER is refused as unreadable, whatever the node says.
    refused({ ...PRODUCTION, SOL_CLUSTER: "mainnet" }, "SOL_CLUSTER", /must be the Solana cluster/, mainnetNode);
  });

  it("each refusal of a dev account says why the deployment is not local", () => {
    const eth = (env: DeploymentText, reason: string, facts = {}) =>
      refused(env, "PLATFORM_ETH_ADDRESS", new RegExp(`not local \\(${reason.replace(/[().]/g, "\\$&")}\\), so anyone`), facts);
    eth({ ...LOCAL, ETH_RPC_URL: "https://eth.example" }, "ETH_RPC_URL is not on this machine");
    eth({ ...LOCAL, ETH_CHAIN_ID: "11155111", ETH_CONFIRMATIONS: "1" }, "ETH_CHAIN_ID 11155111 is not a development chain's");
    eth(LOCAL, "the node at ETH_RPC_URL serves chain id 1", { ethChainId: 1 });
    const sol = (env: DeploymentText, reason: string, facts = {}) =>
      refused(env, "PLATFORM_SOL_ADDRESS", new RegExp(`not local \\(${reason.replace(/[().']/g, "\\$&")}\\), so anyone`), facts);
    sol({ ...LOCAL, SOL_CLUSTER: "devnet", SOL_RPC_URL: "https://api.devnet.solana.com" }, "SOL_RPC_URL is not on this machine");
    sol({ ...LOCAL, SOL_CLUSTER: "testnet" }, "SOL_CLUSTER is not localnet");
    sol({ ...LOCAL, SOL_COMMITMENT: "finalized" }, "the node's genesis hash is devnet's", { solGenesisHash: SOLANA_GENESIS_HASHES.devnet });
    // The admin wallets: the first chain that is not local says why.
    refused({ ...LOCAL, SOL_CLUSTER: "testnet" }, "ADMIN_WALLETS lists oeYf", /not local \(SOL_CLUSTER is not localnet\)/);
  });

  it("localnet is a validator on this machine", () => {
    refused({ ...TESTNETS, SOL_CLUSTER: "localnet" }, "SOL_CLUSTER", /is "localnet", but SOL_RPC_URL is not on this machine/);
    expect(problems({ ...TESTNETS, SOL_RPC_URL: "http://127.0.0.1:8899", SOL_CLUSTER: "localnet" })).toEqual([]);
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
  it("start with the test mnemonic's accounts on both chains, including every one schema/dev-accounts.ts uses (public-dev-accounts.test.ts derives them all)", () => {
    for (const a of Object.values(DEV_ACCOUNTS)) expect(PUBLIC_DEV_ETH_ADDRESSES[a.index]).toBe(a.address);
    for (const a of Object.values(SOLANA_DEV_ACCOUNTS)) expect(PUBLIC_DEV_SOL_ADDRESSES[a.index]).toBe(a.address);
  });
});

describe("solanaCluster and this machine's hosts", () => {
  it("reads the cluster from the RPC host; anything unrecognised is mainnet", () => {
    expect(solanaCluster("https://api.devnet.solana.com")).toBe("devnet");
    expect(solanaCluster("https://api.testnet.solana.com")).toBe("testnet");
    expect(solanaCluster("https://rpc.example.com/?api-key=secret")).toBe("mainnet-beta");
    // Unreadable: no public explorer link (and checkDeployment refuses it).
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
    expect(problems({ ...PRODUCTION, SOL_RPC_URLS: `${url},${SOL_SECOND}` })).toEqual([]);
  });

  it.each(["http://127.0.0.1.example.com", "http://localhost.example.com", "http://10.0.0.1:8899", "http://[::2]:8899", "http://notlocalhost:8899"])(
    "%s is not",
    (url) => {
      expect(solanaCluster(url)).toBe("mainnet-beta");
      refused({ ...PRODUCTION, SOL_RPC_URLS: `${url},${SOL_SECOND}` }, "SOL_RPC_URL", /must use https/);
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

  it("isLocalDeployment: the site on this machine (request host and SITE_ORIGIN), a loopback Ethereum node on a local chain id, a loopback localnet validator; nothing else", () => {
    const local = {
      SITE_ORIGIN: "http://localhost:8787",
      ETH_RPC_URL: "http://127.0.0.1:8545",
      ETH_CHAIN_ID: "31337",
      SOL_RPC_URL: "http://localhost:8899",
      SOL_CLUSTER: "localnet",
    };
    expect(isLocalDeployment(local, "localhost")).toBe(true);
    expect(isLocalDeployment(local, null)).toBe(true);
    expect(isLocalDeployment({ ...local, ETH_CHAIN_ID: " 1337 " }, "127.0.0.1")).toBe(true);
    expect(isLocalDeployment(LOCAL, "localhost")).toBe(true);
    for (const host of ["vanity.example", "vanity-market.example.workers.dev", "127.0.0.1.example", "localhost.example", "10.0.0.1"])
      expect(isLocalDeployment(local, host), host).toBe(false);
    for (const [name, change] of [
      ["public SITE_ORIGIN", { SITE_ORIGIN: "https://vanity.example" }],
      ["no SITE_ORIGIN", { SITE_ORIGIN: undefined }],
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
      ["a public Solana cluster", { SOL_CLUSTER: "devnet" }],
      ["no Solana cluster", { SOL_CLUSTER: undefined }],
    ] as const) {
      expect(isLocalDeployment({ ...local, ...change }, "localhost"), name).toBe(false);
    }
  });
});

describe("several nodes per chain (docs/payments.md#trust-no-single-node)", () => {
  const single = { ...PRODUCTION, ETH_RPC_URLS: "", SOL_RPC_URLS: "", ETH_RPC_QUORUM: "", SOL_RPC_QUORUM: "" };
  it("mainnet with one node (the single-URL settings) is refused, naming the list setting", () => {
    refused({ ...single, SOL_RPC_URLS: PRODUCTION.SOL_RPC_URLS }, "ETH_RPC_URLS", /at least 2 nodes on different hosts on mainnet \(it lists 1\)/);
    refused({ ...single, ETH_RPC_URLS: PRODUCTION.ETH_RPC_URLS }, "SOL_RPC_URLS", /at least 2 nodes on different hosts/);
  });
  it("two URLs on one host are one provider: refused on mainnet", () => {
    refused({ ...PRODUCTION, ETH_RPC_URLS: "https://eth.example/a-SECRET,https://ETH.example/b-SECRET" }, "ETH_RPC_URLS", /it lists 2 on one host/);
  });
  it("a quorum of one on mainnet is refused; a quorum above the nodes, or unreadable, anywhere", () => {
    refused({ ...PRODUCTION, ETH_RPC_QUORUM: "1" }, "ETH_RPC_QUORUM", /is 1 on mainnet; it must be at least 2/);
    refused({ ...PRODUCTION, SOL_RPC_QUORUM: "3" }, "SOL_RPC_QUORUM", /from 1 to 2/);
    refused({ ...TESTNETS, ETH_RPC_QUORUM: "two" }, "ETH_RPC_QUORUM", /from 1 to 2 .*it is "two"/);
    refused({ ...TESTNETS, ETH_RPC_QUORUM: "0" }, "ETH_RPC_QUORUM", /from 1 to 2/);
  });
  it("unset, the quorum is a majority; testnets may run one node with a quorum of one", () => {
    const check = checkDeployment({
      ...PRODUCTION,
      ETH_RPC_QUORUM: undefined,
      SOL_RPC_URLS: `${PRODUCTION.SOL_RPC_URLS},https://third.example`,
      SOL_RPC_QUORUM: "",
    });
    expect(check.ok && [check.settings.ethereum.quorum, check.settings.solana.nodes, check.settings.solana.quorum]).toEqual([2, 3, 2]);
    expect(problems({ ...TESTNETS, ETH_RPC_URLS: "", ETH_RPC_QUORUM: "1" })).toEqual([]);
  });
  it("a node of the list that is not on this machine makes the chain not local", () => {
    refused(
      { ...LOCAL, ETH_RPC_URLS: "http://127.0.0.1:8545,https://eth.example" },
      "PLATFORM_ETH_ADDRESS",
      /not local \(ETH_RPC_URL is not on this machine\)/,
    );
  });
});

describe("the node list refusals name the setting to fix, as written", () => {
  const NO_ETH_NODE = "ETH_RPC_URL (or ETH_RPC_URLS) must be an http(s) URL of an Ethereum JSON-RPC node.";
  const NO_SOL_NODE = "SOL_RPC_URL (or SOL_RPC_URLS) must be an http(s) URL of a Solana JSON-RPC node.";
  const ONE_PROVIDER = "one node alone would decide which payments release keys.";
  const insecure = (name: string) => `${name} must use https for a node that is not on this machine: its answers decide which payments release keys.`;

  it("no node at all is refused once, naming both settings (a quorum written for nodes that are not there is not refused as well)", () => {
    // TESTNETS keeps ETH_RPC_QUORUM "2": with no node, only the missing node is the problem.
    expect(problems({ ...TESTNETS, ETH_RPC_URL: undefined, ETH_RPC_URLS: undefined })).toEqual([NO_ETH_NODE]);
    expect(problems({ ...TESTNETS, ETH_RPC_URL: " ", ETH_RPC_URLS: " , " })).toEqual([NO_ETH_NODE]);
    expect(problems({ ...TESTNETS, SOL_RPC_URL: undefined, SOL_RPC_URLS: undefined, SOL_RPC_QUORUM: "1" })).toEqual([NO_SOL_NODE]);
    // On mainnet the two-hosts rule says how many it found.
    expect(problems({ ...PRODUCTION, ETH_RPC_URL: undefined, ETH_RPC_URLS: undefined })).toEqual([
      NO_ETH_NODE,
      `ETH_RPC_URLS must list at least 2 nodes on different hosts on mainnet (it lists 0): ${ONE_PROVIDER}`,
    ]);
  });

  it("a single node is named by the single setting, even beside another chain's list or a blank list", () => {
    const solList = { ...TESTNETS, SOL_RPC_URLS: "https://api.devnet.solana.com,https://devnet-2.example", SOL_RPC_QUORUM: "2" };
    expect(problems(solList)).toEqual([]);
    expect(problems({ ...solList, ETH_RPC_URLS: undefined, ETH_RPC_URL: "http://eth.example:8545", ETH_RPC_QUORUM: "" })).toEqual([insecure("ETH_RPC_URL")]);
    // A list of spaces is no list: the single URL is the node, and the refusal names it.
    expect(problems({ ...solList, ETH_RPC_URLS: "   ", ETH_RPC_URL: "http://eth.example:8545", ETH_RPC_QUORUM: "" })).toEqual([insecure("ETH_RPC_URL")]);
    expect(problems({ ...TESTNETS, SOL_RPC_URL: "api.devnet.solana.com" })).toEqual(["SOL_RPC_URL must be an http(s) URL of a Solana JSON-RPC node."]);
    expect(problems({ ...TESTNETS, ETH_RPC_URLS: "", ETH_RPC_QUORUM: "2" })).toEqual([
      'ETH_RPC_QUORUM must be a whole number of nodes from 1 to 1 (the nodes in ETH_RPC_URL); it is "2".',
    ]);
  });

  it("a node of a list is named by the list setting and its place in it", () => {
    expect(problems({ ...PRODUCTION, ETH_RPC_URLS: `${ETH_SECOND},http://eth.example:8545` })).toEqual([insecure("ETH_RPC_URLS (node 2)")]);
    expect(problems({ ...PRODUCTION, ETH_RPC_URLS: `ftp://eth.example,${ETH_SECOND}` })).toEqual([
      "ETH_RPC_URLS (node 1) must be an http(s) URL of an Ethereum JSON-RPC node.",
    ]);
    expect(problems({ ...PRODUCTION, SOL_RPC_URLS: `${SOL_SECOND},https://sol-third.example,not a url SECRET`, SOL_RPC_QUORUM: "2" })).toEqual([
      "SOL_RPC_URLS (node 3) must be an http(s) URL of a Solana JSON-RPC node.",
    ]);
    expect(problems({ ...TESTNETS, ETH_RPC_QUORUM: "two" })).toEqual([
      'ETH_RPC_QUORUM must be a whole number of nodes from 1 to 2 (the nodes in ETH_RPC_URLS); it is "two".',
    ]);
  });

  it("host names that differ only in letter case are one host: one provider cannot pass the two-hosts rule", () => {
    const oneHost = `ETH_RPC_URLS must list at least 2 nodes on different hosts on mainnet (it lists 2 on one host): ${ONE_PROVIDER}`;
    expect(problems({ ...PRODUCTION, ETH_RPC_URLS: "https://RPC.A.example/SECRET-1,https://rpc.a.example/SECRET-2" })).toEqual([oneHost]);
    // Another port or path on the same host is the same provider too.
    expect(problems({ ...PRODUCTION, ETH_RPC_URLS: "https://rpc.a.example/SECRET-1,https://Rpc.A.Example:8443/SECRET-2" })).toEqual([oneHost]);
    expect(
      problems({ ...PRODUCTION, SOL_RPC_URLS: "https://sol.example/1-SECRET,https://SOL.EXAMPLE/2-SECRET,https://sol.example/3-SECRET", SOL_RPC_QUORUM: "2" }),
    ).toEqual([`SOL_RPC_URLS must list at least 2 nodes on different hosts on mainnet (it lists 3 on one host): ${ONE_PROVIDER}`]);
    // One URL is one node, whichever setting holds it.
    expect(problems({ ...PRODUCTION, SOL_RPC_URLS: "", SOL_RPC_QUORUM: "1" })).toEqual([
      `SOL_RPC_URLS must list at least 2 nodes on different hosts on mainnet (it lists 1): ${ONE_PROVIDER}`,
      `SOL_RPC_QUORUM is 1 on mainnet; it must be at least 2, or ${ONE_PROVIDER}`,
    ]);
  });

  it("one host however it is spelled (a trailing dot, an IPv4 address as IPv6, an IDN as punycode, another port): one provider cannot pass the two-hosts rule", () => {
    const oneHost = (setting: string, n: number) =>
      `${setting} must list at least 2 nodes on different hosts on mainnet (it lists ${n} on one host): ${ONE_PROVIDER}`;
    for (const list of [
      "https://rpc.x.example/SECRET-1,https://rpc.x.example./SECRET-2",
      "https://1.2.3.4/SECRET-1,https://[::ffff:1.2.3.4]/SECRET-2",
      "https://[::ffff:0102:0304]:8545/SECRET-1,https://0x01020304/SECRET-2",
      "https://bücher.example/SECRET-1,https://XN--BCHER-KVA.example./SECRET-2",
      "https://rpc.x.example:443/SECRET-1,https://rpc.x.example:8443/SECRET-2",
    ])
      expect(problems({ ...PRODUCTION, ETH_RPC_URLS: list }), list).toEqual([oneHost("ETH_RPC_URLS", 2)]);
    expect(
      problems({ ...PRODUCTION, SOL_RPC_URLS: "https://[64:ff9b::1.2.3.4]/SECRET-1,https://1.2.3.4./SECRET-2,https://[::ffff:0:1.2.3.4]/SECRET-3" }),
    ).toEqual([oneHost("SOL_RPC_URLS", 3)]);
    // Two hosts stay two, however they are written.
    expect(problems({ ...PRODUCTION, ETH_RPC_URLS: "https://[::ffff:1.2.3.4]/SECRET-1,https://1.2.3.5./SECRET-2" })).toEqual([]);
  });

  it("Solana's mainnet node rules apply when either the node's genesis hash or SOL_CLUSTER says mainnet-beta", () => {
    const oneSolNode = [
      `SOL_RPC_URLS must list at least 2 nodes on different hosts on mainnet (it lists 1): ${ONE_PROVIDER}`,
      `SOL_RPC_QUORUM is 1 on mainnet; it must be at least 2, or ${ONE_PROVIDER}`,
    ];
    const nodeProblems = (env: DeploymentText, facts: object) => problems(env, facts).filter((p) => p.startsWith("SOL_RPC_"));
    // The node says mainnet, SOL_CLUSTER says devnet (refused as a mismatch too): one node is still one node on mainnet.
    expect(nodeProblems(TESTNETS, { solGenesisHash: SOLANA_GENESIS_HASHES["mainnet-beta"] })).toEqual(oneSolNode);
    // SOL_CLUSTER says mainnet, the node says devnet: the operator meant mainnet, so its node rules hold.
    const pinnedMainnet = { ...PRODUCTION, SOL_RPC_URLS: "", SOL_RPC_QUORUM: "" };
    expect(nodeProblems(pinnedMainnet, { solGenesisHash: SOLANA_GENESIS_HASHES.devnet })).toEqual(oneSolNode);
    // Neither: a devnet deployment may run one node.
    expect(nodeProblems(TESTNETS, { solGenesisHash: SOLANA_GENESIS_HASHES.devnet })).toEqual([]);
  });

  it("a localnet pin refuses a list with any node off this machine", () => {
    const localnetPin = '"localnet", but SOL_RPC_URL is not on this machine: a node elsewhere is a public cluster\'s, or one nobody here controls.';
    for (const list of ["http://127.0.0.1:8899,https://api.devnet.solana.com", "https://api.devnet.solana.com,http://localhost:8899"])
      expect(problems({ ...TESTNETS, SOL_CLUSTER: "localnet", SOL_RPC_URLS: list }), list).toEqual([`SOL_CLUSTER is ${localnetPin}`]);
    expect(problems({ ...TESTNETS, SOL_CLUSTER: "localnet", SOL_RPC_URLS: "http://127.0.0.1:8899,http://localhost:8900" })).toEqual([]);
  });
});
