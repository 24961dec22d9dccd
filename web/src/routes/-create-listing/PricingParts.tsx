// Parts of the single-listing form that only show what they are given: the live market prices, the fee breakdown of
// the typed price, and the listing type's choice (SingleListingForm.tsx holds the state and the requests).
import type { FeeBreakdown as Fees, PromotionType } from "../../../../schema/listings";
import type { UsdRates } from "../../../../schema/prices";
import { formatUsd } from "../../lib/number-format";
import { feePercent, sellerReceives } from "./form-rules";

/** The coins' prices in USD, beside the price field. */
export function LiveMarketPrices({ prices }: { prices: { isLoading: boolean; data: UsdRates | undefined } }) {
  return (
    <div className="rounded-xl border border-slate-800 bg-slate-950/60 p-4 text-sm" aria-live="polite">
      <p className="font-medium text-slate-300">Live market prices</p>
      {prices.isLoading ? (
        <p className="mt-2 text-slate-400">Loading prices…</p>
      ) : prices.data ? (
        <dl className="mt-2 grid grid-cols-2 gap-2">
          <div>
            <dt className="text-xs text-slate-400">ETH</dt>
            <dd className="tabular-nums text-white">{formatUsd(prices.data.ethPrice)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-400">SOL</dt>
            <dd className="tabular-nums text-white">{formatUsd(prices.data.solPrice)}</dd>
          </div>
        </dl>
      ) : (
        <p className="mt-2 text-slate-400">Market prices are unavailable right now.</p>
      )}
    </div>
  );
}

/** What the typed price gives the seller after every fee, once the price reads as one. */
export function FeeBreakdown({
  priceMessage,
  fees,
  currency,
}: {
  priceMessage: string | null;
  fees: { isFetching: boolean; isError: boolean; data: Fees | undefined };
  currency: string;
}) {
  return (
    <div className="rounded-xl border border-slate-800 bg-slate-950/60 p-4 text-sm" data-testid="fee-breakdown">
      <p className="font-medium text-slate-300">Fee breakdown</p>
      {priceMessage ? (
        <p className="mt-2 text-slate-400">Enter a price to see the fees.</p>
      ) : fees.isFetching || !fees.data ? (
        <p className="mt-2 text-slate-400">{fees.isError ? "Fees could not be calculated right now." : "Calculating fees…"}</p>
      ) : (
        <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 tabular-nums">
          <dt className="text-slate-400">Listing price</dt>
          <dd className="text-right text-white">
            {fees.data.listingPrice} {currency}
          </dd>
          <dt className="text-slate-400">Platform fee ({feePercent(fees.data.exchangeFee, fees.data.listingPrice)})</dt>
          <dd className="text-right text-white">
            {fees.data.exchangeFee} {currency}
          </dd>
          <dt className="text-slate-400">Commission ({feePercent(fees.data.commissionFee, fees.data.listingPrice)})</dt>
          <dd className="text-right text-white">
            {fees.data.commissionFee} {currency}
          </dd>
          <dt className="text-slate-400">Estimated gas fee</dt>
          <dd className="text-right text-white">
            {fees.data.gasFee} {currency}
          </dd>
          <dt className="border-t border-slate-800 pt-1 font-medium text-slate-200">You receive</dt>
          <dd className="border-t border-slate-800 pt-1 text-right font-semibold text-emerald-300">
            {sellerReceives(fees.data.listingPrice, [fees.data.exchangeFee, fees.data.commissionFee, fees.data.gasFee])} {currency}
          </dd>
        </dl>
      )}
    </div>
  );
}

const PROMOTIONS = [
  ["standard", "Standard", "Listed in the marketplace."],
  ["featured", "Featured", "Highlighted in purple and shown under Featured Addresses on the home page and the marketplace."],
] as const;
const ADMIN_PROMOTIONS = [["promoted", "Promoted", "Orange highlight, admins only."]] as const;

/** Standard, Featured and (admins only) Promoted, as one radio group. */
export function ListingOptions({
  name,
  isAdmin,
  value: chosen,
  onChange,
}: {
  name: string;
  isAdmin: boolean;
  value: PromotionType;
  onChange: (value: PromotionType) => void;
}) {
  return (
    <div className="grid gap-3 sm:grid-cols-3" role="radiogroup" aria-label="Listing type">
      {[...PROMOTIONS, ...(isAdmin ? ADMIN_PROMOTIONS : [])].map(([value, title, text]) => (
        <label
          key={value}
          className={`flex cursor-pointer gap-3 rounded-xl border p-3 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-violet-500 ${
            chosen === value ? "border-violet-500 bg-violet-500/10" : "border-slate-800 hover:border-slate-600"
          }`}
        >
          <input type="radio" name={name} value={value} checked={chosen === value} onChange={() => onChange(value)} className="mt-1 accent-violet-500" />
          <span>
            <span className="block font-medium text-white">{title}</span>
            <span className="text-slate-400">{text}</span>
          </span>
        </label>
      ))}
    </div>
  );
}
