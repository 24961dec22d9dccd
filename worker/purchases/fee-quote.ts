// The fee breakdown of a price, as the fee preview shows it and as a reservation charges it: the fee_config row
// in force for the network at that moment (Admin > Settings keeps history with effective-from times), the membership tier's commission discount, and the gas estimate of the spec
// (the specification's rule: ETH 21000 x node gas price x multiplier, SOL fixed, fallback when the node is away).
import type { NodeList } from "../deployment/deployment";
import { and, eq } from "drizzle-orm";
import { membershipTiers, type Network } from "../../schema/db";
import type { FeeBreakdown } from "../../schema/listings";
import { currentGasPrice } from "../chain/gas";
import type { Db } from "../db/database";
import { ethereumGasUnits, FALLBACK_GAS_FEE, feeBreakdownUnits, type FeeUnits, SOLANA_GAS_FEE } from "../domain/fees";
import { feeConfigInForce } from "../operations/settings";
import { decimalToUnits } from "../../schema/money";
import { ApiError } from "../http/errors";

async function commissionDiscount(db: Db, tier: string): Promise<string> {
  const row = await db
    .select({ discount: membershipTiers.commissionDiscount })
    .from(membershipTiers)
    .where(and(eq(membershipTiers.name, tier), eq(membershipTiers.isActive, true)))
    .get();
  if (!row) throw new ApiError(400, "membershipTier must be an active membership tier (basic)");
  return row.discount;
}

export type GasEstimate = { units: bigint; source: FeeBreakdown["gasSource"]; gasPriceWei: bigint | null };

/** Gas estimate in units: ETH from the node's gas price, SOL fixed, the fallback when the node is unavailable. */
async function gasEstimate(ethereum: NodeList, network: Network, multiplier: string): Promise<GasEstimate> {
  if (network === "solana") return { units: decimalToUnits(SOLANA_GAS_FEE), source: "fixed", gasPriceWei: null };
  const wei = await currentGasPrice(ethereum);
  if (wei === null) return { units: decimalToUnits(FALLBACK_GAS_FEE), source: "fallback", gasPriceWei: null };
  return { units: ethereumGasUnits(wei, multiplier), source: "rpc", gasPriceWei: wei };
}

export type FeeQuote = FeeUnits & { gas: GasEstimate };

/**
 * The breakdown of `priceUnits` on `network` under the configuration in force at `at` (a reservation passes the
 * time it is made); 503 when fee_config holds text that is not a decimal.
 */
export async function quoteFees(db: Db, ethereum: NodeList, network: Network, priceUnits: bigint, tier = "basic", at = Date.now()): Promise<FeeQuote> {
  const [config, discount] = await Promise.all([feeConfigInForce(db, network, at), commissionDiscount(db, tier)]);
  try {
    const gas = await gasEstimate(ethereum, network, config.gasFeeMultiplier);
    return { ...feeBreakdownUnits(priceUnits, config, gas.units, discount), gas };
  } catch (err) {
    // Only a fee_config or membership row that is not a decimal gets here: an operator's mistake, not the caller's.
    if (!(err instanceof RangeError)) throw err;
    console.error(`fee configuration for ${network} is not valid decimal text`);
    throw new ApiError(503, `The fee configuration for ${network} is invalid; fees cannot be calculated until an admin fixes it`);
  }
}
