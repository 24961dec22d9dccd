import { describe, expect, it } from "vitest";
import { NETWORKS } from "./db/columns";
import { BASE_UNIT_DECIMALS, BASE_UNIT_NAMES, BASE_UNITS_PER_UNIT, PRICE_DECIMALS } from "./money";
import { currencyOf, networkName } from "./network";

describe("schema/network.ts", () => {
  it("names each network and its currency, and the two never mix", () => {
    expect(NETWORKS.map((n) => [networkName(n), currencyOf(n)])).toEqual([
      ["Ethereum", "ETH"],
      ["Solana", "SOL"],
    ]);
  });

  it("counts each network's amounts in its coin's smallest unit", () => {
    expect(NETWORKS.map((n) => [BASE_UNIT_DECIMALS[currencyOf(n)], BASE_UNIT_NAMES[currencyOf(n)]])).toEqual([
      [18, ["wei", "wei"]],
      [9, ["lamport", "lamports"]],
    ]);
    // a price's 1e-8 unit converts to base units by the same decimals, so a payment is exact
    for (const n of NETWORKS) expect(10n ** BigInt(BASE_UNIT_DECIMALS[currencyOf(n)] - PRICE_DECIMALS)).toBe(BASE_UNITS_PER_UNIT[currencyOf(n)]);
  });
});
