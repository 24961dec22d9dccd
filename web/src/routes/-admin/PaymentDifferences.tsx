// Admin > Payments > Reconciliation: what the reconciliation found at the platform addresses that no
// purchase or ledger row accounts for (value forwarded by a contract, a transfer no purchase can take, a ledger
// that records less than arrived), how far each network has been read, and "Resolve" with a note saying what was
// done (the server audits it).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import type { DifferenceKind, PaymentDifference, ReconciliationProgress } from "../../../../schema/admin-payments";
import { errorMessage } from "../../api/error-message";
import { paymentDifferencesQuery, paymentsAttentionQuery, resolvePaymentDifference } from "../../api/purchases";
import { AdminNoteField, isAdminNote } from "../../components/AdminNoteField";
import { Spinner } from "../../components/Spinner";
import { toast } from "../../components/toast-store";
import { relativeTime } from "../../lib/date-format";
import { shortAddress } from "../../lib/short-address";
import { PaymentField, PaymentRowHeading, PurchaseField, TxHashLink } from "./payment-row";

export const DIFFERENCE_TEXT: Record<DifferenceKind, { label: string; help: string }> = {
  uncredited: { label: "Uncredited transfer", help: "Reached the platform and no purchase took it; it is also listed above for refund" },
  balance: { label: "Balance difference", help: "The platform's balance moved by more than its transactions explain (value by an internal call)" },
  ledger: { label: "Ledger", help: "The ledger and the chain disagree about a payment" },
};

export function PaymentDifferences() {
  const id = useId();
  const differences = useQuery(paymentDifferencesQuery());
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-4 border-t border-slate-800 pt-6">
      <div>
        <h2 id={`${id}-title`} className="text-xl font-semibold text-white">
          Reconciliation
        </h2>
        <p className="mt-1 text-sm text-slate-400">
          Every transfer to the platform addresses is matched against the purchases and the ledger. What nothing accounts for is listed here until someone
          resolves it with a note.
        </p>
      </div>
      {differences.isPending && <Spinner label="Loading the reconciliation…" />}
      {differences.isError && (
        <p role="alert" className="rounded-xl border border-red-700 bg-red-950/40 p-4 text-sm text-red-200">
          The reconciliation could not be loaded: {errorMessage(differences.error)}
        </p>
      )}
      {differences.isSuccess && (
        <>
          <Progress rows={differences.data.reconciliation} />
          {differences.data.differences.length === 0 ? (
            <div className="rounded-2xl border border-dashed border-slate-700 p-8 text-center text-slate-400">
              No differences: every transfer read so far is accounted for.
            </div>
          ) : (
            <ul className="space-y-3" data-testid="difference-list">
              {differences.data.differences.map((d) => (
                <DifferenceRow key={d.id} difference={d} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function Progress({ rows }: { rows: ReconciliationProgress[] }) {
  return (
    <dl className="grid gap-2 text-sm sm:grid-cols-2">
      {rows.map((r) => (
        <div
          key={r.network}
          data-testid="reconciliation-progress"
          data-behind={r.behind}
          className={`rounded-xl border px-3 py-2 ${r.behind ? "border-red-700 bg-red-950/40" : "border-slate-800 bg-slate-900/40"}`}
        >
          <dt className="text-xs text-slate-500 capitalize">{r.network}</dt>
          <dd className="text-slate-200">
            {r.through ? (
              <>
                read through <span className="font-mono break-all">{r.network === "ethereum" ? r.through : shortAddress(r.through)}</span>
                {r.updatedAt && <span className="text-slate-500"> · {relativeTime(r.updatedAt)}</span>}
              </>
            ) : (
              "not started yet (the next cron run starts it)"
            )}
          </dd>
          {r.blocksBehind !== null && (
            <dd className={r.behind ? "text-red-200" : "text-xs text-slate-500"}>
              {r.blocksBehind.toLocaleString("en-US")} {r.network === "ethereum" ? "block" : "slot"}
              {r.blocksBehind === 1 ? "" : "s"} behind the head
              {r.minutesBehind !== null && r.minutesBehind > 0 && <> · last caught up {r.minutesBehind.toLocaleString("en-US")} min ago</>}
              {r.behind && <strong className="font-semibold"> · fallen behind: payments it has not read are not checked</strong>}
            </dd>
          )}
        </div>
      ))}
    </dl>
  );
}

function DifferenceRow({ difference: d }: { difference: PaymentDifference }) {
  const kind = DIFFERENCE_TEXT[d.kind] ?? { label: d.kind, help: "" };
  return (
    <li className="rounded-2xl border border-slate-800 bg-slate-900/60 p-4" data-testid="difference-row" data-kind={d.kind}>
      <PaymentRowHeading label={kind.label} help={kind.help} tone="bg-rose-500/15 text-rose-300" createdAt={d.createdAt}>
        <span className="text-xs text-slate-400 capitalize">{d.network}</span>
      </PaymentRowHeading>
      <p className="mt-2 text-sm break-words text-slate-200">{d.detail}</p>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {d.amount !== null && (
          <PaymentField label="Amount">
            {/* Exact: the server formats wei or lamports with every digit. */}
            <dd className="font-semibold break-all text-white tabular-nums">
              {d.amount} {d.currency}
            </dd>
          </PaymentField>
        )}
        {d.fromBlock !== null && (
          <PaymentField label="Block">
            <dd className="font-mono text-slate-200">{d.fromBlock === d.toBlock ? d.fromBlock : `${d.fromBlock}–${d.toBlock}`}</dd>
          </PaymentField>
        )}
        {d.txHash && (
          <PaymentField label="Transaction" wide>
            <dd className="font-mono break-all text-slate-200">
              <TxHashLink hash={d.txHash} explorerUrl={d.explorerUrl} />
            </dd>
          </PaymentField>
        )}
        {d.senderAddress && (
          <PaymentField label="From" wide>
            <dd className="font-mono break-all text-slate-200">{d.senderAddress}</dd>
          </PaymentField>
        )}
        {d.transactionId && <PurchaseField id={d.transactionId} />}
      </dl>
      <ResolveForm difference={d} />
    </li>
  );
}

function ResolveForm({ difference }: { difference: PaymentDifference }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [note, setNote] = useState("");
  const valid = isAdminNote(note);
  const resolve = useMutation({
    mutationFn: () => resolvePaymentDifference(difference.id, note.trim()),
    onSuccess: async () => {
      toast({ title: "Resolved", description: "The difference is resolved; your note is recorded.", variant: "success" });
      setNote("");
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: paymentDifferencesQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: paymentsAttentionQuery().queryKey }),
      ]);
    },
    onError: (err) => toast({ title: "Update Failed", description: errorMessage(err) || "The difference could not be resolved.", variant: "destructive" }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (valid && !resolve.isPending) resolve.mutate();
  };
  return (
    <form onSubmit={submit} className="mt-4 flex flex-col gap-2 border-t border-slate-800 pt-3 sm:flex-row sm:items-end">
      <AdminNoteField
        id={`${id}-note`}
        label="What was done (required)"
        note={note}
        onChange={setNote}
        placeholder="e.g. refunded to the sender in 0x…, or: our own test transfer"
      />
      <button
        type="submit"
        disabled={!valid || resolve.isPending}
        className="rounded-lg bg-violet-600 px-4 py-2 text-sm font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {resolve.isPending ? "Saving…" : "Resolve"}
      </button>
    </form>
  );
}
