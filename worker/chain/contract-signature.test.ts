// The contract-wallet verdict (contract-signature.ts): valid only when the quorum vouched and no node contradicted;
// the nodes named are those outside the larger side, every answering node on a tie, and never a node that did not
// answer. The nodes themselves are exercised in worker/test-chain/quorum-ethereum.test.ts (anvil and a lying node).
import { describe, expect, it } from "vitest";
import { contractSignatureVerdict } from "./contract-signature";

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
