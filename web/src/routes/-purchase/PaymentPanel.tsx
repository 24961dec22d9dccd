// Paying (status initiated): the amount, where it goes, on which network, the reservation's countdown, the
// Pay button for the buyer's wallet, and Cancel. A failed attempt says why and offers Try Again.
import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { BASE_UNIT_NAMES, formatBaseUnits } from "../../../../schema/money";
import { currencyOf } from "../../../../schema/network";
import type { PurchaseView } from "../../../../schema/purchases";
import { errorMessage } from "../../api/error-message";
import { cancelPurchase } from "../../api/purchases";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { toast } from "../../components/toast-store";
import { useCopy } from "../../components/use-copy";
import { useNow } from "../../components/use-now";
import { formatPriceTrimmed } from "../../lib/number-format";
import { parseBaseUnits } from "./payment-amount";
import { reservationCountdown } from "./purchase-state";
import { takeAutoPay } from "../../payments/sent-payments";
import type { usePayment } from "./use-payment";
import type { MarketConfig } from "../../api/market";

type Payment = ReturnType<typeof usePayment>;

export function PaymentPanel({ view, config, payment }: { view: PurchaseView; config: MarketConfig | undefined; payment: Payment }) {
  const now = useNow(1000);
  const left = reservationCountdown(view.expiresAt, now);
  const { state, pay, reset } = payment;
  const isBuyer = view.role === "buyer";

  // The buy flow asks for the wallet at once; a reload of this page never does.
  useEffect(() => {
    if (isBuyer && config && state.step === "idle" && takeAutoPay(view.id)) void pay();
  }, [isBuyer, config, state.step, view.id, pay]);

  let exact = "";
  try {
    const units = parseBaseUnits(view.amountBaseUnits);
    const coin = currencyOf(view.network);
    exact = `${formatBaseUnits(units, coin)} ${view.currency} = ${view.amountBaseUnits} ${BASE_UNIT_NAMES[coin][1]}`;
  } catch {
    exact = "";
  }

  return (
    <section aria-labelledby="pay-title" className="space-y-5 rounded-2xl border border-sky-800/60 bg-slate-900/60 p-5 sm:p-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="pay-title" className="text-lg font-semibold text-white">
          Complete Your Payment
        </h2>
        <p className="text-sm text-slate-300" role="timer" aria-live="off" data-testid="reservation-countdown">
          {left ? (
            <>
              Reserved for you for <span className="font-mono font-semibold text-white tabular-nums">{left}</span>
            </>
          ) : (
            <span className="text-amber-300">The reservation time is up; a payment sent now is refunded, not used.</span>
          )}
        </p>
      </div>
      <dl className="space-y-3 text-sm">
        <div className="grid gap-1 sm:grid-cols-[8rem_1fr]">
          <dt className="text-slate-400">Amount</dt>
          <dd>
            <span className="text-2xl font-bold text-white tabular-nums" data-testid="amount-due">
              {formatPriceTrimmed(view.totalAmount)} {view.currency}
            </span>
            {exact && <span className="mt-0.5 block font-mono text-xs break-all text-slate-500">{exact}</span>}
          </dd>
        </div>
        <div className="grid gap-1 sm:grid-cols-[8rem_1fr]">
          <dt className="text-slate-400">Pay to</dt>
          <dd>
            <RecipientAddress address={view.recipient} />
          </dd>
        </div>
        <div className="grid gap-1 sm:grid-cols-[8rem_1fr]">
          <dt className="text-slate-400">Network</dt>
          <dd className="text-slate-100">
            {view.network === "ethereum"
              ? `Ethereum (chain id ${view.chainId ?? config?.payments?.ethereum.chainId ?? "?"})`
              : `Solana (${config?.payments?.solana.cluster ?? "cluster loading"})`}
          </dd>
        </div>
      </dl>

      {!isBuyer ? (
        <p className="text-sm text-slate-400">Waiting for the buyer's payment.</p>
      ) : (
        <>
          {state.step === "failed" && (
            <div role="alert" className="rounded-lg border border-red-700 bg-red-950/60 p-4 text-sm text-red-100">
              <p className="font-semibold">Payment Failed</p>
              <p className="mt-1">{state.failure.message}</p>
            </div>
          )}
          <div className="flex flex-col gap-2 sm:flex-row">
            <button
              type="button"
              onClick={() => {
                reset();
                void pay();
              }}
              disabled={state.step === "wallet" || state.step === "reporting" || !config}
              className="rounded-lg bg-violet-600 px-5 py-2.5 font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400 disabled:cursor-wait disabled:opacity-70"
            >
              {state.step === "wallet"
                ? "Confirm in your wallet..."
                : state.step === "reporting"
                  ? "Payment sent, confirming..."
                  : state.step === "failed"
                    ? "Try Again"
                    : `Pay ${formatPriceTrimmed(view.totalAmount)} ${view.currency} with your wallet`}
            </button>
            <CancelButton id={view.id} disabled={state.step === "wallet" || state.step === "reporting"} />
          </div>
          {state.step === "reporting" && (
            <p className="text-sm text-slate-400" role="status">
              {state.note ?? "Your payment is on its way. This page updates by itself; you may close it, the payment is found either way."}
            </p>
          )}
          <p className="text-xs text-slate-500">
            Send exactly this amount from the wallet you signed in with.{" "}
            {view.network === "solana"
              ? "The transfer carries this purchase's reference, so it is found even if you close this page."
              : "The payment is found even if you close this page after sending it."}
          </p>
        </>
      )}
    </section>
  );
}

function RecipientAddress({ address }: { address: string }) {
  const { copied, copy } = useCopy(address, "Payment address");
  return (
    <span className="flex flex-wrap items-center gap-2">
      <span className="font-mono break-all text-slate-100" data-testid="pay-to">
        {address}
      </span>
      <button
        type="button"
        onClick={() => void copy()}
        className="rounded border border-slate-700 px-2 py-0.5 text-xs text-slate-300 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        {copied ? "Copied!" : "Copy"}
      </button>
    </span>
  );
}

/**
 * Cancel, after a confirmation: cancelling gives the address up to anyone, so a stray click must not
 * do it. The dialog says what happens; Keep Reservation (or Escape) leaves everything as it was.
 */
function CancelButton({ id, disabled }: { id: string; disabled: boolean }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const cancel = useMutation({
    mutationFn: () => cancelPurchase(id),
    onSuccess: () => void navigate({ to: "/transaction-cancelled/$transactionId", params: { transactionId: id } }),
    onError: (err) => toast({ title: "Cancel Failed", description: errorMessage(err) || "The purchase could not be cancelled.", variant: "destructive" }),
    onSettled: () => setOpen(false),
  });
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      title="Cancel this purchase?"
      confirmLabel="Yes, Cancel Purchase"
      cancelLabel="Keep Reservation"
      pendingLabel="Cancelling..."
      pending={cancel.isPending}
      onConfirm={() => cancel.mutate()}
      trigger={
        <button
          type="button"
          disabled={disabled || cancel.isPending}
          className="rounded-lg border border-slate-700 px-5 py-2.5 font-semibold text-slate-200 hover:border-red-500 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {cancel.isPending ? "Cancelling..." : "Cancel Purchase"}
        </button>
      }
    >
      <p>Your reservation ends now and the address becomes available to anyone. Do not send a payment after cancelling: a late payment is only refunded.</p>
    </ConfirmDialog>
  );
}
