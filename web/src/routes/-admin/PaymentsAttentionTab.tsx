// "Payments needing attention" (issue 10 §3, issue 26 §3): received payments that did not buy anything as they
// were sent (late, partial, duplicate, over, failed, unmatched, indirect), with what arrived against what was due,
// links to the explorer, and "Mark refunded" once the admin has sent the money back (its hash is recorded). The
// server re-checks the payment on the chain first; a refusal says why, here and on the row.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { type AttentionPayment, type AttentionReason, TX_HASH_PATTERN } from "../../../../schema/purchases";
import { errorMessage } from "../../api/error-message";
import { markPaymentRefunded, paymentsAttentionQuery } from "../../api/purchases";
import { Spinner } from "../../components/Spinner";
import { toast } from "../../components/toast-store";
import { formatPriceTrimmed, relativeTime } from "../../lib/display";
import { PaymentDifferences } from "./PaymentDifferences";
import { PaymentField, PaymentRowHeading, PurchaseField, TxHashLink } from "./payment-row";

export const REASON_TEXT: Record<AttentionReason, { label: string; help: string }> = {
  late: { label: "Late", help: "Paid after the reservation expired" },
  partial: { label: "Partial", help: "Paid less than the total due" },
  duplicate: { label: "Duplicate", help: "A second payment for a purchase already paid" },
  over: { label: "Over", help: "Paid more than the total due: the excess is owed back" },
  failed: { label: "Failed", help: "Received, but the purchase failed" },
  unmatched: {
    label: "Unmatched",
    help: "A transfer to the platform that no purchase can take (sent before the reservation, without its reference, or by a wallet with no purchase)",
  },
  indirect: { label: "Indirect", help: "Value that reached the platform through a program call the verifier cannot credit" },
};

export function PaymentsAttentionTab() {
  return (
    <div className="space-y-8">
      <RefundsDue />
      <PaymentDifferences />
    </div>
  );
}

function RefundsDue() {
  const payments = useQuery(paymentsAttentionQuery());
  if (payments.isPending) return <Spinner label="Loading payments…" />;
  if (payments.isError) {
    return (
      <p role="alert" className="rounded-xl border border-red-700 bg-red-950/40 p-4 text-sm text-red-200">
        Payments could not be loaded: {errorMessage(payments.error)}
      </p>
    );
  }
  const rows = payments.data.payments;
  return (
    <section aria-labelledby="attention-title" className="space-y-4">
      <div>
        <h2 id="attention-title" className="text-xl font-semibold text-white">
          Payments needing attention
        </h2>
        <p className="mt-1 text-sm text-slate-400">
          Money that arrived but did not (fully) pay for a purchase. Send it back from the platform wallet, then record the refund's transaction hash here.
        </p>
      </div>
      {rows.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-700 p-10 text-center text-slate-400">
          No payments need attention. Every received payment is settled.
        </div>
      ) : (
        <ul className="space-y-3" data-testid="attention-list">
          {rows.map((p) => (
            <AttentionRow key={p.id} payment={p} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AttentionRow({ payment: p }: { payment: AttentionPayment }) {
  const reason = REASON_TEXT[p.reason] ?? { label: p.reason, help: "" };
  const refunded = p.status === "refunded";
  return (
    <li className="rounded-2xl border border-slate-800 bg-slate-900/60 p-4" data-testid="attention-row" data-reason={p.reason}>
      <PaymentRowHeading label={reason.label} help={reason.help} tone="bg-amber-500/15 text-amber-300" createdAt={p.createdAt}>
        <span className="text-xs text-slate-400">{reason.help}</span>
      </PaymentRowHeading>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <PaymentField label="Received">
          <dd className="font-semibold text-white tabular-nums">
            {formatPriceTrimmed(p.amount)} {p.currency}
          </dd>
        </PaymentField>
        <PaymentField label="Due">
          <dd className="text-slate-200 tabular-nums">{p.expectedAmount ? `${formatPriceTrimmed(p.expectedAmount)} ${p.currency}` : "—"}</dd>
        </PaymentField>
        <PaymentField label="From" wide>
          <dd className="font-mono break-all text-slate-200">{p.senderAddress ?? "unknown"}</dd>
        </PaymentField>
        <PaymentField label="Payment" wide>
          <dd className="font-mono break-all text-slate-200">{p.txHash ? <TxHashLink hash={p.txHash} explorerUrl={p.explorerUrl} /> : "—"}</dd>
        </PaymentField>
        {p.transactionId && <PurchaseField id={p.transactionId} />}
        <PaymentField label="Status">
          <dd className="text-slate-200 capitalize">{p.status.replace(/_/g, " ")}</dd>
        </PaymentField>
      </dl>
      {p.checkFailure && (
        <p role="status" className="mt-3 rounded-lg border border-red-800 bg-red-950/40 px-3 py-2 text-sm text-red-200">
          Not marked refunded{p.checkedAt ? ` (checked ${relativeTime(p.checkedAt)})` : ""}: {p.checkFailure}
        </p>
      )}
      {!refunded && <RefundForm payment={p} />}
    </li>
  );
}

function RefundForm({ payment }: { payment: AttentionPayment }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [hash, setHash] = useState("");
  const valid = TX_HASH_PATTERN.test(hash.trim());
  const refund = useMutation({
    mutationFn: () => markPaymentRefunded(payment.id, hash.trim()),
    onSuccess: async () => {
      toast({
        title: "Marked Refunded",
        description: `The refund of ${formatPriceTrimmed(payment.amount)} ${payment.currency} is recorded.`,
        variant: "success",
      });
      setHash("");
      await queryClient.invalidateQueries({ queryKey: paymentsAttentionQuery().queryKey });
    },
    onError: async (err) => {
      toast({ title: "Update Failed", description: errorMessage(err) || "The refund could not be recorded.", variant: "destructive" });
      // The row now says why the chain check refused it.
      await queryClient.invalidateQueries({ queryKey: paymentsAttentionQuery().queryKey });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (valid && !refund.isPending) refund.mutate();
  };
  return (
    <form onSubmit={submit} className="mt-4 flex flex-col gap-2 border-t border-slate-800 pt-3 sm:flex-row sm:items-end">
      <label htmlFor={`${id}-hash`} className="flex-1 text-xs text-slate-400">
        Refund transaction hash
        <input
          id={`${id}-hash`}
          value={hash}
          onChange={(e) => setHash(e.target.value)}
          placeholder={payment.network === "ethereum" ? "0x…" : "signature"}
          aria-invalid={hash !== "" && !valid}
          spellCheck={false}
          autoComplete="off"
          className="mt-1 w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 font-mono text-sm text-white focus-visible:outline-2 focus-visible:outline-violet-400"
        />
      </label>
      <button
        type="submit"
        disabled={!valid || refund.isPending}
        className="rounded-lg bg-violet-600 px-4 py-2 text-sm font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {refund.isPending ? "Saving…" : "Mark refunded"}
      </button>
    </form>
  );
}
