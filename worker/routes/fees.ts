// POST /api/transactions/calculate-fees {price, currency, membershipTier} -> the fee breakdown the listing
// form and the listing page preview (transactions-profile-admin.md §3, §7, §9; public-side.md §9 gas rule).
// Mounted on /api/transactions.
import { and, desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import * as v from "valibot";
import { feeConfig, membershipTiers, type Network } from "../../schema/db";
import type { FeeBreakdown } from "../../schema/listings";
import { currentGasPrice } from "../chain/gas";
import type { Db } from "../db";
import { ethereumGasUnits, FALLBACK_GAS_FEE, type FeeConfig, feeBreakdownUnits, SOLANA_GAS_FEE } from "../domain/fees";
import { checkPrice, decimalToUnits, unitsToDecimal } from "../domain/money";
import { ApiError } from "../http/errors";
import { validate } from "../http/validate";
import type { AppEnv } from "../types";

const body = v.object({
  // Checked by checkPrice, so the messages are the listing form's.
  price: v.optional(v.unknown()),
  currency: v.picklist(["ETH", "SOL"], "currency must be ETH or SOL"),
  membershipTier: v.optional(v.pipe(v.string("membershipTier must be a string"), v.trim(), v.minLength(1), v.maxLength(32, "membershipTier is too long")), "basic"),
});

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

/** Gas estimate in units: ETH from the node's gas price, SOL fixed, the fallback when the node is unavailable. */
async function gasEstimate(env: Env, network: Network, multiplier: string): Promise<{ units: bigint; source: FeeBreakdown["gasSource"] }> {
  if (network === "solana") return { units: decimalToUnits(SOLANA_GAS_FEE), source: "fixed" };
  const wei = await currentGasPrice(env);
  if (wei === null) return { units: decimalToUnits(FALLBACK_GAS_FEE), source: "fallback" };
  return { units: ethereumGasUnits(wei, multiplier), source: "rpc" };
}

export const feeRoutes = new Hono<AppEnv>().post("/calculate-fees", validate("json", body), async (c) => {
  const input = c.req.valid("json");
  const price = checkPrice(input.price);
  if (!price.ok) throw new ApiError(400, price.message);
  const network: Network = input.currency === "ETH" ? "ethereum" : "solana";
  const [config, discount] = await Promise.all([activeFeeConfig(c.var.db, network), commissionDiscount(c.var.db, input.membershipTier)]);
  let breakdown;
  try {
    const gas = await gasEstimate(c.env, network, config.gasFeeMultiplier);
    const units = feeBreakdownUnits(price.units, config, gas.units, discount);
    breakdown = {
      listingPrice: unitsToDecimal(units.listingPrice),
      gasFee: unitsToDecimal(units.gasFee),
      exchangeFee: unitsToDecimal(units.exchangeFee),
      commissionFee: unitsToDecimal(units.commissionFee),
      totalAmount: unitsToDecimal(units.totalAmount),
      currency: input.currency,
      network,
      gasSource: gas.source,
    } satisfies FeeBreakdown;
  } catch (err) {
    // Only a fee_config or membership row that is not a decimal gets here: an operator's mistake, not the caller's.
    if (!(err instanceof RangeError)) throw err;
    console.error(`fee configuration for ${network} is not valid decimal text`);
    throw new ApiError(503, `The fee configuration for ${network} is invalid; fees cannot be calculated until an admin fixes it`);
  }
  return c.json(breakdown);
});
