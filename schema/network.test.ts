import { describe, expect, it } from "vitest";
import { NETWORKS } from "./db/columns";
import { currencyOf, networkName } from "./network";

describe("schema/network.ts", () => {
  it("names each network and its currency, and the two never mix", () => {
    expect(NETWORKS.map((n) => [networkName(n), currencyOf(n)])).toEqual([
      ["Ethereum", "ETH"],
      ["Solana", "SOL"],
    ]);
  });
});
