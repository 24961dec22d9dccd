// The buyer's fee breakdown (POST /api/transactions/calculate-fees): listing price, estimated gas, the
// platform's exchange and commission fees from the active fee_config row, and the total. Pure bigint math in
// 1e-8 units; the gas price is fetched elsewhere (chain/gas.ts) and passed in.
import { BASE_UNITS_PER_UNIT, decimalToUnits, mulDiv, percentOf, UNITS_PER_COIN } from "../../schema/money";

/** The fee_config columns the breakdown reads (decimal strings, percentages as "2.5" for 2.5%). */
export type FeeConfig = {
  exchangeFeePercentage: string;
  commissionFeePercentage: string;
  minimumFee: string;
  maximumFee: string | null;
  gasFeeMultiplier: string;
};

/** The spec's gas estimate: an ETH transfer uses 21000 gas (0x5208). */
export const ETH_TRANSFER_GAS = 21_000n;
/** Solana: a fixed 0.000005 SOL (one signature). */
export const SOLANA_GAS_FEE = "0.000005";
/** Any other case, and when the node cannot be asked: 0.0001. */
export const FALLBACK_GAS_FEE = "0.0001";

/**
 * 21000 x gas price x multiplier, in 1e-8 ETH units, rounded up so a non-zero estimate never shows as 0.
 * `multiplier` is fee_config.gasFeeMultiplier ("1.20").
 */
export function ethereumGasUnits(gasPriceWei: bigint, multiplier: string): bigint {
  if (gasPriceWei < 0n) throw new RangeError("gas price must not be negative");
  return mulDiv(ETH_TRANSFER_GAS * gasPriceWei, decimalToUnits(multiplier), UNITS_PER_COIN * BASE_UNITS_PER_UNIT.ETH, "up");
}

/**
 * One percentage fee: `percent`% of the price, then held between fee_config's minimum and maximum. A fee
 * whose percentage is 0 is not charged at all, so the minimum does not turn a free service into a paid one.
 */
export function percentageFee(priceUnits: bigint, percent: string, minimum: string, maximum: string | null): bigint {
  const pct = decimalToUnits(percent);
  if (pct === 0n) return 0n;
  let fee = percentOf(priceUnits, percent);
  const min = decimalToUnits(minimum);
  // Stryker disable next-line EqualityOperator: at fee = min both branches give min (equivalent mutant)
  if (fee < min) fee = min;
  if (maximum !== null && maximum.trim() !== "") {
    const max = decimalToUnits(maximum);
    // Stryker disable next-line EqualityOperator: at fee = max both branches give max (equivalent mutant)
    if (fee > max) fee = max;
  }
  return fee;
}

export type FeeUnits = { listingPrice: bigint; gasFee: bigint; exchangeFee: bigint; commissionFee: bigint; totalAmount: bigint };

/** The breakdown in units. `commissionDiscount` is the membership tier's discount on the commission, in percent. */
export function feeBreakdownUnits(priceUnits: bigint, config: FeeConfig, gasUnits: bigint, commissionDiscount = "0"): FeeUnits {
  const exchangeFee = percentageFee(priceUnits, config.exchangeFeePercentage, config.minimumFee, config.maximumFee);
  const fullCommission = percentageFee(priceUnits, config.commissionFeePercentage, config.minimumFee, config.maximumFee);
  const discount = decimalToUnits(commissionDiscount);
  const hundred = 100n * UNITS_PER_COIN;
  // Stryker disable next-line EqualityOperator: at exactly 100% mulDiv gives 0 too (equivalent mutant)
  const commissionFee = discount >= hundred ? 0n : mulDiv(fullCommission, hundred - discount, hundred, "half-up");
  return {
    listingPrice: priceUnits,
    gasFee: gasUnits,
    exchangeFee,
    commissionFee,
    totalAmount: priceUnits + gasUnits + exchangeFee + commissionFee,
  };
}
