// Trust no single node, on the LiteSVM Solana RPC (docs/payments.md#trust-no-single-node): the real node, a second
// honest node and a liar (lying-node.ts), quorum 2. Solana has no depth to lie about (an answer at the payment
// commitment is final): the lies are another slot, a larger amount, and a transaction that does not exist.
import { base58, base64 } from "@scure/base";
import { env } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { forgetNodeFacts } from "../deployment/node-identity";
import { createDb } from "../db/database";
import { runAlerts } from "../operations/alerts";
import { findPurchase } from "../purchases/purchase-row";
import { verifyPayment } from "../purchases/verify";
import { actors, listWithKey, purchaseRow, reserve, type Wallet } from "../test/purchase-fixtures";
import { proxyNodes, type RpcAnswer } from "./lying-node";
import { fundedSolBuyer, payThroughWorker, rpc } from "./solana-helpers";

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
  return verifyPayment(db, nodeEnv, (await findPurchase(db, id))!, hash);
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
