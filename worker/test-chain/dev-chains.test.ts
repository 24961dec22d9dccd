// The dev wallets' relay reaches the real local chains started for the chain tests.
import { describe, expect, it } from "vitest";
import { client } from "../test/client";

describe("dev wallet relay on the local chains", () => {
  it("forwards an Ethereum call to anvil and a Solana call to the LiteSVM RPC", async () => {
    const eth = await client()["dev-chains"][":network"].$post({
      param: { network: "ethereum" },
      json: { jsonrpc: "2.0", id: 3, method: "eth_chainId", params: [] },
    });
    expect(eth.status).toBe(200);
    expect(eth.headers.get("cache-control")).toBe("no-store");
    expect(await eth.json()).toEqual({ jsonrpc: "2.0", id: 3, result: "0x7a69" });
    const sol = await client()["dev-chains"][":network"].$post({ param: { network: "solana" }, json: { jsonrpc: "2.0", id: "s", method: "getHealth" } });
    expect(await sol.json()).toEqual({ jsonrpc: "2.0", id: "s", result: "ok" });
  });
});
