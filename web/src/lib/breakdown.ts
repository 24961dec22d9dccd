// The purchase breakdown, one set of rows in the same words on the listing page (before buying,
// from the fee preview) and on the purchase page (after reserving, from the purchase): what is paid to the
// platform (price + platform fees), the network fee the buyer's wallet pays on top (an estimate), and the total.
// Exact decimal arithmetic (schema/money.ts); a figure not known yet is null.
import { decimalToUnits, unitsToDecimal } from "../../../schema/money";

export const BREAKDOWN_WORDS = {
  price: "Price",
  platformFees: "Platform fees",
  paidToPlatform: "Paid to the platform",
  networkFee: "Network fee (estimate, paid by your wallet)",
  total: "Total",
} as const;

export type BreakdownRow = { key: keyof typeof BREAKDOWN_WORDS; label: string; amount: string | null };

const sum = (...xs: (string | null)[]): string | null => {
  if (xs.some((x) => x === null)) return null;
  try {
    return unitsToDecimal(xs.reduce((acc, x) => acc + decimalToUnits(x!), 0n));
  } catch {
    return null;
  }
};

/** `fees`: exchange fee + commission, as decimal strings; `networkFee`: the gas estimate. */
export function breakdownRows(price: string, fees: { exchangeFee: string; commissionFee: string } | null, networkFee: string | null): BreakdownRow[] {
  const platformFees = fees ? sum(fees.exchangeFee, fees.commissionFee) : null;
  const paid = sum(price, platformFees);
  const rows: [BreakdownRow["key"], string | null][] = [
    ["price", price],
    ["platformFees", platformFees],
    ["paidToPlatform", paid],
    ["networkFee", networkFee],
    ["total", sum(paid, networkFee)],
  ];
  return rows.map(([key, amount]) => ({ key, label: BREAKDOWN_WORDS[key], amount }));
}
