// "Payments needing attention": received payments that did not buy anything as they
// were sent (late, partial, duplicate, over, failed, unmatched, indirect), each with the amounts that mean something
// for its reason, exactly (lib/refund-fields.ts), links to the explorer, "Mark refunded" once the admin has sent the
// money back (its hash is recorded; the server re-checks the payment on the chain first, and a refusal says why, here
// and on the row), and "Dismiss" with a note when no refund will be sent.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { TX_HASH_PATTERN } from "../../../../schema/purchases";
import type { AttentionPayment, AttentionReason } from "../../../../schema/admin-payments";
import { errorMessage } from "../../api/error-message";
import { dismissPaymentRefund, markPaymentRefunded, paymentsAttentionQuery } from "../../api/purchases";
import { AdminNoteField, isAdminNote } from "../../components/AdminNoteField";
import { Spinner } from "../../components/Spinner";
import { toast } from "../../components/toast-store";
import { relativeTime } from "../../lib/date-format";
import { refundFields } from "../../lib/refund-fields";
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
  const { fields, showPurchase } = refundFields(p);
  return (
    <li className="rounded-2xl border border-slate-800 bg-slate-900/60 p-4" data-testid="attention-row" data-reason={p.reason}>
      <PaymentRowHeading label={reason.label} help={reason.help} tone="bg-amber-500/15 text-amber-300" createdAt={p.createdAt}>
        <span className="text-xs text-slate-400">{reason.help}</span>
      </PaymentRowHeading>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {fields.map((f) => (
          <PaymentField key={f.label} label={f.label}>
            <dd data-testid={f.testId} className={`break-all tabular-nums ${f.testId === "to-refund" ? "font-semibold text-white" : "text-slate-200"}`}>
              {f.value}
            </dd>
          </PaymentField>
        ))}
        <PaymentField label="From" wide>
          <dd className="font-mono break-all text-slate-200">{p.senderAddress ?? "unknown"}</dd>
        </PaymentField>
        <PaymentField label="Payment" wide>
          <dd className="font-mono break-all text-slate-200">{p.txHash ? <TxHashLink hash={p.txHash} explorerUrl={p.explorerUrl} /> : "—"}</dd>
        </PaymentField>
        {showPurchase && p.transactionId && <PurchaseField id={p.transactionId} />}
        <PaymentField label="Status">
          <dd className="text-slate-200 capitalize">{p.status.replace(/_/g, " ")}</dd>
        </PaymentField>
      </dl>
      {p.checkFailure && (
        <p role="status" className="mt-3 rounded-lg border border-red-800 bg-red-950/40 px-3 py-2 text-sm text-red-200">
          Not marked refunded{p.checkedAt ? ` (checked ${relativeTime(p.checkedAt)})` : ""}: {p.checkFailure}
        </p>
      )}
      {!refunded && (
        <>
          <RefundForm payment={p} />
          <DismissForm payment={p} />
        </>
      )}
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
        description: `The refund of ${refundFields(payment).fields.find((f) => f.testId === "to-refund")?.value} is recorded.`,
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

/** Closing a row without a refund (the sender unreachable, the platform's own transfer): a note is required. */
function DismissForm({ payment }: { payment: AttentionPayment }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const valid = isAdminNote(note);
  const dismiss = useMutation({
    mutationFn: () => dismissPaymentRefund(payment.id, note.trim()),
    onSuccess: async () => {
      toast({ title: "Dismissed", description: "No refund will be sent; your note is recorded.", variant: "success" });
      setNote("");
      await queryClient.invalidateQueries({ queryKey: paymentsAttentionQuery().queryKey });
    },
    onError: (err) => toast({ title: "Update Failed", description: errorMessage(err) || "The payment could not be dismissed.", variant: "destructive" }),
  });
  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="mt-2 text-xs text-slate-400 underline hover:text-slate-200 focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        Dismiss without a refund…
      </button>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (valid && !dismiss.isPending) dismiss.mutate();
  };
  return (
    <form onSubmit={submit} className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-end">
      <AdminNoteField
        id={`${id}-note`}
        label="Why no refund is sent (required)"
        note={note}
        onChange={setNote}
        placeholder="e.g. our own test transfer, or: the sender asked us to keep it"
      />
      <div className="flex gap-2">
        <button
          type="button"
          onClick={() => setOpen(false)}
          className="rounded-lg border border-slate-700 px-4 py-2 text-sm text-slate-300 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-violet-400"
        >
          Cancel
        </button>
        <button
          type="submit"
          disabled={!valid || dismiss.isPending}
          className="rounded-lg bg-slate-700 px-4 py-2 text-sm font-semibold text-white hover:bg-slate-600 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {dismiss.isPending ? "Saving…" : "Dismiss"}
        </button>
      </div>
    </form>
  );
}
