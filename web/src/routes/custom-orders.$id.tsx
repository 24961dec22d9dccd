// /custom-orders/{id}: one custom order as its buyer follows it: waiting or grinding (the queue, the grinder's
// progress, rate, estimate and deadline, and a plain word when no grinder reports: GrindingPanel), found (the address is public; "Pay" until the deadline), paying or paid (a link to the purchase
// page, where the payment is made and confirmed), delivered (the key is made here), expired or cancelled.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { useState } from "react";
import type { CustomOrderView } from "../../../schema/custom-orders";
import { isRowId } from "../../../schema/ids";
import { cancelOrder, customOrderQuery, ORDERS_KEY } from "../api/custom-orders";
import { HttpError } from "../api/http";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ConnectWalletButton } from "../components/ConnectWalletButton";
import { Spinner } from "../components/Spinner";
import { useUsdRates } from "../components/use-usd-rates";
import { usdText } from "../lib/number-format";
import { compactNumber } from "../lib/duration";
import { formatDayTime } from "../lib/date-format";
import { useWallet } from "../wallet/use-wallet";
import { FinalKeyCard } from "./-custom-order/FinalKeyCard";
import { GrindingPanel } from "./-custom-order/GrindingPanel";
import { cancellable, orderStage, STAGE_TEXT } from "./-custom-order/order-stage";
import { OrderPayment } from "./-custom-order/OrderPayment";
import { PowerOfTwo } from "../components/PowerOfTwo";

export const Route = createFileRoute("/custom-orders/$id")({
  component: CustomOrderStatusPage,
});

function CustomOrderStatusPage() {
  const { id } = Route.useParams();
  const wallet = useWallet();
  const orderId = isRowId(id) ? Number(id) : null;
  const order = useQuery({ ...customOrderQuery(orderId ?? 0), enabled: wallet.isConnected && orderId !== null });

  if (!wallet.isConnected) {
    return (
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold text-white">Connect Your Wallet</h1>
        <p className="mt-3 text-slate-400">Sign in with the wallet that placed this order to follow it.</p>
        <div className="mt-6 flex justify-center">
          <ConnectWalletButton />
        </div>
      </section>
    );
  }
  if (orderId === null || (order.error instanceof HttpError && order.error.status === 404)) {
    return (
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold text-white">Order not found</h1>
        <p className="mt-3 text-slate-400">No order {id} belongs to the signed-in wallet.</p>
        <Link to="/custom-order" className="mt-6 inline-block text-violet-300 underline">
          Order a custom address
        </Link>
      </section>
    );
  }
  if (order.isPending) return <Spinner label="Loading your order…" />;
  if (order.isError) return <p className="mx-auto max-w-xl px-4 py-24 text-center text-red-300">The order could not be loaded: {order.error.message}</p>;
  return <OrderDetails order={order.data} />;
}

function OrderDetails({ order }: { order: CustomOrderView }) {
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => cancelOrder(order.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: [ORDERS_KEY] }),
  });
  const [confirmCancel, setConfirmCancel] = useState(false);
  const expected = Number(order.expectedAttempts);
  const stage = orderStage(order);
  const rates = useUsdRates();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-bold text-white">Custom order #{order.id}</h1>
      <p className="mt-1 text-slate-400" data-testid="order-status">
        {STAGE_TEXT[stage]}
      </p>
      <dl className="mt-6 grid gap-4 rounded-2xl border border-slate-800 bg-slate-900/60 p-5 sm:grid-cols-2">
        <Row label="Pattern">
          <span className="font-mono">
            0x{order.prefix}…{order.suffix}
          </span>
          {order.caseSensitive ? " (case-sensitive)" : ""}
        </Row>
        <Row label="Price">
          {order.price} ETH <span className="text-slate-400">≈ {usdText(order.price, "ETH", rates)}</span>
        </Row>
        <Row label="Difficulty">
          <PowerOfTwo bits={order.difficultyBits} /> ({compactNumber(expected)} attempts expected)
        </Row>
        <Row label="Ordered">{formatDayTime(order.createdAt)}</Row>
        {order.address && (
          <Row label="Your address">
            <span className="font-mono break-all text-emerald-300" data-testid="order-address">
              {order.address}
            </span>
          </Row>
        )}
        {order.paymentDeadline && order.status === "found" && <Row label="Pay by">{formatDayTime(order.paymentDeadline)}</Row>}
      </dl>
      {(order.status === "open" || order.status === "grinding") && <GrindingPanel order={order} />}
      {stage === "unfilled" && (
        <p className="mt-6 rounded-2xl border border-slate-800 bg-slate-900/60 p-5 text-sm text-slate-300" data-testid="order-unfilled">
          No grinder found this address before the order's deadline, so the order has expired. You paid nothing and owe nothing; you may order again, perhaps a
          shorter pattern.
        </p>
      )}
      <OrderPayment order={order} stage={stage} />
      {order.status === "delivered" && <FinalKeyCard order={order} />}
      {cancellable(stage) && (
        <ConfirmDialog
          open={confirmCancel}
          onOpenChange={setConfirmCancel}
          title="Cancel this order?"
          confirmLabel="Cancel order"
          pendingLabel="Cancelling..."
          pending={cancel.isPending}
          onConfirm={() => cancel.mutate(undefined, { onSettled: () => setConfirmCancel(false) })}
          trigger={
            <button
              type="button"
              disabled={cancel.isPending}
              className="mt-6 rounded-lg border border-slate-700 px-4 py-2 text-sm text-slate-200 hover:border-red-500"
            >
              Cancel order
            </button>
          }
        >
          <p>
            The order is withdrawn and you pay nothing.{" "}
            {order.status === "found" ? "The address found for it is given up for good: nobody can ever buy it. " : ""}This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
      {cancel.isError && (
        <p className="mt-2 text-sm text-red-300">
          {cancel.error instanceof HttpError ? (cancel.error.serverMessage ?? cancel.error.message) : "Could not cancel."}
        </p>
      )}
    </div>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-100">{children}</dd>
    </div>
  );
}
