// The purchase page, at /transaction/{id} and /secure-transaction/{id} alike (docs/payments.md): pay while
// initiated, wait while pending, reveal while verified or completed. It polls the purchase fast while a
// payment is confirming and stops once the purchase has ended.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import type { PurchaseView } from "../../../../schema/purchases";
import { HttpError } from "../../api/http";
import { chainConfigQuery } from "../../api/market";
import { purchaseQuery } from "../../api/purchases";
import { ConnectWalletButton } from "../../components/ConnectWalletButton";
import { useViewer } from "../../components/listing/use-viewer";
import { Spinner } from "../../components/Spinner";
import { shortAddress } from "../../lib/short-address";
import { AdminClosePurchase } from "./AdminClosePurchase";
import { ConfirmingPanel } from "./ConfirmingPanel";
import { PaymentHashCard } from "./PaymentHashCard";
import { PaymentPanel } from "./PaymentPanel";
import { PrivateKeyCard } from "./PrivateKeyCard";
import { failureText } from "../../lib/purchase-status";
import { POLL_LIMIT_MS, pollableStatus, pollInterval, purchaseStage } from "./purchase-state";
import { useNow } from "../../components/use-now";
import { PurchaseDetails } from "./PurchaseDetails";
import { FireIcon } from "../../components/purchase/FireIcon";
import { StatusBadge } from "../../components/purchase/StatusBadge";
import { forgetSentPayment } from "../../payments/sent-payments";
import { usePayment } from "./use-payment";

export function PurchasePage({ transactionId }: { transactionId: string }) {
  const [paymentSent, setPaymentSent] = useState(false);
  // When this round of polling began: after POLL_LIMIT_MS the page stops and offers "Check again" (the spec).
  const [pollingSince, setPollingSince] = useState(() => Date.now());
  const purchase = useQuery({
    ...purchaseQuery(transactionId, useViewer()),
    refetchInterval: (q) => (q.state.data ? pollInterval(q.state.data.status, paymentSent, Date.now() - pollingSince) : false),
    // A background tab keeps polling, so the key is ready when the buyer comes back.
    refetchIntervalInBackground: true,
  });

  if (purchase.isPending) return <Spinner label="Loading transaction..." />;
  if (purchase.isError) {
    const status = purchase.error instanceof HttpError ? purchase.error.status : 0;
    return <PurchaseError reason={status === 401 ? "signed-out" : status === 404 || status === 400 ? "not-found" : "failed"} />;
  }
  const checkAgain = () => {
    setPollingSince(Date.now());
    void purchase.refetch();
  };
  return <PurchaseBody view={purchase.data} onPaymentSent={setPaymentSent} pollingSince={pollingSince} onCheckAgain={checkAgain} />;
}

/** Said once the page has stopped polling a purchase that is still open (the spec's 5 minutes). */
function PollingStopped({ onCheckAgain }: { onCheckAgain: () => void }) {
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-700 bg-slate-900/60 p-4 text-sm"
      role="status"
      data-testid="polling-stopped"
    >
      <p className="text-slate-300">
        This page stopped checking after 5 minutes. We keep checking the payment on our side; check again to see where it stands.
      </p>
      <button
        type="button"
        onClick={onCheckAgain}
        className="rounded-lg bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400"
      >
        Check again
      </button>
    </div>
  );
}

function PurchaseError({ reason }: { reason: "signed-out" | "not-found" | "failed" }) {
  if (reason === "signed-out") {
    return (
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold text-white">Connect Your Wallet</h1>
        <p className="mt-3 text-slate-400">Connect the wallet you bought with to see this purchase and its private key.</p>
        <div className="mt-6 flex justify-center">
          <ConnectWalletButton />
        </div>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center" role="alert">
      <h1 className="text-3xl font-bold text-white">Transaction Error</h1>
      <p className="mt-3 text-slate-400">{reason === "not-found" ? "Transaction not found" : "Failed to fetch transaction details"}</p>
      <Link
        to="/marketplace"
        className="mt-6 inline-block rounded-lg bg-violet-600 px-5 py-2.5 font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400"
      >
        Return to Marketplace
      </Link>
    </section>
  );
}

function PurchaseBody({
  view,
  onPaymentSent,
  pollingSince,
  onCheckAgain,
}: {
  view: PurchaseView;
  onPaymentSent: (sent: boolean) => void;
  pollingSince: number;
  onCheckAgain: () => void;
}) {
  const config = useQuery(chainConfigQuery());
  const now = useNow(5000);
  const pollingStopped = now - pollingSince >= POLL_LIMIT_MS;
  const payment = usePayment(view, config.data, !pollingStopped);
  const stage = purchaseStage(view);
  const sentHash = payment.state.step === "reporting" ? payment.state.hash : null;
  const hash = view.blockchainTxHash ?? view.txHash ?? sentHash;

  useEffect(() => onPaymentSent(sentHash !== null), [sentHash, onPaymentSent]);
  useEffect(() => {
    if (stage !== "pay") forgetSentPayment(view.id);
  }, [stage, view.id]);

  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10">
      <Link
        to="/marketplace"
        className="inline-flex items-center gap-1 rounded text-sm font-semibold text-violet-300 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        <span aria-hidden>←</span> Back to Marketplace
      </Link>
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-white sm:text-3xl">Secure Transaction</h1>
          <p className="mt-1 font-mono text-sm text-slate-400" title={view.address}>
            {shortAddress(view.address)}
          </p>
        </div>
        <StatusBadge status={view.status} failureReason={view.failureReason} />
      </header>

      {pollingStopped && pollableStatus(view.status, sentHash !== null) && <PollingStopped onCheckAgain={onCheckAgain} />}
      {stage === "pay" && (sentHash ? <ConfirmingPanel view={view} hash={sentHash} /> : <PaymentPanel view={view} config={config.data} payment={payment} />)}
      {stage === "pay" && sentHash && payment.state.step === "reporting" && payment.state.note && (
        <p className="text-sm text-slate-400" role="status">
          {payment.state.note}
        </p>
      )}
      {stage === "confirming" && <ConfirmingPanel view={view} hash={hash} />}
      {stage === "released" && view.customOrderId !== null && <CustomOrderDelivered view={view} orderId={view.customOrderId} />}
      {stage === "released" &&
        view.customOrderId === null &&
        (view.role === "buyer" ? <PrivateKeyCard view={view} /> : <Notice title="Payment verified" text="The private key is released to the buyer only." />)}
      {stage === "destroyed" && (
        <Notice
          title={
            <>
              <FireIcon /> Private key destroyed
            </>
          }
          text={
            view.role === "buyer"
              ? "You destroyed the private key we held for this purchase. It can never be shown again."
              : "The buyer destroyed the private key we held for this purchase. It can never be shown again."
          }
          testId="key-destroyed"
        />
      )}
      {stage === "failed" && (
        <Notice
          title="Payment not accepted"
          text={`${failureText(view.failureReason)} No key was released. If you paid, the payment is listed for a refund.`}
          tone="red"
        />
      )}
      {stage === "expired" && (
        <Notice
          title="Reservation expired"
          text={`No payment arrived within the reservation time, so the ${view.customOrderId === null ? "address was released" : "reservation ended; the order page lets you pay again until its deadline"}. A payment that arrives late is refunded.`}
          link={view.addressId}
          orderId={view.customOrderId}
        />
      )}
      {stage === "cancelled" && (
        <Notice
          title="Purchase cancelled"
          text="This purchase was cancelled before payment. Nothing was charged."
          link={view.addressId}
          orderId={view.customOrderId}
        />
      )}

      {view.adminMayClose && <AdminClosePurchase view={view} />}
      {hash && <PaymentHashCard hash={hash} network={view.network} />}
      <PurchaseDetails view={view} />
    </div>
  );
}

/**
 * A custom order's purchase has no stored key: the buyer's browser completes it from the secret saved when
 * ordering, on the order page, which reveals the offset once the order is delivered.
 */
function CustomOrderDelivered({ view, orderId }: { view: PurchaseView; orderId: number }) {
  return (
    <section className="rounded-2xl border border-emerald-800 bg-emerald-950/30 p-5 sm:p-6" data-testid="custom-order-delivered">
      <h2 className="text-lg font-semibold text-white">Payment confirmed: your custom order is delivered</h2>
      <p className="mt-2 text-sm text-slate-300">
        {view.role === "buyer"
          ? "The marketplace never held this address's private key. Open your order to make it in your browser from the secret key file you saved when ordering, with its password."
          : "The buyer makes the private key in their own browser; the marketplace never held it."}
      </p>
      <Link
        to="/custom-orders/$id"
        params={{ id: String(orderId) }}
        className="mt-4 inline-block rounded-lg bg-violet-600 px-5 py-2.5 font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400"
      >
        Open custom order #{orderId}
      </Link>
    </section>
  );
}

function Notice({
  title,
  text,
  tone = "slate",
  link,
  orderId = null,
  testId,
}: {
  title: React.ReactNode;
  text: string;
  tone?: "slate" | "red";
  link?: number;
  /** A custom order's purchase links to its order: the listing itself is private. */
  orderId?: number | null;
  testId?: string;
}) {
  return (
    <section
      className={`rounded-2xl border p-5 sm:p-6 ${tone === "red" ? "border-red-700 bg-red-950/40" : "border-slate-700 bg-slate-900/60"}`}
      data-testid={testId}
    >
      <h2 className="text-lg font-semibold text-white">{title}</h2>
      <p className="mt-2 text-sm text-slate-300">{text}</p>
      {orderId !== null && (
        <Link
          to="/custom-orders/$id"
          params={{ id: String(orderId) }}
          className="mt-4 inline-block text-sm font-semibold text-violet-300 hover:text-violet-200"
        >
          Back to your order
        </Link>
      )}
      {orderId === null && link !== undefined && (
        <Link to="/address/$id" params={{ id: String(link) }} className="mt-4 inline-block text-sm font-semibold text-violet-300 hover:text-violet-200">
          See the listing
        </Link>
      )}
    </section>
  );
}
