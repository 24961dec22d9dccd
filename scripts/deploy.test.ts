// `npm run deploy` refuses before uploading while a required production setting is missing or is a dev value
// (docs/deploying.md). The configuration is the committed wrangler.toml as wrangler itself reads it; only the
// upload (and the build, which `npm run check` covers) are replaced: Cloudflare cannot be reached from a test.
import { describe, expect, it } from "vitest";
import { DEV_ACCOUNTS, SOLANA_DEV_ACCOUNTS } from "../schema/dev-accounts";
import { type DeployConfig, type DeployFacts, deployProblems } from "./deploy-check";
import { type DeployIo, deploy, deployOptions, readWranglerConfig } from "./deploy";

const committed = readWranglerConfig();
const OWN_ETH = "0x52908400098527886E0F7030069857D2E4169EE7";
const OWN_SOL = "GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW";
const ALL_SECRETS = ["KEY_ENCRYPTION_SECRET", "SESSION_SECRET", "ETH_RPC_URLS", "SOL_RPC_URLS"];
/** The required secrets and the alert webhook, which production needs unless the deploy says --no-alerts. */
const SECRETS_SET = [...ALL_SECRETS, "ALERT_WEBHOOK_URL"];
const NO_ALERTS =
  "ALERT_WEBHOOK_URL is not set: a store that cannot tell its operator about a late payment, a refund due or a node down is not ready to take money. Set it (npx wrangler secret put ALERT_WEBHOOK_URL --env production; docs/operations.md#alerts), or run npm run deploy -- --no-alerts to go without alerts on purpose.";

/** The committed [env.production] with an operator's own values filled in. */
const FILLED: DeployConfig = {
  ...committed.production,
  vars: {
    ...committed.production.vars,
    PLATFORM_ETH_ADDRESS: OWN_ETH,
    PLATFORM_SOL_ADDRESS: OWN_SOL,
    ADMIN_WALLETS: `${OWN_ETH},${OWN_SOL}`,
    SUPPORT_CONTACT: "help@vanity.example",
    SITE_ORIGIN: "https://vanity.example",
  },
  d1: [{ binding: "DB", database_id: "3f2b9c1e-5d4a-4e8f-9b7c-1a2b3c4d5e6f" }],
};
const facts: DeployFacts = { localVarNames: committed.localVarNames, secrets: SECRETS_SET };
const filled = (vars: Record<string, unknown>) => ({ ...FILLED, vars: { ...FILLED.vars, ...vars } });

function refusedFor(config: DeployConfig, pattern: RegExp, f: DeployFacts = facts) {
  const problems = deployProblems(config, f);
  expect(
    problems.some((p) => pattern.test(p)),
    problems.join("\n"),
  ).toBe(true);
}

describe("the committed wrangler.toml", () => {
  it("keeps production apart from the local defaults: its own vars, the production values written, nothing local", () => {
    expect(committed.production.vars).toMatchObject({ ETH_CHAIN_ID: "1", ETH_CONFIRMATIONS: "12", SOL_CLUSTER: "mainnet-beta", SOL_COMMITMENT: "finalized" });
    const values = Object.values(committed.production.vars).join(" ");
    for (const local of ["127.0.0.1", "localhost", DEV_ACCOUNTS.admin.address, DEV_ACCOUNTS.platform.address, SOLANA_DEV_ACCOUNTS.platform.address])
      expect(values).not.toContain(local);
    // The RPC URLs carry an API key: secrets, never committed vars.
    expect(committed.production.requiredSecrets).toEqual(expect.arrayContaining(ALL_SECRETS));
    expect(committed.production.vars).not.toHaveProperty("ETH_RPC_URL");
    expect(committed.production.vars).not.toHaveProperty("ETH_RPC_URLS");
    expect(committed.production.vars).toMatchObject({ ETH_RPC_QUORUM: "2", SOL_RPC_QUORUM: "2" });
    expect(committed.production.crons.length).toBeGreaterThan(0);
  });

  it("as committed, is refused: each setting an operator must write is named", () => {
    const problems = deployProblems(committed.production, facts);
    for (const setting of ["PLATFORM_ETH_ADDRESS", "PLATFORM_SOL_ADDRESS", "ADMIN_WALLETS", "SUPPORT_CONTACT", "SITE_ORIGIN"])
      expect(
        problems.some((p) => p.startsWith(setting)),
        `${setting} in\n${problems.join("\n")}`,
      ).toBe(true);
    expect(problems).toContainEqual(expect.stringMatching(/^The production database_id is not set/));
  });

  it("filled in with an operator's own values and secrets, passes", () => {
    expect(deployProblems(FILLED, facts)).toEqual([]);
  });
});

describe("npm run deploy refuses", () => {
  it("the public dev values of the local [vars], whichever setting carries them", () => {
    refusedFor(
      filled({ PLATFORM_ETH_ADDRESS: DEV_ACCOUNTS.platform.address }),
      /^PLATFORM_ETH_ADDRESS is public dev account 9 .*anyone could take the payments/,
    );
    refusedFor(filled({ PLATFORM_SOL_ADDRESS: SOLANA_DEV_ACCOUNTS.platform.address }), /^PLATFORM_SOL_ADDRESS is public dev account 9/);
    refusedFor(filled({ ADMIN_WALLETS: `${OWN_ETH},${DEV_ACCOUNTS.admin.address}` }), /^ADMIN_WALLETS lists 0xf39F.*anyone could sign in as admin/);
    // Hardhat's account 15 and Ganache's account 0 too.
    refusedFor(filled({ ADMIN_WALLETS: "0xcd3B766CCDd6AE721141F452C550Ca635964ce71" }), /^ADMIN_WALLETS lists .*account 15 of the test mnemonic/);
    refusedFor(filled({ PLATFORM_ETH_ADDRESS: "0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1" }), /Ganache's deterministic mnemonic/);
    refusedFor(filled({ SITE_ORIGIN: "http://localhost:8787" }), /^SITE_ORIGIN is http:\/\/localhost:8787, on the deploying machine/);
    refusedFor(filled({ ETH_CHAIN_ID: "31337", ETH_CONFIRMATIONS: "2" }), /^ETH_CHAIN_ID is 31337 while SOL_CLUSTER is "mainnet-beta"/);
    refusedFor(filled({ SOL_CLUSTER: "localnet" }), /^SOL_CLUSTER is "localnet", but SOL_RPC_URL is not on this machine/);
  });

  it("a shallow depth, a weak commitment, a cluster that does not go with Ethereum mainnet", () => {
    refusedFor(filled({ ETH_CONFIRMATIONS: "2" }), /^ETH_CONFIRMATIONS is 2 on Ethereum mainnet/);
    refusedFor(filled({ SOL_COMMITMENT: "confirmed" }), /^SOL_COMMITMENT is "confirmed" on Solana mainnet/);
    refusedFor(filled({ SOL_CLUSTER: "devnet" }), /^SOL_CLUSTER is "devnet" while ETH_CHAIN_ID is 1/);
  });

  it("another chain whose coins have value deploys under the mainnet rules; a chain id nobody declared does not", () => {
    expect(deployProblems(filled({ ETH_CHAIN_ID: "8453" }), facts)).toEqual([]);
    expect(deployProblems(filled({ ETH_CHAIN_ID: "137", ETH_CONFIRMATIONS: "12" }), facts)).toEqual([
      "ETH_CONFIRMATIONS is 12 on Polygon PoS (chain id 137); it must be at least 256, or a reorganised block could take back a payment after the key is released.",
    ]);
    refusedFor(filled({ ETH_CHAIN_ID: "424242" }), /^ETH_CHAIN_ID is 424242, a chain this site does not know/);
    refusedFor(filled({ ETH_CHAIN_ID: "8453", ETH_TEST_CHAIN_ID: "8453" }), /^ETH_TEST_CHAIN_ID declares chain id 8453 \(Base\) a test chain/);
  });

  it("a missing setting: empty, absent from production (vars are not inherited), or a secret not set", () => {
    refusedFor(filled({ SUPPORT_CONTACT: " " }), /^SUPPORT_CONTACT must be set/);
    refusedFor(filled({ KEY_ENCRYPTION_VERSION: "one" }), /^KEY_ENCRYPTION_VERSION must be a positive whole number/);
    refusedFor(filled({ ADMIN_WALLETS: "me" }), /^ADMIN_WALLETS lists "me", which is not an Ethereum or Solana address/);
    const { SOL_CLUSTER: _, ...withoutCluster } = FILLED.vars;
    refusedFor({ ...FILLED, vars: withoutCluster }, /^SOL_CLUSTER is set in the local \[vars\] but not in \[env\.production\.vars\]/);
    refusedFor(FILLED, /^SESSION_SECRET is not set: npx wrangler secret put SESSION_SECRET --env production/, {
      ...facts,
      secrets: ["KEY_ENCRYPTION_SECRET", "ETH_RPC_URLS", "SOL_RPC_URLS", "ALERT_WEBHOOK_URL"],
    });
    refusedFor(FILLED, /^SOL_RPC_URLS is not set/, { ...facts, secrets: ["KEY_ENCRYPTION_SECRET", "SESSION_SECRET", "ETH_RPC_URLS"] });
    refusedFor(FILLED, /^The production secrets could not be listed .*not logged in/, { ...facts, secrets: "You are not logged in." });
    refusedFor({ ...FILLED, d1: [{ binding: "DB", database_id: "00000000-0000-0000-0000-000000000000" }] }, /^The production database_id is not set/);
    refusedFor({ ...FILLED, crons: [] }, /^No cron trigger/);
  });

  it("a production without ALERT_WEBHOOK_URL, saying why, unless --no-alerts says so on purpose", () => {
    expect(deployProblems(FILLED, { ...facts, secrets: ALL_SECRETS })).toEqual([NO_ALERTS]);
    expect(deployProblems(FILLED, { ...facts, secrets: ALL_SECRETS, noAlerts: true })).toEqual([]);
    // Set, --no-alerts changes nothing.
    expect(deployProblems(FILLED, { ...facts, noAlerts: true })).toEqual([]);
    // An empty var is not set; a var is committed, and the webhook URL carries its token: refused either way.
    const asVar =
      "ALERT_WEBHOOK_URL is in [env.production.vars]: a webhook URL carries its token, and a var is committed. Remove it from wrangler.toml and set it as a secret: npx wrangler secret put ALERT_WEBHOOK_URL --env production";
    expect(deployProblems(filled({ ALERT_WEBHOOK_URL: "https://hooks.example/T0/B0/TOKEN" }), { ...facts, secrets: ALL_SECRETS })).toEqual([asVar]);
    expect(deployProblems(filled({ ALERT_WEBHOOK_URL: "" }), { ...facts, secrets: ALL_SECRETS, noAlerts: true })).toEqual([asVar]);
    // Secrets that could not be listed are refused as that alone.
    expect(deployProblems(FILLED, { ...facts, secrets: "You are not logged in." })).toEqual([
      "The production secrets could not be listed (npx wrangler secret list --env production): You are not logged in.",
    ]);
  });

  it("a secret's name among the vars (the var would overwrite the secret on every deploy)", () => {
    refusedFor(filled({ ETH_RPC_URLS: "https://eth.example/v2/KEY" }), /^ETH_RPC_URLS is in \[env\.production\.vars\] but is a secret/);
    refusedFor(filled({ SESSION_SECRET: "x".repeat(40) }), /^SESSION_SECRET is in \[env\.production\.vars\] but is a secret/);
  });

  it("a node that is not the configured chain, when its URL is a var the deploy can ask", () => {
    const withUrls = {
      ...filled({ ETH_RPC_URLS: "https://eth.example,https://eth.other.example", SOL_RPC_URLS: "https://sol.example,https://sol.other.example" }),
      requiredSecrets: ["KEY_ENCRYPTION_SECRET", "SESSION_SECRET"],
    };
    const f = { ...facts, secrets: ["KEY_ENCRYPTION_SECRET", "SESSION_SECRET", "ALERT_WEBHOOK_URL"] };
    expect(deployProblems(withUrls, f)).toEqual([]);
    refusedFor(withUrls, /^SOL_CLUSTER is "mainnet-beta", but the node at SOL_RPC_URL serves devnet/, {
      ...f,
      nodes: { solGenesisHash: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG" },
    });
    refusedFor(withUrls, /^ETH_CHAIN_ID is 1, but the node at ETH_RPC_URL serves chain id 11155111/, { ...f, nodes: { ethChainId: 11155111 } });
  });

  it("mainnet with one node per chain, nodes on one host, or a quorum of one: refused, naming the setting", () => {
    const f = { ...facts, secrets: ["KEY_ENCRYPTION_SECRET", "SESSION_SECRET", "ALERT_WEBHOOK_URL"] };
    const urls = (eth: string, sol: string, more: Record<string, string> = {}) => ({
      ...filled({ ETH_RPC_URLS: eth, SOL_RPC_URLS: sol, ...more }),
      requiredSecrets: ["KEY_ENCRYPTION_SECRET", "SESSION_SECRET"],
    });
    refusedFor(
      urls("https://eth.example", "https://a.sol.example,https://b.sol.example", { ETH_RPC_QUORUM: "1" }),
      /^ETH_RPC_URLS must list at least 2 nodes on different hosts/,
      f,
    );
    refusedFor(
      urls("https://eth.example/a,https://eth.example/b", "https://a.sol.example,https://b.sol.example"),
      /^ETH_RPC_URLS must list at least 2 nodes on different hosts on mainnet \(it lists 2 on one host\)/,
      f,
    );
    refusedFor(
      urls("https://a.eth.example,https://b.eth.example", "https://a.sol.example,https://b.sol.example", { SOL_RPC_QUORUM: "1" }),
      /^SOL_RPC_QUORUM is 1 on mainnet; it must be at least 2/,
      f,
    );
    refusedFor(
      urls("https://a.eth.example,https://b.eth.example", "https://a.sol.example,https://b.sol.example", { ETH_RPC_QUORUM: "3" }),
      /^ETH_RPC_QUORUM must be a whole number of nodes from 1 to 2/,
      f,
    );
    expect(deployProblems(urls("https://a.eth.example,https://b.eth.example", "https://a.sol.example,https://b.sol.example"), f)).toEqual([]);
  });
});

/** The deploy's I/O with the upload recorded instead of run. */
function recordingIo(config: DeployConfig, secrets: string[] | string, leaks: string[] = []) {
  const ran: string[] = [];
  const lines: string[] = [];
  const io: DeployIo = {
    readConfig: () => ({ production: config, localVarNames: committed.localVarNames }),
    listSecrets: () => secrets,
    askNodes: async () => ({}),
    buildAndScan: () => {
      ran.push("build");
      return leaks;
    },
    wrangler: (args) => {
      ran.push(`wrangler ${args.join(" ")}`);
      return 0;
    },
    log: (line) => lines.push(line),
  };
  return { io, ran, lines };
}

describe("the deploy's steps", () => {
  it("refused: nothing is built, migrated or uploaded, and each problem is printed", async () => {
    const { io, ran, lines } = recordingIo(committed.production, SECRETS_SET);
    expect(await deploy(io)).toBe(1);
    expect(ran).toEqual([]);
    expect(lines[0]).toMatch(/^✗ Not deployed/);
    expect(lines.some((l) => l.includes("PLATFORM_ETH_ADDRESS"))).toBe(true);
  });

  it("a dev key in the build: nothing is migrated or uploaded", async () => {
    const { io, ran } = recordingIo(FILLED, SECRETS_SET, ["dist/assets/x.js contains the dev mnemonic"]);
    expect(await deploy(io)).toBe(1);
    expect(ran).toEqual(["build"]);
  });

  it("passed: build, then the migrations, then the upload, all to the production environment", async () => {
    const { io, ran } = recordingIo(FILLED, SECRETS_SET);
    expect(await deploy(io)).toBe(0);
    expect(ran).toEqual(["build", "wrangler d1 migrations apply DB --remote --env production", "wrangler deploy --env production"]);
  });

  it("without alerts: refused, nothing uploaded; with --no-alerts: uploaded, saying that no alert will be sent", async () => {
    const refused = recordingIo(FILLED, ALL_SECRETS);
    expect(await deploy(refused.io)).toBe(1);
    expect(refused.ran).toEqual([]);
    expect(refused.lines.slice(1)).toEqual([`  - ${NO_ALERTS}`]);
    const onPurpose = recordingIo(FILLED, ALL_SECRETS);
    expect(await deploy(onPurpose.io, { noAlerts: true })).toBe(0);
    expect(onPurpose.ran).toEqual(["build", "wrangler d1 migrations apply DB --remote --env production", "wrangler deploy --env production"]);
    expect(onPurpose.lines).toContain(
      "! --no-alerts: ALERT_WEBHOOK_URL is not set, so no alert will be sent (late payments, refunds due, nodes down): watch Admin > Health yourself.",
    );
    // With the webhook set there is nothing to say.
    const set = recordingIo(FILLED, SECRETS_SET);
    expect(await deploy(set.io, { noAlerts: true })).toBe(0);
    expect(set.lines.some((l) => l.includes("--no-alerts"))).toBe(false);
  });

  it("reads its options from the command line, and refuses one it does not know (a typo must not deploy)", () => {
    expect(deployOptions([])).toEqual({ checkOnly: false, noAlerts: false });
    expect(deployOptions(["--check", "--no-alerts"])).toEqual({ checkOnly: true, noAlerts: true });
    expect(deployOptions(["--chek"])).toBe('npm run deploy: unknown option "--chek" (the options are --check and --no-alerts).');
    expect(deployOptions(["--no-alert"])).toBe('npm run deploy: unknown option "--no-alert" (the options are --check and --no-alerts).');
  });

  it("--check stops after the check", async () => {
    const { io, ran } = recordingIo(FILLED, SECRETS_SET);
    expect(await deploy(io, { checkOnly: true })).toBe(0);
    expect(ran).toEqual([]);
  });
});
