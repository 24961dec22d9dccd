// The breakdown's rows (lib/breakdown.ts) as the listing page and the purchase page show them, each amount with
// its USD figure at the one rate (useUsdRates).
import { type BreakdownRow, breakdownRows } from "../../lib/breakdown";
import { formatPriceTrimmed, usdText } from "../../lib/number-format";
import { useUsdRates } from "../use-usd-rates";

export function PriceBreakdown({
  currency,
  price,
  fees,
  networkFee,
  pendingText,
}: {
  currency: "ETH" | "SOL";
  price: string;
  fees: { exchangeFee: string; commissionFee: string } | null;
  networkFee: string | null;
  /** What a figure not known yet reads ("Calculating...", "Not available"). */
  pendingText: string;
}) {
  const rates = useUsdRates();
  const strong = (key: BreakdownRow["key"]) => key === "paidToPlatform" || key === "total";
  return (
    <dl className="space-y-2 text-sm" data-testid="purchase-breakdown">
      {breakdownRows(price, fees, networkFee).map((row) => (
        <div key={row.key} className={`flex justify-between gap-4 ${row.key === "total" ? "border-t border-slate-800 pt-2" : ""}`} data-row={row.key}>
          <dt className={strong(row.key) ? "font-semibold text-slate-200" : "text-slate-400"}>{row.label}</dt>
          <dd className="text-right">
            <div className={`tabular-nums ${strong(row.key) ? "font-bold text-white" : "text-slate-100"}`}>
              {row.amount === null ? pendingText : `${formatPriceTrimmed(row.amount)} ${currency}`}
            </div>
            {row.amount !== null && (
              <div className="text-xs text-slate-400" data-testid="usd">
                {usdText(row.amount, currency, rates)}
              </div>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
