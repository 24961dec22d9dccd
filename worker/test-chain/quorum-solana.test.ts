// Trust no single node, on the LiteSVM Solana RPC (docs/payments.md#trust-no-single-node): the real node, a second
// honest node and a liar (lying-node.ts), quorum 2. Solana has no depth to lie about (an answer at the payment
// commitment is final): the lies are another slot, a larger amount, and a transaction that does not exist; and,
// as the first node, a blockhash for the Solana Pay transfer that no quorum holds.
import { base58, base64 } from "@scure/base";
import { Transaction } from "@solana/web3.js";
import { env } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app";
import { forgetNodeFacts } from "../deployment/node-identity";
import { createDb } from "../db/database";
import { runAlerts } from "../operations/alerts";
import { findPurchase } from "../purchases/purchase-row";
import { reconcilePayments } from "../purchases/reconcile";
import { verifyPayment } from "../purchases/verify";
import { clientOf, refusal } from "../test/client";
import { actors, listWithKey, purchaseRow, reserve, type Wallet } from "../test/purchase-fixtures";
import { proxyNodes, type RpcAnswer, type RpcCall } from "./lying-node";
import { countRows } from "./purchase-helpers";
import { fundedKeypair, fundedSolBuyer, payThroughWorker, rpc, send, sendInstructions, transferToPlatform } from "./solana-helpers";
import { readDeployment } from "../deployment/deployment";

let seller: Wallet;
let nodes: ReturnType<typeof proxyNodes>;
beforeAll(async () => {
  ({ seller } = await actors());
});
beforeEach(() => {
  forgetNodeFacts();
  nodes = proxyNodes(env.SOL_RPC_URL!, { second: 4, liar: 5 });
});
afterEach(() => nodes.restore());

const withNodes = (...names: string[]) => ({
  ...env,
  SOL_RPC_URLS: [env.SOL_RPC_URL!, ...names.map((n) => nodes.urls[n])].join(","),
  SOL_RPC_QUORUM: "2",
});

type TxAnswer = { slot: number; transaction: [string, string] };

async function paidPurchase() {
  const { wallet, keypair } = await fundedSolBuyer();
  const id = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.25" })).id);
  const signature = await payThroughWorker(wallet, keypair, id);
  await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind(signature, id).run();
  return { id, signature };
}

async function verify(nodeEnv: ReturnType<typeof withNodes>, id: string, hash: string) {
  const db = createDb(env.DB);
  return verifyPayment(db, readDeployment(nodeEnv), (await findPurchase(db, id))!, hash);
}

async function heldBack(id: string, hash: string, decision: unknown, since: number) {
  expect(decision).toMatchObject({ outcome: "wait", note: "node-unavailable" });
  expect(await purchaseRow(id)).toMatchObject({ status: "pending" });
  const rows = await env.DB.prepare("SELECT node FROM node_disagreements WHERE network = 'solana' AND tx_hash = ? AND last_seen_at >= ?")
    .bind(hash, since)
    .all<{ node: string }>();
  expect(rows.results.map((r) => r.node)).toEqual([nodes.nameOf("liar")]);
  await runAlerts(createDb(env.DB), { ...env, ALERT_WEBHOOK_URL: "" }, Date.now());
  const incident = await env.DB.prepare("SELECT kind FROM alert_incidents WHERE key = ? AND state = 'open'")
    .bind(`node-disagreement:solana:${nodes.nameOf("liar")}`)
    .first();
  expect(incident).toMatchObject({ kind: "node_disagreement" });
}

async function settlesWithoutTheLiar(id: string, hash: string) {
  expect((await verify(withNodes("second"), id, hash)).decision).toMatchObject({ outcome: "settle" });
  expect(await purchaseRow(id)).toMatchObject({ status: "completed" });
}

/** The getTransaction answer with its wire bytes changed. */
function rewriteWire(a: RpcAnswer, change: (bytes: Uint8Array) => void): RpcAnswer {
  const result = a.result as TxAnswer | null;
  if (!result) return a;
  const bytes = base64.decode(result.transaction[0]);
  change(bytes);
  return { ...a, result: { ...result, transaction: [base64.encode(bytes), "base64"] } };
}

const le64 = (n: bigint) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n, true);
  return out;
};

describe("a lying Solana node blocks the release and is named; without it the payment settles", () => {
  it("another slot", async () => {
    const since = Date.now();
    const { id, signature } = await paidPurchase();
    nodes.set("liar", {
      kind: "lie",
      answer: (c, a) =>
        c.method === "getTransaction" && a.result ? { ...a, result: { ...(a.result as TxAnswer), slot: (a.result as TxAnswer).slot - 3 } } : a,
    });
    await heldBack(id, signature, (await verify(withNodes("second", "liar"), id, signature)).decision, since);
    await settlesWithoutTheLiar(id, signature);
  });

  it("a larger amount (the transfer instruction's lamports rewritten)", async () => {
    const since = Date.now();
    const { id, signature } = await paidPurchase();
    const wanted = BigInt((await purchaseRow(id))!.amount_base_units as string);
    nodes.set("liar", {
      kind: "lie",
      answer: (c, a) =>
        c.method !== "getTransaction"
          ? a
          : rewriteWire(a, (bytes) => {
              const at = Buffer.from(bytes).indexOf(Buffer.from(le64(wanted)));
              expect(at).toBeGreaterThan(0);
              bytes.set(le64(wanted * 3n), at);
            }),
    });
    await heldBack(id, signature, (await verify(withNodes("second", "liar"), id, signature)).decision, since);
    await settlesWithoutTheLiar(id, signature);
  });

  it("a transaction that does not exist (another payment's, under the reported signature)", async () => {
    const since = Date.now();
    const { id, signature: real } = await paidPurchase();
    const fake = base58.encode(new Uint8Array(64).fill(7));
    await env.DB.prepare("UPDATE transactions SET tx_hash = ? WHERE id = ?").bind(fake, id).run();
    nodes.set("liar", {
      kind: "lie",
      call: (c) => (c.method === "getTransaction" && c.params?.[0] === fake ? { ...c, params: [real, ...c.params.slice(1)] } : c),
      answer: (c, a) => (c.method === "getTransaction" ? rewriteWire(a, (bytes) => bytes.set(base58.decode(fake), 1)) : a),
    });
    // Right after the slot, honest nodes that do not have it yet may only be behind: not called a lie, but no quorum.
    expect((await verify(withNodes("second", "liar"), id, fake)).decision).toMatchObject({ outcome: "wait", note: "node-unavailable" });
    // Once the honest nodes are well past the slot the liar names, its transaction is a contradiction.
    await rpc("localnet_advanceSlots", [200]);
    await heldBack(id, fake, (await verify(withNodes("second", "liar"), id, fake)).decision, since);
    await env.DB.prepare("UPDATE transactions SET tx_hash = ? WHERE id = ?").bind(real, id).run();
    await settlesWithoutTheLiar(id, real);
  });
});

describe("Solana nodes that are down", () => {
  it("one node down: settles on the other two (quorum 2 of 3); with two nodes, waits", async () => {
    const { id, signature } = await paidPurchase();
    nodes.set("liar", { kind: "down" });
    expect((await verify(withNodes("liar"), id, signature)).decision).toMatchObject({ outcome: "wait", note: "node-unavailable" });
    expect((await verify(withNodes("second", "liar"), id, signature)).decision).toMatchObject({ outcome: "settle" });
  });
});

describe("the reconciliation with several Solana nodes", () => {
  type Sig = { signature: string; slot: number; err: unknown };
  const db = () => createDb(env.DB);
  const escrowed = (hash: string) => countRows("escrow_transactions", "tx_hash = ?", hash);
  const slotNow = () => rpc<number>("getSlot", [{ commitment: "confirmed" }]);
  /** The cursor at the newest signature, read with the real node alone. */
  async function freshCursor() {
    await env.DB.prepare("DELETE FROM reconcile_cursors WHERE network = 'solana'").run();
    await reconcilePayments(db(), readDeployment(env), "solana");
  }
  /** A node `behind` slots behind the chain: it knows nothing after `slot`. */
  const behind = (slot: number) => ({
    kind: "lie" as const,
    answer: (c: RpcCall, a: RpcAnswer): RpcAnswer => {
      if (c.method === "getSlot") return { ...a, result: Math.min(a.result as number, slot) };
      if (c.method === "getSignaturesForAddress") return { ...a, result: (a.result as Sig[]).filter((s) => s.slot <= slot) };
      return a;
    },
  });

  it("two honest nodes, one a few slots ahead with newer signatures: the window both hold is reconciled", async () => {
    await freshCursor();
    const stranger = await fundedKeypair();
    const older = await sendInstructions([stranger], transferToPlatform(stranger, 3_000_000n));
    const slot = await slotNow();
    await rpc("localnet_advanceSlots", [3]);
    const newer = await sendInstructions([stranger], transferToPlatform(stranger, 3_000_001n));
    nodes.set("second", behind(slot));
    const before = Date.now();
    const report = await reconcilePayments(db(), readDeployment(withNodes("second")), "solana");
    expect(report.nodeAnswered).toBe(true);
    expect(await escrowed(older)).toBe(1);
    expect(await escrowed(newer)).toBe(0);
    const cursor = await env.DB.prepare("SELECT last_signature, through_block, caught_up_at FROM reconcile_cursors WHERE network = 'solana'").first<{
      last_signature: string;
      through_block: number;
      caught_up_at: number | null;
    }>();
    expect(cursor).toMatchObject({ last_signature: older, through_block: slot });
    expect(cursor!.caught_up_at).toBeGreaterThanOrEqual(before);
    // Once the second node has the newer slot too, the newer transfer follows.
    nodes.set("second", { kind: "honest" });
    await reconcilePayments(db(), readDeployment(withNodes("second")), "solana");
    expect(await escrowed(newer)).toBe(1);
    expect(await escrowed(older)).toBe(1);
  });

  it("a liar's payment that never happened counts for nothing: not with one honest node, not with two", async () => {
    const since = Date.now();
    await freshCursor();
    const stranger = await fundedKeypair();
    const real = await sendInstructions([stranger], transferToPlatform(stranger, 4_000_000n));
    const fake = base58.encode(new Uint8Array(64).fill(9));
    // The liar lists a transaction the chain does not hold (the real transfer's bytes under another signature), in
    // the same slot as the real one, so it is inside the window every node holds; asked about the real one, it
    // answers truly. The call about the forged one is marked by its id, to be answered with the real one's bytes.
    nodes.set("liar", {
      kind: "lie",
      call: (c) => (c.method === "getTransaction" && c.params?.[0] === fake ? { ...c, id: `forged:${c.id}`, params: [real, ...c.params.slice(1)] } : c),
      answer: (c, a) => {
        if (c.method === "getSignaturesForAddress") {
          const list = a.result as Sig[];
          const at = list.findIndex((s) => s.signature === real);
          return at < 0 ? a : { ...a, result: [...list.slice(0, at), { ...list[at], signature: fake }, ...list.slice(at)] };
        }
        if (typeof c.id === "string" && c.id.startsWith("forged:"))
          return { ...rewriteWire(a, (bytes) => bytes.set(base58.decode(fake), 1)), id: Number(c.id.slice("forged:".length)) };
        return a;
      },
    });
    await rpc("localnet_advanceSlots", [2]);
    // With one honest node there is no quorum for anything the two list differently.
    expect((await reconcilePayments(db(), readDeployment(withNodes("liar")), "solana")).received).toBe(0);
    expect(await escrowed(real)).toBe(0);
    await reconcilePayments(db(), readDeployment(withNodes("second", "liar")), "solana");
    expect(await escrowed(fake)).toBe(0);
    const named = await env.DB.prepare("SELECT DISTINCT node FROM node_disagreements WHERE network = 'solana' AND last_seen_at >= ?")
      .bind(since)
      .all<{ node: string }>();
    expect(named.results.map((r) => r.node)).toContain(nodes.nameOf("liar"));
    // Without the liar the real transfer is reconciled, and the forged one never is.
    await reconcilePayments(db(), readDeployment(withNodes("second")), "solana");
    expect(await escrowed(real)).toBe(1);
    expect(await escrowed(fake)).toBe(0);
  });
});

describe("the Solana Pay blockhash is one a quorum of nodes holds, whatever the first node says", () => {
  type Latest = { context: { slot: number }; value: { blockhash: string; lastValidBlockHeight: number } };

  /** The nodes in this order ("real" is the LiteSVM RPC itself), at quorum 2: the liar first. */
  const inOrder = (...names: string[]) => ({
    ...env,
    SOL_RPC_URLS: names.map((n) => (n === "real" ? env.SOL_RPC_URL! : nodes.urls[n])).join(","),
    SOL_RPC_QUORUM: "2",
  });

  /** The liar's getLatestBlockhash: `blockhash`, claimed newer than any honest node's. */
  const latestIs = (blockhash: string) => ({
    kind: "lie" as const,
    answer: (c: { method: string }, a: RpcAnswer) =>
      c.method === "getLatestBlockhash" && a.result
        ? { ...a, result: { ...(a.result as Latest), value: { blockhash, lastValidBlockHeight: (a.result as Latest).value.lastValidBlockHeight + 1_000 } } }
        : a,
  });

  /** A reserved Solana purchase, its buyer and keypair. */
  async function reserved() {
    const { wallet, keypair } = await fundedSolBuyer();
    const id = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.25" })).id);
    return { wallet, keypair, id };
  }

  /** The Worker's transaction request for `id` with these nodes: 200 and the blockhash it carries, or the refusal. */
  async function transferRequest(nodeEnv: ReturnType<typeof inOrder>, wallet: Wallet, id: string) {
    const res = await clientOf((input, init) => createApp().request(input, init, nodeEnv), wallet).transactions[":id"]["solana-transaction"].$post({
      param: { id },
      json: { account: wallet.address },
    });
    if (res.status !== 200) return { status: res.status, body: await refusal(res), tx: null };
    const tx = Transaction.from(Buffer.from((await res.json()).transaction, "base64"));
    return { status: 200, body: null, tx };
  }

  const valid = async (blockhash: string) => (await rpc<{ value: boolean }>("isBlockhashValid", [blockhash, { commitment: "confirmed" }])).value;

  it("a forged blockhash from the first node: the transfer carries the honest nodes' one, and it lands", async () => {
    const { wallet, keypair, id } = await reserved();
    const forged = base58.encode(new Uint8Array(32).fill(9));
    nodes.set("liar", latestIs(forged));
    const { status, tx } = await transferRequest(inOrder("liar", "real", "second"), wallet, id);
    expect(status).toBe(200);
    expect(tx!.recentBlockhash).not.toBe(forged);
    expect(await valid(tx!.recentBlockhash!)).toBe(true);
    tx!.sign(keypair);
    expect(await send(tx!)).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
  });

  it("an expired blockhash from the first node: not used", async () => {
    const { wallet, id } = await reserved();
    const expired = (await rpc<Latest>("getLatestBlockhash", [{ commitment: "confirmed" }])).value.blockhash;
    await rpc("localnet_advanceSlots", [200]);
    expect(await valid(expired)).toBe(false);
    nodes.set("liar", latestIs(expired));
    const { status, tx } = await transferRequest(inOrder("liar", "real", "second"), wallet, id);
    expect(status).toBe(200);
    expect(tx!.recentBlockhash).not.toBe(expired);
    expect(await valid(tx!.recentBlockhash!)).toBe(true);
  });

  it("an old blockhash still valid, claimed the newest: the transfer gets an honest node's newest, not one about to expire", async () => {
    const { wallet, id } = await reserved();
    const old = (await rpc<Latest>("getLatestBlockhash", [{ commitment: "confirmed" }])).value.blockhash;
    await rpc("localnet_advanceSlots", [120]);
    expect(await valid(old)).toBe(true);
    nodes.set("liar", latestIs(old));
    const { status, tx } = await transferRequest(inOrder("liar", "real", "second"), wallet, id);
    expect(status).toBe(200);
    expect(tx!.recentBlockhash).not.toBe(old);
    expect(await valid(tx!.recentBlockhash!)).toBe(true);
  });

  it("no quorum holds a blockhash (two nodes, the liar denies the honest one's): 503, no transaction", async () => {
    const { wallet, id } = await reserved();
    const forged = base58.encode(new Uint8Array(32).fill(11));
    nodes.set("liar", {
      kind: "lie",
      answer: (c, a) =>
        c.method === "isBlockhashValid" && a.result ? { ...a, result: { ...(a.result as object), value: false } } : latestIs(forged).answer(c, a),
    });
    const refused = await transferRequest(inOrder("liar", "real"), wallet, id);
    expect(refused).toMatchObject({ status: 503, tx: null, body: { message: "The Solana nodes do not agree on a recent block; try again in a moment" } });
    // A node that fails to say whether it holds a blockhash could have made the quorum: the retry answer.
    nodes.set("liar", {
      kind: "lie",
      answer: (c, a) =>
        c.method === "isBlockhashValid" ? { jsonrpc: "2.0", id: c.id, error: { code: -32603, message: "internal" } } : latestIs(forged).answer(c, a),
    });
    const notAnswering = { status: 503, tx: null, body: { message: "The Solana node is not answering; try again in a moment" } };
    expect(await transferRequest(inOrder("liar", "real"), wallet, id)).toMatchObject(notAnswering);
    // One node of two down: one answer is no quorum of two either.
    nodes.set("liar", { kind: "down" });
    expect(await transferRequest(inOrder("liar", "real"), wallet, id)).toMatchObject(notAnswering);
    // Without the liar, at a quorum of one (local development), the node's own blockhash as before.
    const alone = await transferRequest({ ...env, SOL_RPC_URLS: env.SOL_RPC_URL!, SOL_RPC_QUORUM: "1" }, wallet, id);
    expect(alone.status).toBe(200);
    expect(await valid(alone.tx!.recentBlockhash!)).toBe(true);
  });
});
