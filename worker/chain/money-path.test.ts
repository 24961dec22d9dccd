// Every chain read that moves money or decides who someone is goes through the node layer's quorum: the payment
// verifier (payment-verifier.ts) for payments, the contract-signature check (contract-signature.ts) for sign-in; each
// asks every configured node and keeps what a quorum agrees on (docs/payments.md#trust-no-single-node). This test
// reads the money and identity code (purchases, custom orders, the cron jobs, the routes, sign-in) and fails when a
// file reaches a node another way: a node client, a raw JSON-RPC call, one node's verifier, or an RPC URL setting.
// Reads that decide no money are listed below with their reason.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..", "..");
const MONEY_DIRS = ["worker/purchases", "worker/orders", "worker/jobs", "worker/routes", "worker/auth"];

/**
 * Modules under worker/chain that money code may import: the verifier, its shapes, helpers that read no node, and
 * reads that ask every node themselves (the gas price's median, the Solana Pay blockhash a quorum holds, a contract
 * wallet's signature a quorum vouches for).
 */
const ALLOWED_CHAIN_MODULES = ["payment-verifier", "payment-types", "solana-transfer", "gas", "solana-blockhash", "contract-signature"];

/** Direct ways to a node. */
const NODE_ACCESS: [RegExp, string][] = [
  [/\bcreatePublicClient\b|\bethereumClient\b|\bhttp\s*\(/, "an Ethereum node client"],
  [/\bsolanaRpc(Batch)?\s*[<(]/, "a raw Solana JSON-RPC call"],
  [/\b(ethereumVerifier|solanaVerifier|pinnedToCluster|quorumVerifier)\b/, "one node's verifier, or the quorum built by hand"],
  [/\b(ETH|SOL)_RPC_URLS?\b|\brpcUrls\s*\(/, "an RPC URL setting"],
  [/\bnodes\s*\[\s*\d/, "one node of the deployment's list"],
];

/** Reads that decide no money, by file: what they may use, and why. */
const EXCEPTIONS: Record<string, { uses: RegExp; why: string }> = {
  // The local dev wallets' relay to the one local node (refused unless the deployment is local).
  "worker/routes/dev-chains.ts": { uses: /\bnodes\s*\[0\]/, why: "the local dev wallets' relay" },
  // The Solana cluster for explorer links while SOL_CLUSTER is unreadable.
  "worker/routes/config.ts": { uses: /\bnodes\s*\[0\]/, why: "an explorer link's cluster" },
};

/** What in `source` (the file `file`) reaches a node other than through the payment verifier. */
function moneyPathViolations(file: string, source: string): string[] {
  const found: string[] = [];
  const exception = EXCEPTIONS[file];
  for (const match of source.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+"\.\.\/chain\/([\w-]+)"/g)) {
    const [, typeOnly, names, module] = match;
    if (typeOnly || ALLOWED_CHAIN_MODULES.includes(module)) continue;
    const values = names
      .split(",")
      .map((n) => n.trim())
      .filter((n) => n && !n.startsWith("type "));
    const unexcused = values.filter((n) => n !== "solanaCommitment" && !exception?.uses.test(n));
    if (unexcused.length > 0) found.push(`${file} imports ${unexcused.join(", ")} from chain/${module}`);
  }
  for (const line of source.split("\n")) {
    if (/^\s*(\/\/|\*|\/\*)/.test(line) || /^\s*import\b/.test(line)) continue;
    for (const [pattern, what] of NODE_ACCESS)
      if (pattern.test(line) && !exception?.uses.test(line)) found.push(`${file} reaches ${what}: ${line.trim().slice(0, 120)}`);
  }
  return found;
}

/**
 * Settings that identity code (worker/auth, the contract-wallet check) would parse again from `env` instead of reading
 * the deployment the request was given: the nodes and quorum, local mode, the admin lists, the chain id, the site.
 */
const SETTINGS_READ =
  /\b(quorumOf|rpcUrls|isLocalDeployment|siteLocality|ethNodeLocality|solNodeLocality)\s*\(|\benv\.(ADMIN_WALLETS|ADMIN_CONTRACT_WALLETS|ETH_CHAIN_ID|SITE_ORIGIN)\b|\bsiteOf\(\s*(c\.)?env\b/;

function settingsReads(file: string, source: string): string[] {
  return source
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line) && SETTINGS_READ.test(line))
    .map((line) => `${file} reads the settings again: ${line.trim().slice(0, 120)}`);
}

/** A node picked by rewriting the settings (`{ ...env, ETH_RPC_URL: url }`): the node layer hands a verifier or client its node instead. */
const REWRITTEN_ENV = /\.\.\.\s*(c\.)?env\b[^}]*\b(ETH|SOL)_RPC_URLS?\s*:/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [rel] : [];
  });
}

describe("money and identity code reach the chain only through the node layer's quorum", () => {
  it("no file of purchases, orders, jobs, routes or sign-in calls a node client, a raw RPC, or one node's verifier", () => {
    const files = MONEY_DIRS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((f) => moneyPathViolations(f, fs.readFileSync(path.join(ROOT, f), "utf8")))).toEqual([]);
  });

  it("only payment-verifier.ts builds a node's verifier", () => {
    const builders = sourceFiles("worker").filter((f) =>
      /\b(ethereumVerifier|solanaVerifier|pinnedToCluster)\s*\(/.test(fs.readFileSync(path.join(ROOT, f), "utf8")),
    );
    expect(builders.sort()).toEqual([
      "worker/chain/ethereum-payments.ts",
      "worker/chain/payment-verifier.ts",
      "worker/chain/solana-cluster-pin.ts",
      "worker/chain/solana-payments.ts",
    ]);
  });

  it("no Worker code picks a node by rewriting the settings: verifiers and clients take their node", () => {
    const rewriting = sourceFiles("worker").filter((f) => REWRITTEN_ENV.test(fs.readFileSync(path.join(ROOT, f), "utf8")));
    expect(rewriting).toEqual([]);
    // The ways it was done before each verifier and client took its node.
    expect(REWRITTEN_ENV.test('if (network === "ethereum") return ethereumVerifier({ ...env, ETH_RPC_URL: url });')).toBe(true);
    expect(REWRITTEN_ENV.test("  const one = { ...env, SOL_RPC_URL: url };")).toBe(true);
    expect(REWRITTEN_ENV.test('ethereumClient({ ...env, ETH_RPC_URLS: url }).getBlock({ blockTag: "latest" })')).toBe(true);
    expect(REWRITTEN_ENV.test("ethereumVerifier(url, deployment.ethereum)")).toBe(false);
  });

  it("sign-in and sessions read the request's deployment (c.var.deployment), not the settings text again", () => {
    const files = [...sourceFiles("worker/auth"), "worker/chain/contract-signature.ts"];
    expect(files.flatMap((f) => settingsReads(f, fs.readFileSync(path.join(ROOT, f), "utf8")))).toEqual([]);
    // The ways it was read before: the nodes, local mode, the admin lists and the chain id, each parsed again from env.
    expect(settingsReads("worker/chain/contract-signature.ts", '  const { urls, quorum } = quorumOf(env, "ethereum");')).toHaveLength(1);
    expect(settingsReads("worker/auth/roles.ts", "  if (isPublicDevWallet(address) && !isLocalDeployment(env, host)) return false;")).toHaveLength(1);
    expect(settingsReads("worker/auth/roles.ts", "  return entries(env.ADMIN_WALLETS).some((entry) => sameAddress(network, entry, address));")).toHaveLength(1);
    expect(settingsReads("worker/auth/siwe.ts", "  const expectedChainId = Number(env.ETH_CHAIN_ID);")).toHaveLength(1);
    expect(settingsReads("worker/auth/sign-in.ts", "  const site = siteOf(env);")).toHaveLength(1);
    expect(settingsReads("worker/auth/roles.ts", "  if (isPublicDevWallet(address) && !rules.local) return false;")).toEqual([]);
  });

  it("catches each way around it (the check can fail)", () => {
    const file = "worker/purchases/new-money-path.ts";
    expect(moneyPathViolations(file, 'import { ethereumVerifier } from "../chain/ethereum-payments";')).toHaveLength(1);
    expect(moneyPathViolations(file, 'import { solanaRpc } from "../chain/solana-payments";')).toHaveLength(1);
    expect(moneyPathViolations(file, "  const tx = await solanaRpc<Tx>(url, 'getTransaction', [sig]);")).toHaveLength(1);
    expect(moneyPathViolations(file, "  const client = ethereumClient(env);")).toHaveLength(1);
    expect(moneyPathViolations(file, "  const res = await fetch(env.ETH_RPC_URL, { method: 'POST' });")).toHaveLength(1);
    expect(moneyPathViolations(file, "  const url = deployment.ethereum.nodes[0].url;")).toHaveLength(1);
    expect(moneyPathViolations(file, "  const v = paymentVerifier(deployment, network, recordDisagreements(db));")).toEqual([]);
    // The sign-in's old way: a client of its own on one URL.
    const signIn = "worker/auth/siwe.ts";
    expect(moneyPathViolations(signIn, 'import { ethereumChain } from "../chain/ethereum";')).toHaveLength(1);
    expect(moneyPathViolations(signIn, "  createPublicClient({ chain, transport: http(env.ETH_RPC_URL, { timeout: 5_000 }) })")).toHaveLength(2);
  });
});
