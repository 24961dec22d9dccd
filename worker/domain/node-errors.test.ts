import { describe, expect, it } from "vitest";
import { SIGNATURE_ERROR_CODES, solanaErrorMeaning } from "./node-errors";

describe("solanaErrorMeaning: a node's error about one signature", () => {
  it("invalid params (WrongSize, not base58) and an unsupported transaction version: no transaction we can show", () => {
    expect(SIGNATURE_ERROR_CODES).toEqual([-32602, -32015]);
    expect(solanaErrorMeaning(-32602)).toBe("missing");
    expect(solanaErrorMeaning(-32015)).toBe("missing");
  });

  it("anything else is the node's own trouble: unavailable", () => {
    for (const code of [-32004, -32005, -32009, -32011, -32016, -32600, -32601, -32603, 429, 0, null]) expect(solanaErrorMeaning(code)).toBe("unavailable");
  });
});
