// The pure rules of the reads that ask every node without a payment at stake (docs/payments.md#trust-no-single-node):
// which Solana blockhash is tried first, and the gas price's median. On real nodes with a liar among them:
// worker/test-chain/quorum-solana.test.ts and quorum-ethereum.test.ts.
import { describe, expect, it } from "vitest";
import { medianPrice } from "./gas";
import { candidateOrder } from "./solana-blockhash";

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
