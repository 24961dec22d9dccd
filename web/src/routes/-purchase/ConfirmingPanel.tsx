// Waiting for depth (status pending, or a payment this page just sent): spinner, the hash's first 10
// characters and the live confirmation count.
import type { PurchaseView } from "../../../../schema/purchases";
import { confirmationsText } from "./purchase-state";

export function ConfirmingPanel({ view, hash }: { view: PurchaseView; hash: string | null }) {
  return (
    <section aria-labelledby="confirming-title" className="rounded-2xl border border-amber-700/50 bg-slate-900/60 p-5 sm:p-6" data-testid="confirming-panel">
      <div className="flex items-start gap-4">
        <span className="mt-1 h-6 w-6 shrink-0 animate-spin rounded-full border-2 border-slate-700 border-t-amber-400" aria-hidden />
        <div className="min-w-0 space-y-2">
          <h2 id="confirming-title" className="text-lg font-semibold text-white">
            Confirming your payment
          </h2>
          <p className="text-sm text-slate-300">
            The private key is revealed here as soon as the payment has the required confirmations (usually 30 seconds to 2 minutes). This page updates by
            itself.
          </p>
          {hash && (
            <p className="font-mono text-sm text-slate-400">
              Transaction <span className="text-slate-200">{hash.slice(0, 10)}</span>...
            </p>
          )}
          <p className="text-sm font-semibold text-amber-300" role="status" aria-live="polite" data-testid="confirmations">
            {confirmationsText(view.confirmations, view.requiredConfirmations)}
          </p>
        </div>
      </div>
    </section>
  );
}
