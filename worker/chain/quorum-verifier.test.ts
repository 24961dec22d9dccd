// The quorum's decisions over scripted node answers, in plain Node, so that `npm run test:mutation` can mutate
// quorum-verifier.ts: each node here is what a JSON-RPC node said (the boundary), and the quorum's rules decide.
// The same rules run against anvil and the LiteSVM RPC behind a forging proxy in worker/test-chain/quorum-*.test.ts.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Network } from "../../schema/db";
import type { PaymentObservation } from "../domain/payment-decision";
import { EMPTY_CURSOR, type ReconcileCursor } from "../domain/reconciliation";
import type { PaymentVerifier, ReceivedTransfer, ReconcileWindow, ScanCursor, ScanWindow, TransferReceipt } from "./payment-types";
import { HEAD_AHEAD_BLOCKS, kthHighest, type NodeDisagreement, type QuorumNode, quorumVerifier, SOLANA_LAG_SLOTS } from "./quorum-verifier";

const REQUIRED = 12;
type Script = Partial<Pick<PaymentVerifier, "inspect" | "received" | "scanTransfers" | "reconcile" | "chainPosition">>;

function node(name: string, script: Script, network: Network = "ethereum"): QuorumNode & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  const log =
    <A extends unknown[], R>(what: string, f: ((...a: A) => R) | undefined, fallback: R) =>
    (...a: A): R => {
      calls.push([what, ...a]);
      return f ? f(...a) : fallback;
    };
  return {
    name,
    calls,
    verifier: {
      network,
      recipient: `${name}-recipient`,
      requiredConfirmations: network === "ethereum" ? REQUIRED : 1,
      dustBelow: BigInt(name.length),
      inspect: log("inspect", script.inspect, Promise.resolve({ kind: "unavailable" } as PaymentObservation)),
      received: log("received", script.received, Promise.resolve({ kind: "unavailable" } as TransferReceipt)),
      scanTransfers: log("scan", script.scanTransfers, Promise.resolve(null)),
      reconcile: log("reconcile", script.reconcile, Promise.resolve(null)),
      chainPosition: log("position", script.chainPosition, Promise.resolve(null)),
      explorerUrl: (hash) => `https://${name}/tx/${hash}`,
      formatAmount: (units) => `${name}:${units}`,
    },
  };
}

function found(over: Partial<Extract<PaymentObservation, { kind: "found" }>> = {}): PaymentObservation {
  return {
    kind: "found",
    succeeded: true,
    onExpectedChain: true,
    fromBuyer: true,
    toPlatform: true,
    carriesReference: true,
    amount: 1000n,
    confirmations: REQUIRED,
    block: "0xblock",
    blockNumber: 100,
    minedAt: 1_700_000_000_000,
    ...over,
  };
}

const answer =
  <T>(v: T) =>
  () =>
    Promise.resolve(v);

function setup(nodes: QuorumNode[], quorum: number, network: Network = "ethereum") {
  const reports: NodeDisagreement[] = [];
  const verifier = quorumVerifier(network, nodes, quorum, async (d) => {
    reports.push(d);
  });
  return { verifier, reports };
}

const inspectOf = (...answers: PaymentObservation[]) => answers.map((a, i) => node(`n${i}`, { inspect: answer(a) }));
const expectation = { buyer: "0xbuyer", reference: null };

// Each disagreement is also logged; the reports are what the tests read.
beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});

describe("kthHighest", () => {
  it("is the k-th highest value, or null with fewer than k values or k below 1", () => {
    expect(kthHighest([3, 9, 5], 1)).toBe(9);
    expect(kthHighest([3, 9, 5], 2)).toBe(5);
    expect(kthHighest([3, 9, 5], 3)).toBe(3);
    expect(kthHighest([3, 9], 3)).toBeNull();
    expect(kthHighest([3, 9], 0)).toBeNull();
    expect(kthHighest([], 1)).toBeNull();
  });
});

describe("a payment's observation (inspect)", () => {
  it("counts only when the quorum answers identically, at the quorum's depth, not the deepest node's", async () => {
    const { verifier, reports } = setup(inspectOf(found({ confirmations: 20 }), found({ confirmations: 14 }), found({ confirmations: 13 })), 2);
    expect(await verifier.inspect("0xh", expectation)).toEqual(found({ confirmations: 14 }));
    expect(reports).toEqual([]);
  });

  it("hands every node the hash and the expectation", async () => {
    const nodes = inspectOf(found(), found());
    await setup(nodes, 2).verifier.inspect("0xh", expectation);
    for (const n of nodes) expect(n.calls).toEqual([["inspect", "0xh", expectation]]);
  });

  it("ignores the fee a node reports (never part of a decision)", async () => {
    const { verifier } = setup(inspectOf(found({ fee: { used: 1n, price: 2n, total: 2n } }), found({ fee: { used: 3n, price: 4n, total: 12n } })), 2);
    expect((await verifier.inspect("0xh", expectation)).kind).toBe("found");
  });

  it("is unavailable when fewer than the quorum found it (one node alone decides nothing)", async () => {
    const { verifier, reports } = setup(inspectOf(found(), { kind: "unavailable" }), 2);
    expect(await verifier.inspect("0xh", expectation)).toEqual({ kind: "unavailable" });
    expect(reports).toEqual([]);
  });

  it("with a quorum of one, one answering node is enough; a quorum above the nodes asks for all of them", async () => {
    expect((await setup(inspectOf(found(), { kind: "unavailable" }), 1).verifier.inspect("0xh", expectation)).kind).toBe("found");
    expect((await setup(inspectOf(found(), { kind: "unavailable" }), 0).verifier.inspect("0xh", expectation)).kind).toBe("found");
    expect((await setup(inspectOf(found(), found()), 5).verifier.inspect("0xh", expectation)).kind).toBe("found");
    expect((await setup(inspectOf(found(), { kind: "unavailable" }), 5).verifier.inspect("0xh", expectation)).kind).toBe("unavailable");
  });

  it("is missing only when the quorum says it is missing", async () => {
    expect(await setup(inspectOf({ kind: "missing" }, { kind: "missing" }), 2).verifier.inspect("0xh", expectation)).toEqual({ kind: "missing" });
    expect(await setup(inspectOf({ kind: "missing" }, { kind: "unavailable" }), 2).verifier.inspect("0xh", expectation)).toEqual({
      kind: "unavailable",
    });
  });

  for (const [field, other] of [
    ["amount", { amount: 999n }],
    ["sender", { fromBuyer: false }],
    ["outcome", { succeeded: false }],
    ["block", { block: "0xother" }],
    ["block number", { blockNumber: 101 }],
    ["chain", { onExpectedChain: false }],
    ["receiver", { toPlatform: false }],
    ["reference", { carriesReference: false }],
    ["time", { minedAt: 1 }],
  ] as const)
    it(`a node that reports another ${field} for a final payment is named, and nothing counts`, async () => {
      const { verifier, reports } = setup(inspectOf(found(), found(), found(other)), 2);
      expect(await verifier.inspect("0xh", expectation)).toEqual({ kind: "unavailable" });
      expect(reports).toEqual([{ network: "ethereum", nodes: ["n2"], hash: "0xh", detail: expect.stringContaining("the payment differently") }]);
    });

  it("two versions that are both shallow are a reorganisation: nothing counts and nobody is accused", async () => {
    const { verifier, reports } = setup(inspectOf(found({ confirmations: REQUIRED - 1 }), found({ block: "0xother", confirmations: 3 })), 2);
    expect(await verifier.inspect("0xh", expectation)).toEqual({ kind: "unavailable" });
    expect(reports).toEqual([]);
  });

  it("on a tie between two versions, both sides are named, and the log names them too", async () => {
    const { verifier, reports } = setup(inspectOf(found(), found({ amount: 1n })), 2);
    expect(await verifier.inspect("0xh", expectation)).toEqual({ kind: "unavailable" });
    expect(reports.map((r) => r.nodes)).toEqual([["n0", "n1"]]);
    expect(console.error).toHaveBeenCalledWith(
      "ethereum nodes disagree (n0, n1) about 0xh: they report the payment differently (block, amount, sender or outcome)",
    );
  });

  it("two versions are a disagreement as soon as one node calls its version final", async () => {
    const { verifier, reports } = setup(inspectOf(found({ confirmations: REQUIRED }), found({ amount: 1n, confirmations: 1 })), 2);
    expect(await verifier.inspect("0xh", expectation)).toEqual({ kind: "unavailable" });
    expect(reports.map((r) => r.nodes)).toEqual([["n0", "n1"]]);
  });

  it("a node claiming a depth far past the others' is named (a head the others do not have)", async () => {
    const deep = REQUIRED + HEAD_AHEAD_BLOCKS + 1;
    const { verifier, reports } = setup(inspectOf(found({ confirmations: REQUIRED }), found({ confirmations: deep })), 2);
    expect(await verifier.inspect("0xh", expectation)).toEqual({ kind: "unavailable" });
    expect(reports).toEqual([{ network: "ethereum", nodes: ["n1"], hash: "0xh", detail: expect.stringContaining("far deeper") }]);
    // Exactly HEAD_AHEAD_BLOCKS past is still a node a little ahead.
    const near = setup(inspectOf(found({ confirmations: REQUIRED }), found({ confirmations: REQUIRED + HEAD_AHEAD_BLOCKS })), 2);
    expect(await near.verifier.inspect("0xh", expectation)).toEqual(found({ confirmations: REQUIRED }));
    expect(near.reports).toEqual([]);
  });

  function finalVsMissing(missingHead: number | null, confirmations = REQUIRED) {
    const nodes = [
      node("n0", { inspect: answer(found({ confirmations })) }),
      node("n1", { inspect: answer(found({ confirmations })) }),
      node("n2", { inspect: answer({ kind: "missing" } as PaymentObservation), chainPosition: answer(missingHead) }),
    ];
    return setup(nodes, 2);
  }

  it("a final payment that a node past its block does not hold is a contradiction: the smaller side is named", async () => {
    const { verifier, reports } = finalVsMissing(100 + REQUIRED - 1);
    expect(await verifier.inspect("0xh", expectation)).toEqual({ kind: "unavailable" });
    expect(reports).toEqual([{ network: "ethereum", nodes: ["n2"], hash: "0xh", detail: expect.stringContaining("in block 100") }]);
  });

  it("a node that does not hold it yet because it is behind, or does not say its head, contradicts nothing", async () => {
    for (const head of [100 + REQUIRED - 2, null]) {
      const { verifier, reports } = finalVsMissing(head);
      expect(await verifier.inspect("0xh", expectation)).toEqual(found());
      expect(reports).toEqual([]);
    }
  });

  it("a payment final on one agreeing node (not on the other) is already contradicted by a node past its block", async () => {
    const nodes = [
      node("n0", { inspect: answer(found({ confirmations: REQUIRED })) }),
      node("n1", { inspect: answer(found({ confirmations: 2 })) }),
      node("n2", { inspect: answer({ kind: "missing" } as PaymentObservation), chainPosition: answer(100 + REQUIRED) }),
    ];
    const { verifier, reports } = setup(nodes, 2);
    expect(await verifier.inspect("0xh", expectation)).toEqual({ kind: "unavailable" });
    expect(reports.map((r) => r.nodes)).toEqual([["n2"]]);
  });

  it("a payment that is not final yet is not contradicted by a node that lacks it", async () => {
    const { verifier, reports } = finalVsMissing(100 + 50, REQUIRED - 1);
    expect(await verifier.inspect("0xh", expectation)).toEqual(found({ confirmations: REQUIRED - 1 }));
    expect(reports).toEqual([]);
  });

  it("when the side that lacks it is larger, the node that shows it is named; on a tie, both", async () => {
    const larger = setup(
      [
        node("n0", { inspect: answer(found()) }),
        node("n1", { inspect: answer({ kind: "missing" } as PaymentObservation), chainPosition: answer(200) }),
        node("n2", { inspect: answer({ kind: "missing" } as PaymentObservation), chainPosition: answer(200) }),
      ],
      2,
    );
    expect(await larger.verifier.inspect("0xh", expectation)).toEqual({ kind: "unavailable" });
    expect(larger.reports.map((r) => r.nodes)).toEqual([["n0"]]);
    const tie = setup(
      [node("n0", { inspect: answer(found()) }), node("n1", { inspect: answer({ kind: "missing" } as PaymentObservation), chainPosition: answer(200) })],
      1,
    );
    expect(await tie.verifier.inspect("0xh", expectation)).toEqual({ kind: "unavailable" });
    expect(tie.reports.map((r) => r.nodes)).toEqual([["n1", "n0"]]);
  });

  it("on Solana a node contradicts only once its slot is SOLANA_LAG_SLOTS past the transaction's", async () => {
    const run = async (head: number) => {
      const nodes = [
        node("a", { inspect: answer(found({ confirmations: 1 })) }, "solana"),
        node("b", { inspect: answer(found({ confirmations: 1 })) }, "solana"),
        node("c", { inspect: answer({ kind: "missing" } as PaymentObservation), chainPosition: answer(head) }, "solana"),
      ];
      const s = setup(nodes, 2, "solana");
      return { result: await s.verifier.inspect("sig", expectation), reports: s.reports };
    };
    expect((await run(100 + SOLANA_LAG_SLOTS - 1)).reports).toEqual([]);
    const past = await run(100 + SOLANA_LAG_SLOTS);
    expect(past.result).toEqual({ kind: "unavailable" });
    expect(past.reports.map((r) => [r.network, r.nodes])).toEqual([["solana", ["c"]]]);
  });

  it("a report that fails is logged and the answer is still unavailable", async () => {
    const verifier = quorumVerifier("ethereum", inspectOf(found(), found(), found({ amount: 2n })), 2, () => Promise.reject(new Error("db down")));
    expect(await verifier.inspect("0xh", expectation)).toEqual({ kind: "unavailable" });
  });
});

describe("a transfer's receipt (received)", () => {
  const receipt = (over: Partial<Extract<TransferReceipt, { kind: "found" }>> = {}): TransferReceipt => ({
    kind: "found",
    succeeded: true,
    amount: 5n,
    senders: ["0xa"],
    confirmations: REQUIRED,
    direct: true,
    references: [],
    blockNumber: 7,
    ...over,
  });
  const nodesOf = (...r: TransferReceipt[]) => r.map((x, i) => node(`n${i}`, { received: answer(x) }));

  it("counts when the quorum agrees; a node that names other senders, references or directness is named", async () => {
    expect(await setup(nodesOf(receipt(), receipt()), 2).verifier.received("0xh")).toEqual(receipt());
    for (const other of [{ senders: ["0xb"] }, { references: ["r"] }, { direct: false }, { amount: 6n }, { succeeded: false }, { blockNumber: 8 }]) {
      const { verifier, reports } = setup(nodesOf(receipt(), receipt(), receipt(other)), 2);
      expect(await verifier.received("0xh")).toEqual({ kind: "unavailable" });
      expect(reports.map((r) => [r.nodes, r.detail])).toEqual([[["n2"], expect.stringContaining("the transfer differently")]]);
    }
  });
});

describe("the chain's position", () => {
  it("is the newest block a quorum of nodes reached; silent nodes count for nothing", async () => {
    const heads = (...h: (number | null)[]) => h.map((x, i) => node(`n${i}`, { chainPosition: answer(x) }));
    expect(await setup(heads(100, 500, 90), 2).verifier.chainPosition()).toBe(100);
    expect(await setup(heads(100, null), 2).verifier.chainPosition()).toBeNull();
    expect(await setup(heads(100, null), 1).verifier.chainPosition()).toBe(100);
  });
});

describe("the first node's reads that decide no money", () => {
  it("recipient, depth, dust, explorer link and formatting are the first node's", () => {
    const { verifier } = setup([node("first", {}), node("second", {})], 2);
    expect([verifier.network, verifier.recipient, verifier.requiredConfirmations, verifier.dustBelow]).toEqual(["ethereum", "first-recipient", REQUIRED, 5n]);
    expect(verifier.explorerUrl("0xh")).toBe("https://first/tx/0xh");
    expect(verifier.formatAmount(3n)).toBe("first:3");
  });
});

const transfer = (hash: string, blockNumber: number | null, over: Partial<ReceivedTransfer> = {}): ReceivedTransfer => ({
  hash,
  amount: 10n,
  senders: ["0xs"],
  direct: true,
  references: [],
  blockNumber,
  ...over,
});

describe("the Ethereum payment scan", () => {
  const scanning = (head: number | null, window: ScanWindow | null) =>
    node("n", { chainPosition: answer(head), scanTransfers: (cursor) => Promise.resolve(window && { ...window, cursor: { ...cursor, ...window.cursor } }) });

  it("starts on the first run at the block the quorum's head makes final, or earlier when asked", async () => {
    const first: ScanCursor = { nextBlock: null, lastSignature: null };
    for (const [startAt, expected] of [
      [null, 100 - REQUIRED + 1],
      [50, 50],
      [95, 100 - REQUIRED + 1],
      [-5, 0],
    ] as const) {
      const nodes = [scanning(100, null), scanning(300, null)];
      await setup(nodes, 2).verifier.scanTransfers(first, { limit: 10, startAt });
      expect(nodes[0].calls.find((c) => c[0] === "scan")).toEqual(["scan", { nextBlock: expected, lastSignature: null }, { limit: 10, startAt }]);
    }
  });

  it("does not start without a quorum's head, and a later run starts at its cursor", async () => {
    const first: ScanCursor = { nextBlock: null, lastSignature: null };
    const silent = [scanning(100, null), scanning(null, null)];
    expect(await setup(silent, 2).verifier.scanTransfers(first, { limit: 10, startAt: null })).toBeNull();
    expect(silent[0].calls.some((c) => c[0] === "scan")).toBe(false);
    const later = [scanning(null, null), scanning(null, null)];
    await setup(later, 2).verifier.scanTransfers({ nextBlock: 40, lastSignature: null }, { limit: 10, startAt: 5 });
    expect(later[0].calls).toEqual([["scan", { nextBlock: 40, lastSignature: null }, { limit: 10, startAt: 5 }]]);
  });

  it("moves to the block the quorum passed, with the final transfers every node lists and the newer ones a quorum lists", async () => {
    const common = [transfer("0x1", 41), transfer("0x2", 44)];
    const nodes = [
      scanning(null, {
        transfers: [...common, transfer("0xnew", 46), transfer("0xpool", null), transfer("0xalone", 47)],
        cursor: { nextBlock: 50, lastSignature: null },
      }),
      scanning(null, { transfers: [...common, transfer("0xnew", 46), transfer("0xpool", null)], cursor: { nextBlock: 45, lastSignature: null } }),
      scanning(null, { transfers: [], cursor: { nextBlock: null, lastSignature: null } }),
    ];
    const { verifier, reports } = setup(nodes, 2);
    const window = await verifier.scanTransfers({ nextBlock: 40, lastSignature: null }, { limit: 10, startAt: null });
    expect(window?.cursor).toEqual({ nextBlock: 45, lastSignature: null });
    expect(window?.transfers.map((t) => t.hash).sort()).toEqual(["0x1", "0x2", "0xnew", "0xpool"]);
    expect(reports).toEqual([]);
  });

  it("the same transfers in another order are the same list; a transfer in the block the quorum stops at is a newer one", async () => {
    const nodes = [
      scanning(null, { transfers: [transfer("0x1", 41), transfer("0x2", 42), transfer("0xat", 45)], cursor: { nextBlock: 46, lastSignature: null } }),
      scanning(null, { transfers: [transfer("0x2", 42), transfer("0x1", 41), transfer("0xat", 45)], cursor: { nextBlock: 45, lastSignature: null } }),
      scanning(null, { transfers: [transfer("0x2", 42), transfer("0x1", 41), transfer("0xone", 45)], cursor: { nextBlock: 45, lastSignature: null } }),
    ];
    const { verifier, reports } = setup(nodes, 2);
    const window = await verifier.scanTransfers({ nextBlock: 40, lastSignature: null }, { limit: 10, startAt: null });
    expect(window?.transfers.map((t) => t.hash).sort()).toEqual(["0x1", "0x2", "0xat"]);
    expect(reports).toEqual([]);
  });

  it("a node behind the quorum's block vouches for nothing: blocks it has not read are not held against it", async () => {
    const nodes = [
      scanning(null, { transfers: [transfer("0x1", 41), transfer("0x2", 47)], cursor: { nextBlock: 48, lastSignature: null } }),
      scanning(null, { transfers: [transfer("0x1", 41), transfer("0x2", 47)], cursor: { nextBlock: 48, lastSignature: null } }),
      scanning(null, { transfers: [transfer("0x1", 41)], cursor: { nextBlock: 43, lastSignature: null } }),
    ];
    const { verifier, reports } = setup(nodes, 2);
    const window = await verifier.scanTransfers({ nextBlock: 40, lastSignature: null }, { limit: 10, startAt: null });
    expect(window).toEqual({ transfers: [transfer("0x1", 41), transfer("0x2", 47)], cursor: { nextBlock: 48, lastSignature: null } });
    expect(reports).toEqual([]);
  });

  it("a node that passed the block and lists another transfer below it is named, and the window counts for nothing", async () => {
    const nodes = [
      scanning(null, { transfers: [transfer("0x1", 41)], cursor: { nextBlock: 45, lastSignature: null } }),
      scanning(null, { transfers: [transfer("0x1", 41)], cursor: { nextBlock: 45, lastSignature: null } }),
      scanning(null, { transfers: [transfer("0x1", 41), transfer("0xforged", 42)], cursor: { nextBlock: 46, lastSignature: null } }),
    ];
    nodes.forEach((n, i) => Object.assign(n, { name: `n${i}` }));
    const { verifier, reports } = setup(nodes, 2);
    expect(await verifier.scanTransfers({ nextBlock: 40, lastSignature: null }, { limit: 10, startAt: null })).toBeNull();
    expect(reports).toEqual([{ network: "ethereum", nodes: ["n2"], hash: "0xforged", detail: expect.stringContaining("different transfers") }]);
  });

  it("is nothing when fewer than the quorum read a window", async () => {
    const nodes = [scanning(null, { transfers: [transfer("0x1", 41)], cursor: { nextBlock: 45, lastSignature: null } }), scanning(null, null)];
    expect(await setup(nodes, 2).verifier.scanTransfers({ nextBlock: 40, lastSignature: null }, { limit: 10, startAt: null })).toBeNull();
  });
});

describe("the Ethereum reconciliation", () => {
  const window = (through: number | null, transfers: ReceivedTransfer[], over: Partial<ReconcileWindow> = {}): ReconcileWindow => ({
    transfers,
    unexplained: [],
    cursor: { ...EMPTY_CURSOR, nextBlock: 1 },
    through: through === null ? null : String(through),
    throughBlock: through,
    caughtUp: true,
    ...over,
  });
  const reconciling = (name: string, w: ReconcileWindow | null) => node(name, { reconcile: answer(w) });

  it("reads through the block the quorum read, with what every node that read it lists", async () => {
    const nodes = [
      reconciling(
        "a",
        window(30, [transfer("0x1", 20), transfer("0x2", 30), transfer("0x3", 31)], { caughtUp: false, unexplained: [{ block: 31, amount: 2n }] }),
      ),
      reconciling("b", window(30, [transfer("0x1", 20), transfer("0x2", 30)], { caughtUp: true })),
      reconciling("c", window(null, [])),
    ];
    const w = await setup(nodes, 2).verifier.reconcile(EMPTY_CURSOR, { limit: 5 });
    expect(w).toEqual({
      transfers: [transfer("0x1", 20), transfer("0x2", 30)],
      unexplained: [],
      cursor: { ...EMPTY_CURSOR, nextBlock: 31 },
      through: "30",
      throughBlock: 30,
      caughtUp: false,
    });
    expect(nodes[0].calls).toEqual([["reconcile", EMPTY_CURSOR, { limit: 5 }]]);
  });

  it("is caught up only when every node stopping at that block is", async () => {
    const nodes = [reconciling("a", window(40, [], { caughtUp: false })), reconciling("b", window(30, [])), reconciling("c", window(30, []))];
    expect((await setup(nodes, 2).verifier.reconcile(EMPTY_CURSOR, { limit: 5 }))?.caughtUp).toBe(true);
  });

  it("a node whose unexplained balance moves differ is named, and the window counts for nothing", async () => {
    const nodes = [
      reconciling("a", window(30, [], { unexplained: [{ block: 25, amount: 9n }] })),
      reconciling("b", window(30, [])),
      reconciling("c", window(30, [])),
    ];
    const { verifier, reports } = setup(nodes, 2);
    expect(await verifier.reconcile(EMPTY_CURSOR, { limit: 5 })).toBeNull();
    expect(reports.map((r) => r.nodes)).toEqual([["a"]]);
  });

  it("agrees on unexplained moves up to the block and keeps them; one node's moves past it count for nothing yet", async () => {
    const moved = [
      { block: 25, amount: 9n },
      { block: 30, amount: 4n },
    ];
    const nodes = [
      reconciling("a", window(30, [], { unexplained: [...moved, { block: 31, amount: 1n }] })),
      reconciling("b", window(31, [], { unexplained: moved })),
    ];
    const { verifier, reports } = setup(nodes, 2);
    expect((await verifier.reconcile(EMPTY_CURSOR, { limit: 5 }))?.unexplained).toEqual(moved);
    expect(reports).toEqual([]);
  });

  it("a node behind the quorum's block is not held to blocks it has not read", async () => {
    const nodes = [
      reconciling("a", window(30, [transfer("0x1", 20), transfer("0x2", 28)])),
      reconciling("b", window(30, [transfer("0x1", 20), transfer("0x2", 28)])),
      reconciling("c", window(25, [transfer("0x1", 20)], { unexplained: [{ block: 24, amount: 1n }] })),
    ];
    const { verifier, reports } = setup(nodes, 2);
    expect((await verifier.reconcile(EMPTY_CURSOR, { limit: 5 }))?.transfers).toEqual([transfer("0x1", 20), transfer("0x2", 28)]);
    expect(reports).toEqual([]);
  });

  it("a pending transfer (in no block) is not part of a reconciled window", async () => {
    const nodes = [reconciling("a", window(30, [transfer("0x1", 20), transfer("0xpool", null)])), reconciling("b", window(30, [transfer("0x1", 20)]))];
    const { verifier, reports } = setup(nodes, 2);
    expect((await verifier.reconcile(EMPTY_CURSOR, { limit: 5 }))?.transfers).toEqual([transfer("0x1", 20)]);
    expect(reports).toEqual([]);
  });

  it("is nothing when fewer than the quorum read a window", async () => {
    expect(await setup([reconciling("a", window(30, [])), reconciling("b", null)], 2).verifier.reconcile(EMPTY_CURSOR, { limit: 5 })).toBeNull();
  });
});

describe("the Solana payment scan", () => {
  const cursorAt = (sig: string): ScanCursor => ({ nextBlock: null, lastSignature: sig });
  const scanning = (name: string, w: ScanWindow | null) => node(name, { scanTransfers: answer(w) }, "solana");
  const start: ScanCursor = { nextBlock: null, lastSignature: "s0" };

  it("takes the window the quorum moved to, when they list the same transfers", async () => {
    const w = { transfers: [transfer("s1", 5)], cursor: cursorAt("s1") };
    const nodes = [scanning("a", w), scanning("b", w), scanning("c", null)];
    expect(await setup(nodes, 2, "solana").verifier.scanTransfers(start, { limit: 10, startAt: null })).toEqual(w);
    expect(nodes[0].calls).toEqual([["scan", start, { limit: 10, startAt: null }]]);
  });

  it("when the nodes' newest signatures differ, keeps the cursor and only what a quorum lists", async () => {
    const nodes = [
      scanning("a", { transfers: [transfer("s1", 5), transfer("s2", 6)], cursor: cursorAt("s2") }),
      scanning("b", { transfers: [transfer("s1", 5)], cursor: cursorAt("s1") }),
    ];
    expect(await setup(nodes, 2, "solana").verifier.scanTransfers(start, { limit: 10, startAt: null })).toEqual({
      transfers: [transfer("s1", 5)],
      cursor: start,
    });
  });

  it("nodes at one cursor that list different transfers are named, and nothing counts", async () => {
    const nodes = [
      scanning("a", { transfers: [transfer("s1", 5)], cursor: cursorAt("s1") }),
      scanning("b", { transfers: [transfer("s1", 5)], cursor: cursorAt("s1") }),
      scanning("c", { transfers: [transfer("s1", 5, { amount: 11n })], cursor: cursorAt("s1") }),
    ];
    const { verifier, reports } = setup(nodes, 2, "solana");
    expect(await verifier.scanTransfers(start, { limit: 10, startAt: null })).toBeNull();
    expect(reports.map((r) => r.nodes)).toEqual([["c"]]);
  });
});

describe("the Solana reconciliation", () => {
  const start: ReconcileCursor = { ...EMPTY_CURSOR, lastSignature: "old" };
  const read = (...s: [string, number][]) => s.map(([signature, slot]) => ({ signature, slot }));
  const window = (through: number, sigs: [string, number][], transfers: ReceivedTransfer[], more = false): ReconcileWindow => ({
    transfers,
    unexplained: [],
    cursor: start,
    through: null,
    throughBlock: null,
    caughtUp: false,
    solana: { through, read: read(...sigs), more },
  });
  const solanaNode = (name: string, head: number | null, w: ReconcileWindow | null) =>
    node(name, { chainPosition: answer(head), reconcile: answer(w) }, "solana");

  it("reads up to the slot a quorum reached and keeps what they hold in common", async () => {
    const t2 = transfer("s2", 52);
    const nodes = [
      solanaNode(
        "a",
        60,
        window(
          55,
          [
            ["s2", 52],
            ["s1", 51],
          ],
          [t2],
        ),
      ),
      solanaNode(
        "b",
        55,
        window(
          55,
          [
            ["s2", 52],
            ["s1", 51],
          ],
          [t2],
        ),
      ),
      solanaNode("c", null, null),
    ];
    const w = await setup(nodes, 2, "solana").verifier.reconcile(start, { limit: 9 });
    expect(nodes[0].calls.filter((c) => c[0] === "reconcile")).toEqual([["reconcile", start, { limit: 9, throughSlot: 55 }]]);
    expect(w).toEqual({
      transfers: [t2],
      unexplained: [],
      cursor: { ...start, lastSignature: "s2" },
      through: "s2",
      throughBlock: 55,
      caughtUp: true,
      solana: { through: 55, read: read(["s2", 52], ["s1", 51]), more: false },
    });
  });

  it("is nothing without a quorum's slot", async () => {
    const nodes = [solanaNode("a", 60, window(55, [], [])), solanaNode("b", null, window(55, [], []))];
    expect(await setup(nodes, 2, "solana").verifier.reconcile(start, { limit: 9 })).toBeNull();
    expect(nodes[0].calls.some((c) => c[0] === "reconcile")).toBe(false);
  });

  it("a node that lists another transfer for a signature the others hold is named, and nothing counts", async () => {
    const nodes = [
      solanaNode("a", 60, window(55, [["s1", 51]], [transfer("s1", 51)])),
      solanaNode("b", 60, window(55, [["s1", 51]], [transfer("s1", 51)])),
      solanaNode("c", 60, window(55, [["s1", 51]], [transfer("s1", 51, { senders: ["forged"] })])),
    ];
    const { verifier, reports } = setup(nodes, 2, "solana");
    expect(await verifier.reconcile(start, { limit: 9 })).toBeNull();
    expect(reports.map((r) => [r.nodes, r.hash])).toEqual([[["c"], null]]);
  });

  it("is nothing when fewer than the quorum read a window, and transfers outside the agreed signatures are left out", async () => {
    const none = [solanaNode("a", 60, window(55, [["s1", 51]], [])), solanaNode("b", 60, null)];
    expect(await setup(none, 2, "solana").verifier.reconcile(start, { limit: 9 })).toBeNull();
    const extra = [
      solanaNode("a", 60, window(55, [["s1", 51]], [transfer("s1", 51), transfer("s9", 59)])),
      solanaNode("b", 60, window(55, [["s1", 51]], [transfer("s1", 51)])),
    ];
    expect((await setup(extra, 2, "solana").verifier.reconcile(start, { limit: 9 }))?.transfers).toEqual([transfer("s1", 51)]);
  });

  it("names what the nodes contradict each other about", async () => {
    const nodes = [solanaNode("a", 60, window(55, [["s1", 51]], [])), solanaNode("b", 60, window(55, [["s2", 52]], []))];
    const { verifier, reports } = setup(nodes, 2, "solana");
    expect(await verifier.reconcile(start, { limit: 9 })).toBeNull();
    expect(reports).toEqual([
      { network: "solana", nodes: ["a", "b"], hash: null, detail: "they list different signatures or transfers to the platform up to a slot they all hold" },
    ]);
  });

  it("a backlog left behind is not caught up and knows no slot yet", async () => {
    const nodes = [solanaNode("a", 60, window(55, [["s3", 53]], [], true)), solanaNode("b", 60, window(55, [["s3", 53]], [], true))];
    const w = await setup(nodes, 2, "solana").verifier.reconcile(start, { limit: 1 });
    expect(w).toMatchObject({ caughtUp: false, throughBlock: null, cursor: { lastSignature: "old", backlogBefore: "s3", backlogNewest: "s3" } });
  });
});
