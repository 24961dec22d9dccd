// The pieces both Admin > Payments lists show a payment with: the row's heading (a badge, its meaning, when), a
// labelled field, a transaction hash linked to the explorer, and the purchase it belongs to.
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { relativeTime } from "../../lib/date-format";
import { shortAddress } from "../../lib/short-address";

export function PaymentRowHeading({
  label,
  help,
  tone,
  createdAt,
  children,
}: {
  label: string;
  help: string;
  tone: string;
  createdAt: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`} title={help}>
        {label}
      </span>
      {children}
      <span className="ml-auto text-xs text-slate-500" title={createdAt}>
        {relativeTime(createdAt)}
      </span>
    </div>
  );
}

export function PaymentField({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "min-w-0" : undefined}>
      <dt className="text-xs text-slate-500">{label}</dt>
      {children}
    </div>
  );
}

/** A transaction hash, shortened, linked to the explorer when the network has one. */
export function TxHashLink({ hash, explorerUrl }: { hash: string; explorerUrl: string | null }) {
  return explorerUrl ? (
    <a href={explorerUrl} target="_blank" rel="noopener noreferrer" className="text-violet-300 hover:text-violet-200">
      {shortAddress(hash)} <span aria-hidden>↗</span>
      <span className="sr-only"> (opens the explorer in a new tab)</span>
    </a>
  ) : (
    <span title={hash}>{shortAddress(hash)}</span>
  );
}

export function PurchaseField({ id }: { id: string }) {
  return (
    <PaymentField label="Purchase">
      <dd>
        <Link to="/transaction/$transactionId" params={{ transactionId: id }} className="font-mono text-violet-300 hover:text-violet-200">
          {shortAddress(id)}
        </Link>
      </dd>
    </PaymentField>
  );
}
