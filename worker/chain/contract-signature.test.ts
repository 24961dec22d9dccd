// The contract-wallet verdict (contract-signature.ts): valid only when the quorum vouched and no node contradicted;
// the nodes named are those outside the larger side, every answering node on a tie, and never a node that did not
// answer. Then contractSignatureByQuorum against small JSON-RPC nodes on 127.0.0.1 (scripts/test/json-rpc-node.ts):
// what counts as a node's answer (a result, a revert) and what as none (down, HTTP 500, a JSON-RPC failure, junk,
// no reply within the timeout). A real contract wallet on anvil and the forging proxy:
// worker/test-chain/quorum-ethereum.test.ts.
import type { Hex } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { deadNodeUrl, type JsonRpcNode, type NodeReply, startJsonRpcNode } from "../../scripts/test/json-rpc-node";
import { readDeployment } from "../deployment/deployment";
import { nodeNames } from "../deployment/rpc-nodes";
import { contractSignatureByQuorum, contractSignatureVerdict } from "./contract-signature";
import type { NodeDisagreement } from "./quorum-verifier";

const names = ["a", "b", "c"];

describe("contractSignatureVerdict", () => {
  it("valid when the quorum vouches and none says otherwise; a node that did not answer counts neither way", () => {
    expect(contractSignatureVerdict([true, true, null], names, 2)).toEqual({ valid: true, vouched: 2, refused: 0, quorum: 2, dissenters: [] });
    expect(contractSignatureVerdict([true, true, true], names, 3).valid).toBe(true);
    expect(contractSignatureVerdict([true], ["a"], 1).valid).toBe(true);
  });

  it("not valid below the quorum, nor with no node at all, nor with a quorum below one", () => {
    expect(contractSignatureVerdict([true, null, null], names, 2)).toEqual({ valid: false, vouched: 1, refused: 0, quorum: 2, dissenters: [] });
    expect(contractSignatureVerdict([], [], 1).valid).toBe(false);
    expect(contractSignatureVerdict([null], ["a"], 0).valid).toBe(false);
    expect(contractSignatureVerdict([false, false], ["a", "b"], 2)).toEqual({ valid: false, vouched: 0, refused: 2, quorum: 2, dissenters: [] });
  });

  it("one node saying no outvoted by two: not valid (it contradicts), and it alone is named", () => {
    expect(contractSignatureVerdict([true, false, true], names, 2)).toEqual({ valid: false, vouched: 2, refused: 1, quorum: 2, dissenters: ["b"] });
  });

  it("one liar vouching against two: not valid, the liar named", () => {
    expect(contractSignatureVerdict([false, true, false], names, 2)).toEqual({ valid: false, vouched: 1, refused: 2, quorum: 2, dissenters: ["b"] });
  });

  it("a tie names every node that answered, and no node that did not", () => {
    expect(contractSignatureVerdict([true, false, null], names, 2)).toEqual({ valid: false, vouched: 1, refused: 1, quorum: 2, dissenters: ["a", "b"] });
  });
});

// The signature validator's answer, ABI-encoded as eth_call returns it.
const VOUCHES: NodeReply = { result: `0x${"0".repeat(63)}1` };
const SAYS_INVALID: NodeReply = { result: `0x${"0".repeat(64)}` };
const WALLET = "0x2222222222222222222222222222222222222222";
// Not an ECDSA signature, so nothing recovers it locally: only the nodes' word counts.
const request = { address: WALLET, hash: `0x${"ab".repeat(32)}` as Hex, signature: "0x1234" as Hex } as const;
// How long the node that hangs is waited for; every other case keeps the real timeout, so a busy machine's slow
// answer is never taken for none.
const HANG_TIMEOUT_MS = 500;

describe("contractSignatureByQuorum: each node asked on its own", () => {
  const opened: JsonRpcNode[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((n) => n.close()));
  });

  /** Asks nodes answering as given ("down": nothing listens), at `quorum`; what it returned, reported and warned. */
  async function ask(replies: (NodeReply | "down")[], quorum: string, extra: Record<string, string> = {}, timeoutMs?: number) {
    const urls = await Promise.all(
      replies.map(async (reply) => {
        if (reply === "down") return deadNodeUrl();
        const node = await startJsonRpcNode((r) => (r.method === "eth_call" ? reply : { error: { code: -32601, message: "method not found" } }));
        opened.push(node);
        return node.url;
      }),
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const reports: NodeDisagreement[] = [];
    const { nodes, quorum: k } = readDeployment({ ETH_RPC_URLS: urls.join(","), ETH_RPC_QUORUM: quorum, ...extra }).ethereum;
    const verdict = await contractSignatureByQuorum({ nodes, quorum: k, chainId: 1 }, request, async (d) => void reports.push(d), timeoutMs);
    const warned = [...warn.mock.calls];
    warn.mockRestore();
    return { verdict, reports, names: nodeNames(urls), warned };
  }

  it("a quorum vouches: valid, nothing reported; the node that is down is named as not answering", async () => {
    const { verdict, reports, names, warned } = await ask([VOUCHES, VOUCHES, "down"], "2");
    expect(verdict).toEqual({ valid: true, vouched: 2, refused: 0, quorum: 2, dissenters: [] });
    expect(reports).toEqual([]);
    expect(warned).toHaveLength(1);
    expect(warned[0][0]).toBe(`contract-wallet check: ${names[2]} did not answer:`);
    // One line of the error, not viem's whole multi-line message.
    expect(warned[0][1]).toMatch(/^HTTP request failed\.$/);
  });

  it("below the quorum: one node vouches, the other does not answer; not valid, and no node is blamed", async () => {
    const { verdict, reports } = await ask([VOUCHES, "down"], "2");
    expect(verdict).toEqual({ valid: false, vouched: 1, refused: 0, quorum: 2, dissenters: [] });
    expect(reports).toEqual([]);
  });

  it("a dissenter: two vouch, one says invalid; not valid, and that node alone is reported", async () => {
    const { verdict, reports, names } = await ask([VOUCHES, SAYS_INVALID, VOUCHES], "2");
    expect(verdict).toEqual({ valid: false, vouched: 2, refused: 1, quorum: 2, dissenters: [names[1]] });
    expect(reports).toEqual([
      {
        network: "ethereum",
        nodes: [names[1]],
        hash: null,
        detail: `contract-wallet sign-in for ${WALLET}: 2 node(s) said the signature is valid, 1 said it is not`,
      },
    ]);
  });

  it("a revert is the validator's no: by JSON-RPC code 3 whatever its text, or by a message that says revert", async () => {
    for (const revert of [
      { error: { code: 3, message: "invalid signature" } },
      { error: { code: -32000, message: "execution reverted" } },
      { error: { code: -32015, message: "VM execution error: Reverted" } },
    ]) {
      const { verdict, reports, names, warned } = await ask([VOUCHES, revert], "1");
      expect(verdict, revert.error.message).toEqual({ valid: false, vouched: 1, refused: 1, quorum: 1, dissenters: names });
      expect(reports, revert.error.message).toHaveLength(1);
      expect(warned, revert.error.message).toEqual([]);
    }
  });

  it("no answer counts neither way: down, HTTP 500 (even one whose body says reverted), a JSON-RPC failure, junk, a hang", async () => {
    // One node at quorum one: what it did is neither a yes (valid) nor a no (refused).
    // Each with the first line of what went wrong, as logged.
    const silent: [string, NodeReply | "down", RegExp][] = [
      ["down", "down", /^HTTP request failed\.$/],
      ["HTTP 500", { status: 500, body: "internal error" }, /^HTTP request failed\.$/],
      ["HTTP 500 saying reverted", { status: 500, body: "execution reverted" }, /^HTTP request failed\.$/],
      ["a JSON-RPC failure", { error: { code: -32603, message: "internal error" } }, /^An internal error was received\.$/],
      ["not a boolean", { result: "0x02" }, /^Hex value "0x02" is not a valid boolean\./],
      ["not JSON", { status: 200, body: "<html>busy</html>" }, /^HTTP request failed\.$/],
      ["no reply within the timeout", "hang", /^The request took too long to respond\.$/],
    ];
    for (const [what, reply, logged] of silent) {
      const { verdict, reports, names, warned } = await ask([reply], "1", {}, reply === "hang" ? HANG_TIMEOUT_MS : undefined);
      expect(verdict, what).toEqual({ valid: false, vouched: 0, refused: 0, quorum: 1, dissenters: [] });
      expect(reports, what).toEqual([]);
      expect(warned, what).toHaveLength(1);
      expect(warned[0][0], what).toBe(`contract-wallet check: ${names[0]} did not answer:`);
      expect(warned[0][1], what).toMatch(logged);
    }
  });

  it("the Ethereum nodes and quorum, not Solana's", async () => {
    const solana = { SOL_RPC_URLS: await deadNodeUrl(), SOL_RPC_QUORUM: "1" };
    const { verdict } = await ask([VOUCHES, VOUCHES], "2", solana);
    expect(verdict).toEqual({ valid: true, vouched: 2, refused: 0, quorum: 2, dissenters: [] });
  });
});
