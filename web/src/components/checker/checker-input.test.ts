import { describe, expect, it } from "vitest";
import { checkerInput } from "./checker-input";

const ETH = "0x000000000000000000000000000000000000dEaD";
const SOL = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";

describe("checkerInput", () => {
  it("trims one address", () => {
    expect(checkerInput(`  ${ETH}\n`)).toEqual({ ok: true, address: ETH });
  });

  it("joins an address pasted over several lines (CR, LF, tabs) instead of sending control characters", () => {
    expect(checkerInput(`${ETH.slice(0, 20)}\r\n${ETH.slice(20, 30)}\n\t${ETH.slice(30)}`)).toEqual({ ok: true, address: ETH });
  });

  it("refuses several complete addresses with a plain reason", () => {
    const r = checkerInput(`${ETH}\n${SOL}`);
    expect(r).toEqual({ ok: false, message: "That is 2 addresses; check one address at a time." });
  });

  it("blank is the spec's 'Please enter an address'", () => {
    expect(checkerInput(" \n\t ")).toEqual({ ok: false, message: "Please enter an address" });
  });
});
