// The dev wallets' relay reaches the real local chains started for the chain tests.
import { describe, expect, it } from "vitest";
import { postJson } from "../test/helpers";

describe("dev wallet relay on the local chains", () => {
  it("forwards an Ethereum call to anvil and a Solana call to the LiteSVM RPC", async () => {
    const eth = await postJson("/api/dev-chains/ethereum", { jsonrpc: "2.0", id: 3, method: "eth_chainId", params: [] });
    expect(eth.status).toBe(200);
    expect(eth.headers.get("cache-control")).toBe("no-store");
    expect(await eth.json()).toEqual({ jsonrpc: "2.0", id: 3, result: "0x7a69" });
    const sol = await postJson("/api/dev-chains/solana", { jsonrpc: "2.0", id: "s", method: "getHealth" });
    expect(await sol.json()).toEqual({ jsonrpc: "2.0", id: "s", result: "ok" });
  });
});
