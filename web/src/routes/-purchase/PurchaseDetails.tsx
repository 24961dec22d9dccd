// The details card: what was bought, on which network, for how much (the breakdown in the listing page's words),
// and when.
import type { ReactNode } from "react";
import type { PurchaseView } from "../../../../schema/purchases";
import { formatDayTime } from "../../lib/date-format";
import { formatRarity } from "../../lib/rarity-display";
import { PriceBreakdown } from "../../components/purchase/PriceBreakdown";
import { StatusBadge } from "../../components/purchase/StatusBadge";
import { networkName } from "../../../../schema/network";

export function PurchaseDetails({ view }: { view: PurchaseView }) {
  const rows: [string, ReactNode][] = [
    [
      "Address",
      <span key="address" className="font-mono break-all">
        {view.address}
      </span>,
    ],
    ["Network", networkName(view.network)],
    ["Rarity", formatRarity(view.rarityScore)],
    ["Status", <StatusBadge key="status" status={view.status} failureReason={view.failureReason} />],
    ["Created", formatDayTime(view.createdAt)],
  ];
  if (view.completedAt) rows.push(["Completed", formatDayTime(view.completedAt)]);
  return (
    <section aria-labelledby="details-title" className="rounded-2xl border border-slate-800 bg-slate-900/60 p-5">
      <h2 id="details-title" className="text-xs font-semibold tracking-wide text-slate-400 uppercase">
        Purchase Details
      </h2>
      <dl className="mt-3 space-y-2 text-sm" data-testid="purchase-details">
        {rows.map(([label, value]) => (
          <div key={label} className="grid grid-cols-[6rem_1fr] gap-3">
            <dt className="text-slate-400">{label}</dt>
            <dd className="min-w-0 text-slate-100">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-5 text-xs font-semibold tracking-wide text-slate-400 uppercase">Purchase Breakdown</h3>
      <div className="mt-3">
        <PriceBreakdown currency={view.currency} price={view.price} fees={view} networkFee={view.networkFeeEstimate} pendingText="Not recorded" />
      </div>
    </section>
  );
}
