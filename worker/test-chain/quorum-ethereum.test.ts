// Trust no single node, on anvil (docs/payments.md#trust-no-single-node): the real node, a second honest node and a
// liar (lying-node.ts) behind the quorum verifier, quorum 2. For each lie: nothing is released, the purchase keeps
// waiting, the liar is recorded and its node-disagreement incident opens; without the liar the payment settles.
// The fee preview's gas price, with the liar as the first node, is the honest nodes' median.
import { env } from "cloudflare:test";
import { getAddress, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { NonceResponse, SessionResponse } from "../../schema/auth";
import { createApp } from "../app";
import { resetNodeChainIds } from "../chain/ethereum-payments";
import { currentGasPrice, resetGasPriceCache } from "../chain/gas";
import { paymentVerifier } from "../chain/payment-verifier";
import { createDb } from "../db/database";
import { runAlerts } from "../operations/alerts";
import { recordDisagreements } from "../operations/node-disagreements";
import { findPurchase } from "../purchases/purchase-row";
import { verifyPayment } from "../purchases/verify";
import { buyerAccount, sessionCookie } from "../test/auth-helpers";
import { clientOf, refusal } from "../test/client";
import { actors, listWithKey, purchaseRow, reserve, type Wallet } from "../test/purchase-fixtures";
import { hex, proxyNodes, type RpcAnswer } from "./lying-node";
import { amountOf, anvil, escrowOf, fundedBuyer, pay } from "./purchase-helpers";
import { readDeployment } from "../deployment/deployment";

let seller: Wallet;
let nodes: ReturnType<typeof proxyNodes>;
beforeAll(async () => {
  ({ seller } = await actors());
});
beforeEach(() => {
  resetNodeChainIds();
  nodes = proxyNodes(env.ETH_RPC_URL!, { second: 2, liar: 3 });
});
afterEach(() => nodes.restore());

const withNodes = (...names: string[]) => ({
  ...env,
  ETH_RPC_URLS: [env.ETH_RPC_URL!, ...names.map((n) => nodes.urls[n])].join(","),
  ETH_RPC_QUORUM: "2",
});

type Receipt = { blockHash: string; blockNumber: string; transactionHash: string };

/** A reserved purchase paid on anvil, buried to ETH_CONFIRMATIONS, and reported (pending with its hash). */
async function paidPurchase() {
  const buyer = await fundedBuyer();
  const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
  const hash = (await pay(buyer.account, await amountOf(buyer, id))).toLowerCase() as Hex;
  await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind(hash, id).run();
  const receipt = await anvil<Receipt>("eth_getTransactionReceipt", [hash]);
  return { buyer, id, hash, receipt };
}

async function verify(nodeEnv: ReturnType<typeof withNodes>, id: string, hash: string) {
  const db = createDb(env.DB);
  return verifyPayment(db, readDeployment(nodeEnv), (await findPurchase(db, id))!, hash);
}

/** Nothing released, still waiting, the liar recorded for this hash and its incident open. */
async function heldBack(id: string, hash: string, decision: unknown, since: number, named = [nodes.nameOf("liar")]) {
  expect(decision).toMatchObject({ outcome: "wait", note: "node-unavailable" });
  expect(await purchaseRow(id)).toMatchObject({ status: "pending" });
  expect((await escrowOf(hash))?.status ?? null).not.toBe("released");
  const rows = await env.DB.prepare("SELECT node FROM node_disagreements WHERE network = 'ethereum' AND tx_hash = ? AND last_seen_at >= ?")
    .bind(hash, since)
    .all<{ node: string }>();
  expect(rows.results.map((r) => r.node).sort()).toEqual([...named].sort());
  await runAlerts(createDb(env.DB), { ...env, ALERT_WEBHOOK_URL: "" }, Date.now());
  for (const node of named) {
    const incident = await env.DB.prepare("SELECT kind, state, text FROM alert_incidents WHERE key = ? AND state = 'open'")
      .bind(`node-disagreement:ethereum:${node}`)
      .first<{ kind: string; text: string }>();
    expect(incident).toMatchObject({ kind: "node_disagreement" });
    // Named by host, never by URL.
    expect(incident!.text).not.toContain("http");
  }
}

async function settlesWithoutTheLiar(id: string, hash: string) {
  expect((await verify(withNodes("second"), id, hash)).decision).toMatchObject({ outcome: "settle" });
  expect(await purchaseRow(id)).toMatchObject({ status: "completed" });
}

const rewrite = (method: string, change: (result: Record<string, unknown>) => void) => (c: { method: string }, a: RpcAnswer) => {
  if (c.method === method && a.result && typeof a.result === "object") change(a.result as Record<string, unknown>);
  return a;
};

describe("a lying node blocks the release and is named; without it the payment settles", () => {
  it("a larger amount", async () => {
    const since = Date.now();
    const { id, hash } = await paidPurchase();
    nodes.set("liar", { kind: "lie", answer: rewrite("eth_getTransactionByHash", (tx) => (tx.value = hex(BigInt(tx.value as string) * 2n))) });
    await heldBack(id, hash, (await verify(withNodes("second", "liar"), id, hash)).decision, since);
    await settlesWithoutTheLiar(id, hash);
  });

  it("a different block hash", async () => {
    const since = Date.now();
    const { id, hash } = await paidPurchase();
    const forged = `0x${"ab".repeat(32)}`;
    nodes.set("liar", {
      kind: "lie",
      answer: async (c, a) => {
        if (c.method === "eth_getTransactionReceipt" && a.result) (a.result as Receipt).blockHash = forged;
        if (c.method === "eth_getBlockByNumber" && a.result) (a.result as { hash: string }).hash = forged;
        return a;
      },
    });
    await heldBack(id, hash, (await verify(withNodes("second", "liar"), id, hash)).decision, since);
    await settlesWithoutTheLiar(id, hash);
  });

  it("a deeper block number", async () => {
    const since = Date.now();
    const { id, hash, receipt } = await paidPurchase();
    const deeper = hex(BigInt(receipt.blockNumber) - 5n);
    nodes.set("liar", {
      kind: "lie",
      answer: async (c, a) => {
        if (c.method === "eth_getTransactionReceipt" && a.result) (a.result as Receipt).blockNumber = deeper;
        // The block it names there carries the payment's block hash, so the lie is consistent.
        if (c.method === "eth_getBlockByNumber" && c.params?.[0] === deeper && a.result) (a.result as { hash: string }).hash = receipt.blockHash;
        return a;
      },
    });
    await heldBack(id, hash, (await verify(withNodes("second", "liar"), id, hash)).decision, since);
    await settlesWithoutTheLiar(id, hash);
  });

  it("a head far ahead (the payment far deeper than it is)", async () => {
    const since = Date.now();
    const { id, hash } = await paidPurchase();
    nodes.set("liar", { kind: "lie", answer: (c, a) => (c.method === "eth_blockNumber" ? { ...a, result: hex(BigInt(a.result as string) + 1000n) } : a) });
    await heldBack(id, hash, (await verify(withNodes("second", "liar"), id, hash)).decision, since);
    await settlesWithoutTheLiar(id, hash);
  });

  it("a receipt for a transaction that does not exist (another payment's, under the reported hash)", async () => {
    const since = Date.now();
    const { buyer, id, hash: real } = await paidPurchase();
    const wei = await amountOf(buyer, id);
    const fake = `0x${"5c".repeat(32)}`;
    await env.DB.prepare("UPDATE transactions SET tx_hash = ? WHERE id = ?").bind(fake, id).run();
    nodes.set("liar", {
      kind: "lie",
      call: (c) => (c.params?.[0] === fake ? { ...c, params: [real, ...c.params.slice(1)] } : c),
      answer: async (c, a) => {
        if (c.method === "eth_getTransactionByHash" && a.result) (a.result as { hash: string }).hash = fake;
        if (c.method === "eth_getTransactionReceipt" && a.result) (a.result as Receipt).transactionHash = fake;
        return a;
      },
    });
    // Alone, the liar would have it settle (the forgery is consistent: a payment from the buyer, final).
    const alone = paymentVerifier(readDeployment({ ...env, ETH_RPC_URLS: nodes.urls.liar, ETH_RPC_QUORUM: "1" }), "ethereum", null);
    expect(await alone.inspect(fake, { buyer: buyer.address, reference: null })).toMatchObject({
      kind: "found",
      fromBuyer: true,
      toPlatform: true,
      amount: wei,
    });
    const { decision } = await verify(withNodes("second", "liar"), id, fake);
    await heldBack(id, fake, decision, since);
    // The buyer reports the real payment: it settles on the honest nodes.
    await env.DB.prepare("UPDATE transactions SET tx_hash = ? WHERE id = ?").bind(real, id).run();
    await settlesWithoutTheLiar(id, real);
  });
});

describe("nodes that are down, slow or behind", () => {
  it("one node down: settles on the other two (quorum 2 of 3); with two nodes, waits until it is back", async () => {
    const { id, hash } = await paidPurchase();
    nodes.set("liar", { kind: "down" });
    expect((await verify(withNodes("liar"), id, hash)).decision).toMatchObject({ outcome: "wait", note: "node-unavailable" });
    expect(await purchaseRow(id)).toMatchObject({ status: "pending" });
    expect((await verify(withNodes("second", "liar"), id, hash)).decision).toMatchObject({ outcome: "settle" });
    const none = await env.DB.prepare("SELECT count(*) AS n FROM node_disagreements WHERE tx_hash = ?").bind(hash).first<{ n: number }>();
    expect(none!.n).toBe(0);
  });

  it("a node that times out: the others decide (it is not waited on past its timeout)", async () => {
    const { id, hash } = await paidPurchase();
    nodes.set("liar", { kind: "hang" });
    expect((await verify(withNodes("second", "liar"), id, hash)).decision).toMatchObject({ outcome: "settle" });
  });

  it("nodes at different heads: the quorum's depth (the second deepest), not the deepest node's", async () => {
    const { id, hash } = await paidPurchase();
    // The second node is a block behind.
    nodes.set("second", { kind: "lie", answer: (c, a) => (c.method === "eth_blockNumber" ? { ...a, result: hex(BigInt(a.result as string) - 1n) } : a) });
    const first = await verify(withNodes("second"), id, hash);
    expect(first.decision).toMatchObject({ outcome: "wait", note: "confirming", confirmations: Number(env.ETH_CONFIRMATIONS) - 1 });
    expect(await purchaseRow(id)).toMatchObject({ status: "pending" });
    await anvil("anvil_mine", ["0x1"]);
    expect((await verify(withNodes("second"), id, hash)).decision).toMatchObject({ outcome: "settle" });
    const none = await env.DB.prepare("SELECT count(*) AS n FROM node_disagreements WHERE tx_hash = ?").bind(hash).first<{ n: number }>();
    expect(none!.n).toBe(0);
  });
});

describe("the scan through the quorum", () => {
  it("a transfer counts when the nodes list it alike; a node listing it with another amount stops the window and is named", async () => {
    const { hash, receipt } = await paidPurchase();
    const cursor = { nextBlock: Number(BigInt(receipt.blockNumber)), lastSignature: null };
    const honest = await paymentVerifier(readDeployment(withNodes("second")), "ethereum", null).scanTransfers(cursor, { limit: 3, startAt: null });
    expect(honest!.transfers.map((t) => t.hash)).toContain(hash);
    expect(honest!.cursor.nextBlock).toBeGreaterThan(cursor.nextBlock);

    nodes.set("liar", {
      kind: "lie",
      answer: rewrite("eth_getBlockByNumber", (block) => {
        for (const tx of (block.transactions ?? []) as { hash: string; value: string }[])
          if (typeof tx === "object" && tx.hash.toLowerCase() === hash) tx.value = hex(BigInt(tx.value) * 2n);
      }),
    });
    const since = Date.now();
    const scan = paymentVerifier(readDeployment(withNodes("second", "liar")), "ethereum", recordDisagreements(createDb(env.DB)));
    expect(await scan.scanTransfers(cursor, { limit: 3, startAt: null })).toBeNull();
    const named = await env.DB.prepare("SELECT node FROM node_disagreements WHERE network = 'ethereum' AND tx_hash = ? AND last_seen_at >= ?")
      .bind(hash, since)
      .all<{ node: string }>();
    expect(named.results.map((r) => r.node)).toEqual([nodes.nameOf("liar")]);
  });
});

// Sign-in (docs/sign-in.md#contract-wallets): a signature that does not recover to the address proves it only through
// the nodes' eth_call (ERC-1271, ERC-6492), so it counts only when a quorum of them vouch for it and none says
// otherwise; an admin is a key, never a contract the nodes vouch for, unless ADMIN_CONTRACT_WALLETS names it.
describe("sign-in: no node alone decides who you are", () => {
  const app = createApp();
  let clients = 0;
  const auth = (e: typeof env) => clientOf((input, init) => app.request(input, init, e), undefined, { "cf-connecting-ip": `198.18.77.${++clients}` }).auth;
  const stranger = privateKeyToAccount(generatePrivateKey());
  const TRUE_WORD = `0x${"0".repeat(63)}1`;
  /** The liar's answer to every eth_call: "valid" (the ERC-6492 validator's true, ERC-1271's magic value alike). */
  const vouchesForAll = {
    kind: "lie",
    answer: (c: { method: string }, a: RpcAnswer) => (c.method === "eth_call" ? { jsonrpc: a.jsonrpc, id: a.id, result: TRUE_WORD } : a),
  } as const;
  /** ERC-1271 wallet code that answers isValidSignature with the magic value 0x1626ba7e for any signature. */
  const ACCEPT_ANY = "0x631626ba7e60e01b60005260206000f3";

  /** A SIWE sign-in as `address` with `signer`'s signature over the issued message, on the app with bindings `e`. */
  async function signInAs(e: typeof env, address: string, signer = stranger) {
    const nonce = await auth(e).nonce.$post({ json: { network: "ethereum", address } });
    expect(nonce.status).toBe(200);
    const { message } = (await nonce.json()) as NonceResponse;
    return auth(e).verify.$post({ json: { network: "ethereum", message: message!, signature: await signer.signMessage({ message: message! }) } });
  }
  const admin = () => getAddress(env.ADMIN_WALLETS!.split(",")[0]);
  /** The nodes by name ("anvil" the real one), the first also as ETH_RPC_URL (as the outside probe set them). */
  const nodesEnv = (names: string[], extra: Partial<typeof env> = {}) => ({
    ...env,
    ETH_RPC_URL: names[0] === "anvil" ? env.ETH_RPC_URL! : nodes.urls[names[0]],
    ETH_RPC_URLS: names.map((n) => (n === "anvil" ? env.ETH_RPC_URL! : nodes.urls[n])).join(","),
    ETH_RPC_QUORUM: "2",
    ...extra,
  });
  async function contractWallet(code = ACCEPT_ANY) {
    const address = privateKeyToAccount(generatePrivateKey()).address;
    await anvil("anvil_setCode", [address, code]);
    return address;
  }
  const disagreementsSince = async (since: number) =>
    (
      await env.DB.prepare("SELECT node FROM node_disagreements WHERE network = 'ethereum' AND tx_hash IS NULL AND last_seen_at >= ?")
        .bind(since)
        .all<{ node: string }>()
    ).results.map((r) => r.node);

  it("a liar first among two (quorum 2) that vouches for every eth_call does not sign a stranger in as the admin", async () => {
    nodes.set("liar", vouchesForAll);
    const res = await signInAs(nodesEnv(["liar", "anvil"]), admin());
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await refusal(res)).message).toMatch(/^Sign-in failed: .*admin/);
  });

  it("nor as a buyer: the liar alone is not a quorum, and the contradiction is recorded", async () => {
    nodes.set("liar", vouchesForAll);
    const since = Date.now();
    const res = await signInAs(nodesEnv(["liar", "anvil"]), buyerAccount.address);
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
    // Two nodes, one against one: nothing tells the liar apart, so both are named (as a payment's tie is).
    expect((await disagreementsSince(since)).sort()).toEqual([nodes.nameOf("liar"), new URL(env.ETH_RPC_URL!).host].sort());
    // Among three, the two honest nodes outvote it: the liar alone is named, and alerted as a payment's liar is.
    const key = `node-disagreement:ethereum:${nodes.nameOf("liar")}`;
    await env.DB.batch([
      env.DB.prepare("DELETE FROM node_disagreements WHERE network = 'ethereum'"),
      env.DB.prepare("DELETE FROM alert_incidents WHERE key = ?").bind(key),
    ]);
    const among3 = Date.now();
    expect((await signInAs(nodesEnv(["liar", "anvil", "second"]), buyerAccount.address)).status).toBe(401);
    expect(await disagreementsSince(among3)).toEqual([nodes.nameOf("liar")]);
    await runAlerts(createDb(env.DB), { ...env, ALERT_WEBHOOK_URL: "" }, Date.now());
    const incident = await env.DB.prepare("SELECT kind, text FROM alert_incidents WHERE key = ? AND state = 'open'")
      .bind(key)
      .first<{ kind: string; text: string }>();
    expect(incident).toMatchObject({ kind: "node_disagreement" });
    expect(incident!.text).toContain("contract-wallet sign-in");
  });

  it("with one node configured, a lying node is not asked about an admin at all", async () => {
    nodes.set("liar", vouchesForAll);
    const res = await signInAs({ ...env, ETH_RPC_URL: nodes.urls.liar, ETH_RPC_URLS: "", ETH_RPC_QUORUM: "1" }, admin());
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("on a deployment the payment rules refuse (mainnet cut down to one node), the nodes' word signs no one in: a lying node cannot make a buyer's session", async () => {
    nodes.set("liar", vouchesForAll);
    const oneNodeMainnet = {
      ...env,
      ETH_CHAIN_ID: "1",
      ETH_CONFIRMATIONS: "12",
      ETH_RPC_URL: nodes.urls.liar,
      ETH_RPC_URLS: nodes.urls.liar,
      ETH_RPC_QUORUM: "1",
    };
    const res = await signInAs(oneNodeMainnet, buyerAccount.address);
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await refusal(res)).message).toMatch(/^Sign-in failed: .*payment rules.*two nodes on different hosts/);
    // The buyer's own key still signs in there.
    expect((await signInAs(oneNodeMainnet, buyerAccount.address, buyerAccount)).status).toBe(200);
  });

  it("a real contract wallet (ERC-1271 on anvil) signs in when a quorum agrees; a node that says no refuses it and is named", async () => {
    const wallet = await contractWallet();
    const ok = await signInAs(nodesEnv(["anvil", "second"]), wallet);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as SessionResponse).authenticated).toBe(true);

    nodes.set("liar", { kind: "lie", answer: (c, a) => (c.method === "eth_call" ? { jsonrpc: a.jsonrpc, id: a.id, result: `0x${"0".repeat(64)}` } : a) });
    const since = Date.now();
    const contradicted = await signInAs(nodesEnv(["anvil", "second", "liar"]), wallet);
    expect(contradicted.status).toBe(401);
    expect(await disagreementsSince(since)).toEqual([nodes.nameOf("liar")]);
    // A node that is down is no contradiction: the other two are a quorum.
    nodes.set("liar", { kind: "down" });
    expect((await signInAs(nodesEnv(["anvil", "second", "liar"]), wallet)).status).toBe(200);
  });

  it("an admin signs in only with its key: a contract admin needs ADMIN_CONTRACT_WALLETS, and a contract session never becomes admin otherwise", async () => {
    const wallet = await contractWallet();
    const asAdmin = nodesEnv(["anvil", "second"], { ADMIN_WALLETS: `${admin()},${wallet}` });
    const refused = await signInAs(asAdmin, wallet);
    expect(refused.status).toBe(401);
    expect((await refusal(refused)).message).toMatch(/ADMIN_CONTRACT_WALLETS/);

    const named = nodesEnv(["anvil", "second"], { ADMIN_WALLETS: `${admin()},${wallet}`, ADMIN_CONTRACT_WALLETS: wallet.toLowerCase() });
    const ok = await signInAs(named, wallet);
    expect(ok.status).toBe(200);
    expect((await ok.json()) as SessionResponse).toMatchObject({ authenticated: true, user: { isAdmin: true } });

    // Signed in as an ordinary contract wallet, then marked admin in its user row: the session is still not an admin's.
    const plain = await contractWallet();
    const session = await signInAs(nodesEnv(["anvil", "second"]), plain);
    expect(session.status).toBe(200);
    await env.DB.prepare("UPDATE users SET is_admin = 1 WHERE wallet_address = ?").bind(plain.toLowerCase()).run();
    const cookie = sessionCookie(session);
    const now = await clientOf((input, init) => app.request(input, init, nodesEnv(["anvil", "second"])), undefined, { cookie }).auth.session.$get();
    expect((await now.json()) as SessionResponse).toMatchObject({ authenticated: true, user: { isAdmin: false } });
  });
});

describe("the fee preview's gas price is the median of the nodes that answer", () => {
  const inOrder = (...names: string[]) => ({
    ...env,
    ETH_RPC_URLS: names.map((n) => (n === "real" ? env.ETH_RPC_URL! : nodes.urls[n])).join(","),
    ETH_RPC_QUORUM: "2",
  });
  const inflated = {
    kind: "lie" as const,
    answer: (c: { method: string }, a: RpcAnswer) => (c.method === "eth_gasPrice" ? { ...a, result: hex(BigInt(a.result as string) * 1000n) } : a),
  };

  /** The gas price the preview uses with `nodeEnv`, and anvil's own just before and after (it moves with each block). */
  async function preview(nodeEnv: ReturnType<typeof inOrder>) {
    resetGasPriceCache();
    const before = BigInt(await anvil<string>("eth_gasPrice"));
    const wei = await currentGasPrice(readDeployment(nodeEnv).ethereum);
    const after = BigInt(await anvil<string>("eth_gasPrice"));
    return { wei, honest: [before, after] };
  }

  it("a first node answering 1000 times the price, among three: the honest price", async () => {
    nodes.set("liar", inflated);
    const { wei, honest } = await preview(inOrder("liar", "real", "second"));
    expect(honest).toContain(wei);
  });

  it("two answers of three (one down): the lower, so one liar cannot raise it", async () => {
    nodes.set("second", { kind: "down" });
    nodes.set("liar", inflated);
    const { wei, honest } = await preview(inOrder("liar", "second", "real"));
    expect(honest).toContain(wei);
  });

  it("no node answers: null (the preview's fallback)", async () => {
    nodes.set("liar", { kind: "down" });
    nodes.set("second", { kind: "down" });
    expect((await preview(inOrder("liar", "second"))).wei).toBeNull();
  });
});
