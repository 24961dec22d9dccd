// Waiting for depth (status pending, or a payment this page just sent): spinner, the hash's first 10
// characters, the live confirmation count, and what to expect when, worded from the purchase's deadlines so it
// never promises a time already passed (confirmingNote).
import type { PurchaseView } from "../../../../schema/purchases";
import { useNow } from "../../components/use-now";
import { formatTime } from "../../lib/date-format";
import { confirmationsText, confirmingNote } from "./purchase-state";

export function ConfirmingPanel({ view, hash }: { view: PurchaseView; hash: string | null }) {
  const note = confirmingNote(view, useNow(5000), formatTime);
  return (
    <section aria-labelledby="confirming-title" className="rounded-2xl border border-amber-700/50 bg-slate-900/60 p-5 sm:p-6" data-testid="confirming-panel">
      <div className="flex items-start gap-4">
        <span className="mt-1 h-6 w-6 shrink-0 animate-spin rounded-full border-2 border-slate-700 border-t-amber-400" aria-hidden />
        <div className="min-w-0 space-y-2">
          <h2 id="confirming-title" className="text-lg font-semibold text-white">
            Confirming your payment
          </h2>
          <p className={`text-sm ${note.stage === "usual" ? "text-slate-300" : "text-amber-200"}`} data-testid="confirming-note">
            {note.text}
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
