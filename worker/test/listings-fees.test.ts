// POST /api/transactions/calculate-fees: the spec's gas rules (ETH from the node's gas price x 1.2, SOL
// fixed, fallback on error), fees from fee_config, exact decimal strings, and the bad inputs.
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type FeeBreakdown, PRICE_MESSAGES } from "../../schema/listings";
import { createApp } from "../app";
import { resetGasPriceCache } from "../chain/gas";
import { clientOf, unchecked } from "./client";

const RPC = "http://rpc.test/";
const app = createApp();

/** The app with its Ethereum node at RPC; `gasPrice` is what eth_gasPrice answers (null: the node is down). */
function mockNode(gasPrice: bigint | null) {
  const real = globalThis.fetch;
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(RPC)) return real(input, init);
    if (gasPrice === null) throw new TypeError("connection refused");
    const body = JSON.parse(String(init?.body));
    const answer = (req: { id: number; method: string }) => ({
      jsonrpc: "2.0",
      id: req.id,
      result: req.method === "eth_gasPrice" ? `0x${gasPrice.toString(16)}` : "0x7a69",
    });
    return Response.json(Array.isArray(body) ? body.map(answer) : answer(body));
  });
}

/** A fee quote from the app whose Ethereum node is RPC; a string is sent raw, as written (a body that is not JSON). */
async function fees(body: unknown) {
  const bindings = { ...env, ETH_RPC_URL: RPC };
  const res =
    typeof body === "string"
      ? await app.request(
          "http://localhost/api/transactions/calculate-fees",
          { method: "POST", headers: { "content-type": "application/json" }, body },
          bindings,
        )
      : await clientOf((input, init) => app.request(input, init, bindings)).transactions["calculate-fees"].$post({ json: unchecked(body) });
  return { status: res.status, body: (await res.json()) as FeeBreakdown & { message?: string } };
}

beforeEach(() => resetGasPriceCache());
afterEach(async () => {
  vi.restoreAllMocks();
  await env.DB.prepare("UPDATE fee_config SET exchange_fee_percentage = '0', commission_fee_percentage = '0', minimum_fee = '0', maximum_fee = NULL").run();
});

describe("gas", () => {
  it("ETH: 21000 x the node's gas price x 1.20", async () => {
    mockNode(1_000_000_000n); // 1 gwei
    const { status, body } = await fees({ price: "0.5", currency: "ETH", membershipTier: "basic" });
    expect(status).toBe(200);
    expect(body).toEqual({
      listingPrice: "0.5",
      gasFee: "0.0000252",
      exchangeFee: "0",
      commissionFee: "0",
      totalAmount: "0.5000252",
      currency: "ETH",
      network: "ethereum",
      gasSource: "rpc",
    });
  });

  it("ETH with the node down: the fixed 0.0001", async () => {
    mockNode(null);
    const { body } = await fees({ price: 1, currency: "ETH" });
    expect(body).toMatchObject({ gasFee: "0.0001", totalAmount: "1.0001", gasSource: "fallback" });
  });

  it("SOL: fixed 0.000005, no node asked", async () => {
    const spy = mockNode(1n);
    const { body } = await fees({ price: "2", currency: "SOL" });
    expect(body).toMatchObject({ listingPrice: "2", gasFee: "0.000005", totalAmount: "2.000005", currency: "SOL", network: "solana", gasSource: "fixed" });
    expect(spy.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).startsWith(RPC))).toHaveLength(0);
  });

  it("uses the active fee_config's multiplier", async () => {
    mockNode(10_000_000_000n);
    await env.DB.prepare("UPDATE fee_config SET gas_fee_multiplier = '2' WHERE network = 'ethereum'").run();
    try {
      expect((await fees({ price: "1", currency: "ETH" })).body.gasFee).toBe("0.00042");
    } finally {
      await env.DB.prepare("UPDATE fee_config SET gas_fee_multiplier = '1.20' WHERE network = 'ethereum'").run();
    }
  });
});

describe("platform fees", () => {
  it("percentages from fee_config, exact, with the minimum", async () => {
    await env.DB.prepare(
      "UPDATE fee_config SET exchange_fee_percentage = '2.5', commission_fee_percentage = '1', minimum_fee = '0.02' WHERE network = 'solana'",
    ).run();
    const { body } = await fees({ price: "0.1", currency: "SOL" });
    // 2.5% of 0.1 = 0.0025 and 1% = 0.001, both raised to the 0.02 minimum.
    expect(body).toMatchObject({ exchangeFee: "0.02", commissionFee: "0.02", totalAmount: "0.140005" });
    const big = await fees({ price: "10", currency: "SOL" });
    expect(big.body).toMatchObject({ exchangeFee: "0.25", commissionFee: "0.1", totalAmount: "10.350005" });
  });

  it("a broken fee_config row is an operator's problem: 503, never a 500", async () => {
    await env.DB.prepare("UPDATE fee_config SET exchange_fee_percentage = 'lots' WHERE network = 'solana'").run();
    const { status, body } = await fees({ price: "1", currency: "SOL" });
    expect(status).toBe(503);
    expect(body.message).toMatch(/fee configuration for solana is invalid/);
  });
});

describe("bad input", () => {
  it.each([
    ["no price", { currency: "ETH" }, PRICE_MESSAGES.required],
    ["zero", { price: 0, currency: "ETH" }, PRICE_MESSAGES.positive],
    ["negative", { price: "-1", currency: "ETH" }, PRICE_MESSAGES.negative],
    ["9 decimals", { price: "0.123456789", currency: "ETH" }, PRICE_MESSAGES.decimals],
    ["text", { price: "free", currency: "ETH" }, PRICE_MESSAGES.positive],
    ["no currency", { price: "1" }, /currency/],
    ["unknown currency", { price: "1", currency: "BTC" }, /currency must be ETH or SOL/],
    ["unknown tier", { price: "1", currency: "SOL", membershipTier: "platinum" }, /membershipTier must be an active membership tier/],
    ["tier not text", { price: "1", currency: "SOL", membershipTier: 5 }, /membershipTier must be a string/],
    ["not JSON", "price=1", /./],
  ])("%s: 400", async (_name, body, message) => {
    const { status, body: answer } = await fees(body);
    expect(status).toBe(400);
    expect(String(answer.message)).toMatch(message);
  });
});
