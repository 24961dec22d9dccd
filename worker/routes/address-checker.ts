// The address checker: is this a valid address, how rare is it, what might it be worth.
// Invalid addresses are an answer (200, isValid false, a specific message); malformed requests are 400s.
import { and, desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import * as v from "valibot";
import { guessNetwork, validateAddress } from "../../schema/address";
import type { AddressCheckResponse } from "../../schema/api";
import { algorithmAdjustments, NETWORKS, type Network } from "../../schema/db";
import type { Db } from "../db";
import { analyzeAddress, estimateValue, expectedTimeSeconds, REFERENCE_RATES } from "../domain/rarity";
import { validate } from "../http/validate";
import type { AppEnv } from "../types";

/** Longest input we analyse; real addresses are at most 44 characters. */
export const MAX_CHECK_LENGTH = 256;

const addressField = v.pipe(
  v.string("address must be a string"),
  v.maxLength(MAX_CHECK_LENGTH, `address must be at most ${MAX_CHECK_LENGTH} characters`),
  v.regex(/^[^\u0000-\u001f\u007f]*$/, "address must not contain control characters"),
  v.transform((s) => s.trim()),
  v.minLength(1, "address is required"),
);

const postBody = v.object({
  address: addressField,
  network: v.optional(v.picklist(NETWORKS, "network must be ethereum or solana")),
});
const getQuery = v.object({ address: addressField });

export async function valueMultiplier(db: Db, network: Network): Promise<number> {
  const row = await db
    .select({ m: algorithmAdjustments.baseValueMultiplier })
    .from(algorithmAdjustments)
    .where(and(eq(algorithmAdjustments.network, network), eq(algorithmAdjustments.isActive, true)))
    .orderBy(desc(algorithmAdjustments.id))
    .get();
  return row && row.m > 0 ? row.m : 1;
}

async function check(db: Db, address: string, network: Network): Promise<AddressCheckResponse> {
  const result = validateAddress(address, network);
  if (!result.isValid) {
    return { isValid: false, message: result.message, error: result.message, network, address };
  }
  const rarity = analyzeAddress(result.normalized, network);
  const rates = REFERENCE_RATES[network];
  const { matchRanges, ...fields } = rarity;
  return {
    isValid: true,
    message: `Valid ${network === "ethereum" ? "Ethereum" : "Solana"} address`,
    network,
    address: result.normalized,
    currency: network === "ethereum" ? "ETH" : "SOL",
    estimatedValue: estimateValue(rarity.difficulty.log2, network, await valueMultiplier(db, network)),
    ...fields,
    matchRanges: matchRanges.map(([start, end]) => [start, end] as [number, number]),
    expectedTime: {
      cpuCoreSeconds: expectedTimeSeconds(rarity.difficulty.attempts, rates.cpuCore),
      gpuSeconds: expectedTimeSeconds(rarity.difficulty.attempts, rates.gpu),
    },
    referenceRates: { cpuCore: rates.cpuCore, gpu: rates.gpu },
  };
}

export const addressCheckerRoutes = new Hono<AppEnv>()
  .post("/validate", validate("json", postBody), async (c) => {
    const { address, network } = c.req.valid("json");
    return c.json(await check(c.var.db, address, network ?? guessNetwork(address)));
  })
  .get("/validate", validate("query", getQuery), async (c) => {
    const { address } = c.req.valid("query");
    return c.json(await check(c.var.db, address, guessNetwork(address)));
  });
