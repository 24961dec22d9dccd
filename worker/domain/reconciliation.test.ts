import { describe, expect, it } from "vitest";
import {
  classifyReceived,
  EMPTY_CURSOR,
  ethereumWindow,
  type ReconcileCursor,
  refundRecheck,
  solanaProgress,
  solanaQuorumWindow,
  solanaWindowParams,
  type TransferCheck,
  unexplainedByBlock,
} from "./reconciliation";

describe("ethereumWindow: the blocks one run reads", () => {
  it("the first run starts just past the current depth and reads nothing", () => {
    expect(ethereumWindow(null, 100, 3, 50)).toEqual({ start: 99 });
    expect(ethereumWindow(null, 1, 3, 50)).toEqual({ start: 1 });
    expect(ethereumWindow(null, 3, 3, 50)).toEqual({ start: 2 });
  });

  it("only blocks at the required depth, at most `limit` of them", () => {
    expect(ethereumWindow(10, 100, 3, 50)).toEqual({ from: 10, to: 59 });
    expect(ethereumWindow(90, 100, 3, 50)).toEqual({ from: 90, to: 98 });
    expect(ethereumWindow(98, 100, 3, 50)).toEqual({ from: 98, to: 98 });
    expect(ethereumWindow(99, 100, 3, 50)).toBeNull();
    expect(ethereumWindow(10, 100, 1, 1)).toEqual({ from: 10, to: 10 });
  });
});

describe("unexplainedByBlock", () => {
  it("the balance change of each block less what its transactions explain; explained blocks are left out", () => {
    expect(unexplainedByBlock(7, [100n, 150n, 150n, 140n], [50n, -10n, -10n])).toEqual([{ block: 8, amount: 10n }]);
    expect(unexplainedByBlock(7, [100n, 90n], [0n])).toEqual([{ block: 7, amount: -10n }]);
    expect(unexplainedByBlock(7, [100n, 100n, 130n], [0n, 0n])).toEqual([{ block: 8, amount: 30n }]);
    expect(unexplainedByBlock(7, [5n], [])).toEqual([]);
  });
});

describe("the Solana window: newest first, a walk back when one run is not enough", () => {
  const limit = 3;
  it("the first run learns where the address stands and reads nothing", () => {
    expect(solanaWindowParams(EMPTY_CURSOR, limit)).toEqual({ limit });
    expect(solanaProgress(EMPTY_CURSOR, ["s9", "s8"], true)).toEqual({ cursor: { ...EMPTY_CURSOR, lastSignature: "s9" }, caughtUp: true });
    expect(solanaProgress(EMPTY_CURSOR, [], false)).toEqual({ cursor: { ...EMPTY_CURSOR, lastSignature: "" }, caughtUp: true });
    // A full page all past the slot the run stops at: where the address stands is not known yet.
    expect(solanaProgress(EMPTY_CURSOR, [], true)).toEqual({ cursor: EMPTY_CURSOR, caughtUp: false });
  });

  it("after that, everything newer than the last signature read ('' = from the start)", () => {
    const c: ReconcileCursor = { ...EMPTY_CURSOR, lastSignature: "s1" };
    expect(solanaWindowParams(c, limit)).toEqual({ limit, until: "s1" });
    expect(solanaWindowParams({ ...c, lastSignature: "" }, limit)).toEqual({ limit });
    expect(solanaProgress(c, ["s3", "s2"], false)).toEqual({ cursor: { ...c, lastSignature: "s3" }, caughtUp: true });
    expect(solanaProgress(c, [], false)).toEqual({ cursor: c, caughtUp: true });
    expect(solanaProgress(c, [], true)).toEqual({ cursor: c, caughtUp: false });
  });

  it("a full page, or one cut short by a failed call, may hide older ones: walk back before its oldest, then take its newest as the last read", () => {
    const c: ReconcileCursor = { ...EMPTY_CURSOR, lastSignature: "s1" };
    const walking = solanaProgress(c, ["s9", "s8", "s7"], true);
    expect(walking).toEqual({ cursor: { ...c, backlogBefore: "s7", backlogNewest: "s9" }, caughtUp: false });
    expect(solanaWindowParams(walking.cursor, limit)).toEqual({ limit, before: "s7", until: "s1" });
    const further = solanaProgress(walking.cursor, ["s6", "s5"], true);
    expect(further).toEqual({ cursor: { ...walking.cursor, backlogBefore: "s5" }, caughtUp: false });
    // A failed call before anything was read: the walk stays where it was.
    expect(solanaProgress(further.cursor, [], true)).toEqual({ cursor: further.cursor, caughtUp: false });
    // The walk is over: its newest becomes the last read; what came after it is the next run's.
    expect(solanaProgress(further.cursor, ["s3", "s2"], false)).toEqual({ cursor: { ...EMPTY_CURSOR, lastSignature: "s9" }, caughtUp: false });
    expect(solanaWindowParams({ ...walking.cursor, lastSignature: "" }, limit)).toEqual({ limit, before: "s7" });
  });
});

describe("solanaQuorumWindow: what a quorum of nodes vouch for", () => {
  const sig = (name: string, slot: number, key = name) => ({ signature: name, slot, key });
  const node = (through: number, more: boolean, ...read: ReturnType<typeof sig>[]) => ({ through, read, more });

  it("stops at the slot a quorum reached: a node a slot ahead with newer signatures agrees on the rest", () => {
    const ahead = node(12, false, sig("c", 12), sig("b", 10), sig("a", 9));
    const behind = node(10, false, sig("b", 10), sig("a", 9));
    expect(solanaQuorumWindow([ahead, behind], 2)).toEqual({ through: 10, read: [sig("b", 10), sig("a", 9)], more: false, vouchers: [0, 1] });
    // A quorum of one: the node furthest on.
    expect(solanaQuorumWindow([ahead, behind], 1)).toMatchObject({ through: 12, more: false, vouchers: [0] });
    // Three nodes, two of them ahead: the third cannot vouch for what it has not reached.
    expect(solanaQuorumWindow([ahead, behind, ahead], 2)).toEqual({ through: 12, read: ahead.read, more: false, vouchers: [0, 2] });
  });

  it("a node cut short (a failed call, a full page) shortens the window to what a quorum read; fewer answers than the quorum: nothing", () => {
    const whole = node(10, false, sig("c", 10), sig("b", 9), sig("a", 8));
    const cut = node(10, true, sig("c", 10));
    expect(solanaQuorumWindow([whole, cut], 2)).toEqual({ through: 10, read: [sig("c", 10)], more: true, vouchers: [0, 1] });
    expect(solanaQuorumWindow([whole, cut, whole], 2)).toEqual({ through: 10, read: whole.read, more: false, vouchers: [0, 2] });
    expect(solanaQuorumWindow([whole, null], 2)).toBeNull();
    expect(solanaQuorumWindow([null, null], 1)).toBeNull();
    // Nothing read at all on a node that failed at once: nothing passes.
    expect(solanaQuorumWindow([whole, node(10, true)], 2)).toEqual({ through: 10, read: [], more: true, vouchers: [0, 1] });
  });

  it("different signatures or transfers where they must agree: the nodes outside the larger side are named (both on a tie)", () => {
    const honest = node(10, false, sig("b", 10), sig("a", 9));
    const forged = node(10, false, sig("x", 10), sig("b", 10), sig("a", 9));
    const inflated = node(10, false, sig("b", 10, "b-more"), sig("a", 9));
    expect(solanaQuorumWindow([honest, forged], 2)).toEqual({ contradicting: [0, 1] });
    expect(solanaQuorumWindow([honest, inflated, honest], 2)).toEqual({ contradicting: [1] });
    // A node that read less must list the beginning of what the others agree on.
    expect(solanaQuorumWindow([honest, honest, node(10, true, sig("x", 10))], 2)).toEqual({ contradicting: [2] });
    expect(solanaQuorumWindow([honest, honest, node(10, true, sig("b", 10))], 2)).toMatchObject({ read: honest.read, vouchers: [0, 1] });
  });
});

describe("classifyReceived", () => {
  const none = { ledgerAmount: null, ledgerHeld: false, purchaseWaiting: false };
  it("a ledger row for all of it: credited; for less: short; held: in progress", () => {
    expect(classifyReceived(100n, { ...none, ledgerAmount: 100n })).toBe("credited");
    expect(classifyReceived(100n, { ...none, ledgerAmount: 150n })).toBe("credited");
    expect(classifyReceived(100n, { ...none, ledgerAmount: 99n })).toBe("short");
    expect(classifyReceived(100n, { ...none, ledgerAmount: 100n, ledgerHeld: true })).toBe("in-progress");
  });
  it("no ledger row: a purchase verifying it is in progress, else unknown", () => {
    expect(classifyReceived(100n, { ...none, purchaseWaiting: true })).toBe("in-progress");
    expect(classifyReceived(100n, none)).toBe("unknown");
  });
});

describe("refundRecheck: before a refund is marked done", () => {
  const row = { sender: "0xAbC", amount: 500n };
  const ok: TransferCheck = { kind: "found", succeeded: true, amount: 500n, senders: ["0xabc"], confirmations: 3 };
  it("passes for the recorded payment, still there, final, from the sender (any letter case on Ethereum), for at least the amount", () => {
    expect(refundRecheck("ethereum", row, ok, 3)).toBeNull();
    expect(refundRecheck("ethereum", row, { ...ok, amount: 501n, confirmations: 9 }, 3)).toBeNull();
  });
  it("refuses, saying why", () => {
    expect(refundRecheck("ethereum", row, { kind: "unavailable" }, 3)).toMatch(/Ethereum node is not answering/);
    expect(refundRecheck("solana", row, { kind: "unavailable" }, 1)).toMatch(/Solana node is not answering/);
    expect(refundRecheck("ethereum", row, { kind: "missing" }, 3)).toMatch(/not on the chain/);
    expect(refundRecheck("ethereum", row, { ...ok, succeeded: false }, 3)).toMatch(/failed on chain/);
    expect(refundRecheck("ethereum", row, { ...ok, confirmations: 2 }, 3)).toBe("The payment is 2 of 3 confirmations deep; mark it refunded once it is final.");
    expect(refundRecheck("ethereum", row, { ...ok, amount: 0n }, 3)).toMatch(/sent nothing to the platform/);
    expect(refundRecheck("ethereum", { ...row, sender: null }, ok, 3)).toMatch(/No sender is recorded/);
    expect(refundRecheck("ethereum", row, { ...ok, senders: ["0xdef"] }, 3)).toBe("The payment's sender on chain is 0xdef, not 0xAbC as recorded.");
    expect(refundRecheck("ethereum", row, { ...ok, senders: [] }, 3)).toMatch(/is unknown, not/);
    expect(refundRecheck("solana", row, { ...ok, senders: ["a", "b"], confirmations: 1 }, 1)).toMatch(/is a, b, not/);
    expect(refundRecheck("ethereum", row, { ...ok, amount: 499n }, 3)).toMatch(/received 499 base units .* less than the 500 recorded/);
  });
  it("Solana compares senders exactly", () => {
    expect(refundRecheck("solana", { sender: "AbC", amount: 1n }, { ...ok, senders: ["abc"], confirmations: 1 }, 1)).toMatch(/sender/);
    expect(refundRecheck("solana", { sender: "AbC", amount: 1n }, { ...ok, senders: ["x", "AbC"], confirmations: 1 }, 1)).toBeNull();
  });
});
