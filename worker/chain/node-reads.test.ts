// The reads that ask every node without a payment at stake (docs/payments.md#trust-no-single-node): which Solana
// blockhash is tried first and which one a quorum holds, and the gas price's median, first as pure rules, then
// against small JSON-RPC nodes on 127.0.0.1 (scripts/test/json-rpc-node.ts) that answer as each test says. On real
// nodes with a liar among them: worker/test-chain/quorum-solana.test.ts and quorum-ethereum.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { deadNodeUrl, type JsonRpcNode, type JsonRpcRequest, type NodeReply, startJsonRpcNode } from "../../scripts/test/json-rpc-node";
import { currentGasPrice, GAS_PRICE_TIMEOUT_MS, GAS_PRICE_TTL_MS, medianPrice, resetGasPriceCache } from "./gas";
import { candidateOrder, quorumBlockhash } from "./solana-blockhash";
import { type DeploymentEnv, readDeployment } from "../deployment/deployment";

/** Ethereum's nodes as a request reads them from ETH_RPC_URLS. */
const ethereumNodes = (urls: string) => readDeployment({ ETH_RPC_URLS: urls } as DeploymentEnv).ethereum;

const at = (blockhash: string, lastValidBlockHeight: number) => ({ blockhash, lastValidBlockHeight });

describe("candidateOrder: the quorum-th highest height first, then lower, then the higher claims", () => {
  it("three nodes at quorum 2: a liar claiming the highest height is tried last", () => {
    expect(candidateOrder([at("liar", 9_000), at("a", 510), at("b", 500)], 2)).toEqual(["a", "b", "liar"]);
  });

  it("a liar claiming the lowest height cannot come first either", () => {
    expect(candidateOrder([at("a", 510), at("old", 100), at("b", 505)], 2)).toEqual(["b", "old", "a"]);
  });

  it("the higher claims are tried nearest first", () => {
    expect(candidateOrder([at("h1", 900), at("h2", 800), at("k", 700), at("low", 600)], 3)).toEqual(["k", "low", "h2", "h1"]);
  });

  it("each blockhash once, wherever several nodes name it", () => {
    expect(candidateOrder([at("x", 500), at("x", 500), at("y", 501)], 2)).toEqual(["x", "y"]);
  });

  it("one node, or a quorum of one: that answer; a quorum past the answers starts at the lowest", () => {
    expect(candidateOrder([at("only", 1)], 1)).toEqual(["only"]);
    expect(candidateOrder([at("a", 2), at("b", 3)], 1)).toEqual(["b", "a"]);
    expect(candidateOrder([at("a", 2), at("b", 3)], 5)).toEqual(["a", "b"]);
    expect(candidateOrder([], 2)).toEqual([]);
  });
});

describe("medianPrice", () => {
  it("the middle of an odd count, whatever the order", () => {
    expect(medianPrice([2_000_000_000_000n, 2_000_000_000n, 2_100_000_000n])).toBe(2_100_000_000n);
    expect(medianPrice([5n, 1n, 3n, 4n, 2n])).toBe(3n);
    expect(medianPrice([7n])).toBe(7n);
  });

  it("the lower middle of an even count: with two answers, one node cannot raise it", () => {
    expect(medianPrice([2_000_000_000_000n, 2_000_000_000n])).toBe(2_000_000_000n);
    expect(medianPrice([4n, 1n, 3n, 2n])).toBe(2n);
  });

  it("none: null", () => {
    expect(medianPrice([])).toBeNull();
  });
});

const opened: JsonRpcNode[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((n) => n.close()));
  vi.restoreAllMocks();
});

/** Nodes answering as given ("down": nothing listens at its URL). */
async function startNodes(replies: (((r: JsonRpcRequest) => NodeReply) | "down")[]) {
  const nodes: (JsonRpcNode | null)[] = [];
  const urls: string[] = [];
  for (const reply of replies) {
    if (reply === "down") {
      nodes.push(null);
      urls.push(await deadNodeUrl());
      continue;
    }
    const node = await startJsonRpcNode(reply);
    opened.push(node);
    nodes.push(node);
    urls.push(node.url);
  }
  return { nodes, urls: urls.join(",") };
}

// Base58 blockhashes (32 bytes' worth of characters).
const A = "EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k";
const B = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
const OLD = "GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi";

/** A Solana node whose latest blockhash is `latest` at `height`, and that holds the blockhashes in `holds`. */
const solanaNode =
  (latest: unknown, height: unknown, holds: Record<string, NodeReply> = {}) =>
  (r: JsonRpcRequest): NodeReply => {
    if (r.method === "getLatestBlockhash") return { result: { context: { slot: 1 }, value: { blockhash: latest, lastValidBlockHeight: height } } };
    if (r.method === "isBlockhashValid") return holds[r.params[0] as string] ?? { result: { context: { slot: 1 }, value: false } };
    return { error: { code: -32601, message: "method not found" } };
  };
const valid = (value: unknown): NodeReply => ({ result: { context: { slot: 1 }, value } });

describe("quorumBlockhash: a blockhash a quorum of the nodes holds", () => {
  // Solana's nodes and quorum as a request reads them from these settings
  const env = (urls: string, quorum: number) =>
    readDeployment({ SOL_RPC_URLS: urls, SOL_RPC_QUORUM: String(quorum), ETH_RPC_URLS: "", SOL_COMMITMENT: "confirmed" } as DeploymentEnv).solana;
  beforeEach(() => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });

  it("two nodes name the same blockhash: that one, with no node asked again; a liar's higher claim is not taken", async () => {
    const { nodes, urls } = await startNodes([solanaNode(A, 500), solanaNode(B, 9_000), solanaNode(A, 500)]);
    expect(await quorumBlockhash(env(urls, 2))).toEqual({ ok: true, blockhash: A });
    for (const node of nodes) expect(node!.calls).toEqual(["getLatestBlockhash"]);
  });

  it("each node its own latest: the candidate a second node holds, asked at the configured commitment", async () => {
    const asked: unknown[][] = [];
    const second = solanaNode(B, 505, { [A]: valid(true) });
    const { urls } = await startNodes([
      solanaNode(A, 510),
      (r) => {
        asked.push(r.params);
        return second(r);
      },
      solanaNode(OLD, 100),
    ]);
    expect(await quorumBlockhash(env(urls, 2))).toEqual({ ok: true, blockhash: A });
    expect(asked[0]).toEqual([{ commitment: "confirmed" }]);
    expect(asked).toContainEqual([A, { commitment: "confirmed" }]);
  });

  it("a quorum of three: a candidate two others hold, not one only one other holds", async () => {
    const { urls } = await startNodes([
      solanaNode(A, 510, { [B]: valid(true) }),
      solanaNode(B, 505, {}),
      solanaNode(OLD, 500, { [B]: valid(true) }),
      solanaNode(OLD, 499, { [A]: valid(true) }),
    ]);
    // OLD (the quorum-th highest) is tried first, and no third node holds it; then B, which A's node and the first OLD node hold.
    expect(await quorumBlockhash(env(urls, 3))).toEqual({ ok: true, blockhash: B });
  });

  it("the nodes that answered say no to every candidate: disputed, and each node's latest is logged", async () => {
    const { urls } = await startNodes([solanaNode(A, 510), solanaNode(B, 505)]);
    expect(await quorumBlockhash(env(urls, 2))).toEqual({ ok: false, reason: "disputed" });
    const warned = vi.mocked(console.warn).mock.calls.map((c) => String(c[0]));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(
      new RegExp(`^solana: no blockhash held by 2 of the nodes; latest by node: 127\\.0\\.0\\.1:\\d+ ${A}, 127\\.0\\.0\\.1:\\d+ ${B}$`),
    );
  });

  it("fewer answers than the quorum: unanswered, nothing asked again (down, HTTP 500, junk blockhash or height)", async () => {
    for (const silent of [
      "down" as const,
      () => ({ status: 500, body: "busy" }),
      solanaNode("not base58 0OIl", 500),
      solanaNode(`0${A}`, 500),
      solanaNode(`${A}0`, 500),
      solanaNode([A], 500),
      solanaNode(A, 500.5),
      solanaNode(A, "500"),
      solanaNode(42, 500),
      () => ({ result: null }),
    ]) {
      const { nodes, urls } = await startNodes([solanaNode(A, 510), silent]);
      expect(await quorumBlockhash(env(urls, 2))).toEqual({ ok: false, reason: "unanswered" });
      expect(nodes[0]!.calls).toEqual(["getLatestBlockhash"]);
    }
  });

  it("a node that fails the check where its yes could have made the quorum: unanswered, not disputed", async () => {
    for (const fails of [{ status: 500, body: "busy" }, { error: { code: -32005, message: "behind" } }, valid("yes")] as NodeReply[]) {
      const { urls } = await startNodes([solanaNode(A, 510, { [B]: fails }), solanaNode(B, 505, { [A]: fails })]);
      expect(await quorumBlockhash(env(urls, 2))).toEqual({ ok: false, reason: "unanswered" });
    }
  });

  it("a node's own latest is not counted again: each node holding only its own is disputed", async () => {
    const { urls } = await startNodes([solanaNode(A, 510, { [A]: valid(true) }), solanaNode(B, 505, { [B]: valid(true) })]);
    expect(await quorumBlockhash(env(urls, 2))).toEqual({ ok: false, reason: "disputed" });
  });

  it("one node at quorum one: its own latest, as asked", async () => {
    const { nodes, urls } = await startNodes([solanaNode(A, 510)]);
    expect(await quorumBlockhash(env(urls, 1))).toEqual({ ok: true, blockhash: A });
    expect(nodes[0]!.calls).toEqual(["getLatestBlockhash"]);
  });
});

describe("currentGasPrice: the median of the nodes that answer, kept briefly", () => {
  beforeEach(() => {
    resetGasPriceCache();
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  const gasNode =
    (reply: NodeReply) =>
    (r: JsonRpcRequest): NodeReply =>
      r.method === "eth_gasPrice" ? reply : { error: { code: -32601, message: "method not found" } };
  const gwei = (n: number): NodeReply => ({ result: `0x${(BigInt(n) * 1_000_000_000n).toString(16)}` });
  const NOW = 1_000_000;

  it("a liar's price among three does not move it; a node that fails or answers junk is left out", async () => {
    const { urls } = await startNodes([gasNode(gwei(2)), gasNode(gwei(2_000)), gasNode(gwei(3))]);
    expect(await currentGasPrice(ethereumNodes(urls), NOW)).toBe(3_000_000_000n);
    resetGasPriceCache();
    const failing = await startNodes([gasNode(gwei(2)), "down", gasNode({ status: 500, body: "busy" }), gasNode({ result: "junk" }), gasNode(gwei(5))]);
    expect(await currentGasPrice(ethereumNodes(failing.urls), NOW)).toBe(2_000_000_000n);
    // Each failure logged by the first line of its error; a failing node is asked once, not retried (a person waits).
    expect(vi.mocked(console.warn).mock.calls.map((c) => [c[0], c[1]])).toEqual([
      ["gas price unavailable from a node:", "HTTP request failed."],
      ["gas price unavailable from a node:", "HTTP request failed."],
      ["gas price unavailable from a node:", "Cannot convert junk to a BigInt"],
    ]);
    expect(failing.nodes[2]!.calls).toEqual(["eth_gasPrice"]);
  });

  it("a node that never answers is left out after GAS_PRICE_TIMEOUT_MS: the others' price, not a preview that waits for ever", async () => {
    const { urls } = await startNodes([gasNode(gwei(6)), gasNode("hang")]);
    const started = Date.now();
    expect(await currentGasPrice(ethereumNodes(urls), NOW)).toBe(6_000_000_000n);
    expect(Date.now() - started).toBeGreaterThanOrEqual(GAS_PRICE_TIMEOUT_MS - 50);
    expect(vi.mocked(console.warn).mock.calls.map((c) => [c[0], c[1]])).toEqual([
      ["gas price unavailable from a node:", `no answer within ${GAS_PRICE_TIMEOUT_MS} ms`],
    ]);
  });

  it("a price of zero is a price", async () => {
    const { urls } = await startNodes([gasNode({ result: "0x0" })]);
    expect(await currentGasPrice(ethereumNodes(urls), NOW)).toBe(0n);
  });

  it("no node answers: null, and nothing is kept (the same node asked again a moment later answers)", async () => {
    let up = false;
    const { urls } = await startNodes([(r) => (up ? gasNode(gwei(4))(r) : { status: 503, body: "starting" })]);
    expect(await currentGasPrice(ethereumNodes(urls), NOW)).toBeNull();
    up = true;
    expect(await currentGasPrice(ethereumNodes(urls), NOW + 1)).toBe(4_000_000_000n);
  });

  it("kept for the TTL for the same nodes, asked again after it or for other nodes", async () => {
    let price = 7;
    const { nodes, urls } = await startNodes([(r) => gasNode(gwei(price))(r)]);
    expect(await currentGasPrice(ethereumNodes(urls), NOW)).toBe(7_000_000_000n);
    price = 8;
    expect(await currentGasPrice(ethereumNodes(urls), NOW + GAS_PRICE_TTL_MS - 1)).toBe(7_000_000_000n);
    expect(nodes[0]!.calls).toHaveLength(1);
    expect(await currentGasPrice(ethereumNodes(urls), NOW + GAS_PRICE_TTL_MS)).toBe(8_000_000_000n);
    // Forgotten on reset, even inside the TTL.
    price = 10;
    resetGasPriceCache();
    expect(await currentGasPrice(ethereumNodes(urls), NOW + GAS_PRICE_TTL_MS)).toBe(10_000_000_000n);
    const other = await startNodes([gasNode(gwei(9))]);
    expect(await currentGasPrice(ethereumNodes(other.urls), NOW + GAS_PRICE_TTL_MS)).toBe(9_000_000_000n);
  });
});
