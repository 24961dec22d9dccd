// The address checker's answer: is this a valid address, how rare is it, what does the score mean, what might
// it be worth, and does anyone hold its key. Invalid addresses are an answer (isValid false, a specific message).
import { and, desc, eq, isNull, or } from "drizzle-orm";
import * as v from "valibot";
import { validateAddress } from "../../schema/address";
import type { AddressCheckResponse } from "../../schema/api";
import { addresses, algorithmAdjustments, NETWORKS, type Network } from "../../schema/db";
import type { Db } from "../db/database";
import { keylessAddress } from "../domain/keyless";
import { analyzeAddress, estimateValue, expectedTimeSeconds, hexCharacters, REFERENCE_RATES } from "../domain/rarity";
import { noControlCharacters } from "../http/validate";
import { currencyOf, networkName } from "../../schema/network";
import { onMarket } from "./status-sql";

/** Longest input we analyse; real addresses are at most 44 characters. */
export const MAX_CHECK_LENGTH = 256;

const addressField = v.pipe(
  v.string("address must be a string"),
  v.maxLength(MAX_CHECK_LENGTH, `address must be at most ${MAX_CHECK_LENGTH} characters`),
  noControlCharacters("address"),
  v.transform((s) => s.trim()),
  v.minLength(1, "address is required"),
);

export const checkPostBody = v.object({
  address: addressField,
  network: v.optional(v.picklist(NETWORKS, "network must be ethereum or solana")),
});
export const checkGetQuery = v.object({ address: addressField });

/** The network-wide multiplier of estimated values (the address checker: no category or length to go by). */
export async function valueMultiplier(db: Db, network: Network): Promise<number> {
  return (await valueCalibration(db, network, null, null)).multiplier;
}

/**
 * The multiplier for a listing's kind: the active row fitted for its network, category and pattern length
 * (jobs/calibrate-values.ts) if there is one, else the network-wide row; with the number of sales it rests on
 * (0 for the uncalibrated default).
 */
export async function valueCalibration(
  db: Db,
  network: Network,
  category: string | null,
  patternLength: number | null,
): Promise<{ multiplier: number; sales: number }> {
  const aa = algorithmAdjustments;
  const networkWide = and(isNull(aa.category), isNull(aa.patternLength));
  const kind = category !== null && patternLength !== null ? or(networkWide, and(eq(aa.category, category), eq(aa.patternLength, patternLength))) : networkWide;
  const rows = await db
    .select({ m: aa.baseValueMultiplier, sales: aa.salesCount, category: aa.category })
    .from(aa)
    .where(and(eq(aa.network, network), eq(aa.isActive, true), kind))
    .orderBy(desc(aa.id))
    .limit(4);
  const row = rows.find((r) => r.category !== null) ?? rows[0];
  return row && row.m > 0 ? { multiplier: row.m, sales: row.sales } : { multiplier: 1, sales: 0 };
}

export async function checkAddress(db: Db, address: string, network: Network): Promise<AddressCheckResponse> {
  const result = validateAddress(address, network);
  if (!result.isValid) {
    return { isValid: false, message: result.message, error: result.message, network, address };
  }
  const rarity = analyzeAddress(result.normalized, network);
  const rates = REFERENCE_RATES[network];
  const keyless = keylessAddress(result.normalized, network);
  const { matchRanges, ...fields } = rarity;
  const name = networkName(network);
  const [multiplier, listing] = await Promise.all([keyless ? 1 : valueMultiplier(db, network), forSale(db, result.normalized, network)]);
  return {
    isValid: true,
    message: keyless ? `Valid ${name} address, but no one holds its private key` : `Valid ${name} address`,
    network,
    address: result.normalized,
    currency: currencyOf(network),
    // No key, nothing to sell: whatever its pattern, it is worth nothing.
    estimatedValue: keyless ? "0" : estimateValue(rarity.difficulty.log2, network, multiplier),
    ...fields,
    matchRanges: matchRanges.map(([start, end]) => [start, end] as [number, number]),
    hexCharacters: hexCharacters(rarity.difficulty.log2),
    keyless,
    expectedTime: {
      cpuCoreSeconds: expectedTimeSeconds(rarity.difficulty.attempts, rates.cpuCore),
      gpuSeconds: expectedTimeSeconds(rarity.difficulty.attempts, rates.gpu),
    },
    referenceRates: { cpuCore: rates.cpuCore, gpu: rates.gpu },
    listing,
  };
}

/**
 * The marketplace's listing of this address while it is for sale (active and listed: the same listings search
 * shows as buyable), so the checker can link to it; a sold, hidden or custom-order listing is none
 * (addresses_address_unique).
 */
async function forSale(db: Db, address: string, network: Network) {
  const row = await db
    .select({ id: addresses.id, price: addresses.price, currency: addresses.currency })
    .from(addresses)
    .where(and(eq(addresses.address, address), eq(addresses.network, network), onMarket(addresses)))
    .get();
  return row ? { id: row.id, price: row.price, currency: row.currency } : null;
}
