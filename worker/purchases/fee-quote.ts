// The fee breakdown of a price, as the fee preview shows it and as a reservation charges it: fee_config's
// active row for the network, the membership tier's commission discount, and the gas estimate of the spec
// (public-side.md §9: ETH 21000 x node gas price x multiplier, SOL fixed, fallback when the node is away).
import { and, desc, eq } from "drizzle-orm";
import { feeConfig, membershipTiers, type Network } from "../../schema/db";
import type { FeeBreakdown } from "../../schema/listings";
import { currentGasPrice } from "../chain/gas";
import type { Db } from "../db";
import { ethereumGasUnits, FALLBACK_GAS_FEE, type FeeConfig, feeBreakdownUnits, type FeeUnits, SOLANA_GAS_FEE } from "../domain/fees";
import { decimalToUnits } from "../../schema/money";
import { ApiError } from "../http/errors";

/** With no fee_config row for the network: no platform fees, the spec's default gas multiplier. */
const NO_FEES: FeeConfig = { exchangeFeePercentage: "0", commissionFeePercentage: "0", minimumFee: "0", maximumFee: null, gasFeeMultiplier: "1.20" };

async function activeFeeConfig(db: Db, network: Network): Promise<FeeConfig> {
  const row = await db
    .select()
    .from(feeConfig)
    .where(and(eq(feeConfig.network, network), eq(feeConfig.isActive, true)))
    .orderBy(desc(feeConfig.effectiveFrom))
    .get();
  return row ?? NO_FEES;
}

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
async function gasEstimate(env: Env, network: Network, multiplier: string): Promise<GasEstimate> {
  if (network === "solana") return { units: decimalToUnits(SOLANA_GAS_FEE), source: "fixed", gasPriceWei: null };
  const wei = await currentGasPrice(env);
  if (wei === null) return { units: decimalToUnits(FALLBACK_GAS_FEE), source: "fallback", gasPriceWei: null };
  return { units: ethereumGasUnits(wei, multiplier), source: "rpc", gasPriceWei: wei };
}

export type FeeQuote = FeeUnits & { gas: GasEstimate };

/** The breakdown of `priceUnits` on `network`; 503 when fee_config holds text that is not a decimal. */
export async function quoteFees(db: Db, env: Env, network: Network, priceUnits: bigint, tier = "basic"): Promise<FeeQuote> {
  const [config, discount] = await Promise.all([activeFeeConfig(db, network), commissionDiscount(db, tier)]);
  try {
    const gas = await gasEstimate(env, network, config.gasFeeMultiplier);
    return { ...feeBreakdownUnits(priceUnits, config, gas.units, discount), gas };
  } catch (err) {
    // Only a fee_config or membership row that is not a decimal gets here: an operator's mistake, not the caller's.
    if (!(err instanceof RangeError)) throw err;
    console.error(`fee configuration for ${network} is not valid decimal text`);
    throw new ApiError(503, `The fee configuration for ${network} is invalid; fees cannot be calculated until an admin fixes it`);
  }
}
