// The order page's payment box. A found order is paid through the marketplace's ordinary purchase page:
// "Pay" reserves the address for this buyer (POST /api/custom-orders/:id/pay) and opens /transaction/{id},
// where the wallet pays and the payment is confirmed; this box then links back there until delivery.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import type { CustomOrderView } from "../../../../schema/custom-orders";
import { ORDERS_KEY, payOrder } from "../../api/custom-orders";
import { HttpError } from "../../api/http";
import { formatDuration } from "../../lib/duration";
import { formatDayTime } from "../../lib/date-format";
import { requestAutoPay } from "../../payments/sent-payments";
import type { OrderStage } from "./order-stage";

const box = "mt-6 rounded-2xl border p-5 sm:p-6";
const button =
  "inline-block rounded-lg bg-violet-600 px-5 py-2.5 font-semibold text-white hover:bg-violet-500 disabled:cursor-wait disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400";

export function OrderPayment({ order, stage }: { order: CustomOrderView; stage: OrderStage }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const pay = useMutation({
    mutationFn: () => payOrder(order.id),
    onSuccess: (r) => {
      // Like Buy Now: the purchase page opens the wallet at once for this payment.
      requestAutoPay(r.transactionId);
      void queryClient.invalidateQueries({ queryKey: [ORDERS_KEY] });
      void navigate({ to: "/transaction/$transactionId", params: { transactionId: r.transactionId } });
    },
  });
  const purchaseLink = (label: string) =>
    order.payment && (
      <Link
        to="/transaction/$transactionId"
        params={{ transactionId: order.payment.transactionId }}
        className={`${button} mt-4`}
        data-testid="order-purchase-link"
      >
        {label}
      </Link>
    );

  if (stage === "pay") {
    const deadline = order.paymentDeadline ? new Date(order.paymentDeadline) : null;
    const left = deadline ? Math.max(0, (deadline.getTime() - Date.now()) / 1000) : 0;
    return (
      <section className={`${box} border-violet-700 bg-violet-950/30`} aria-labelledby="pay-title">
        <h2 id="pay-title" className="text-lg font-semibold text-white">
          Pay for your address
        </h2>
        <p className="mt-2 text-sm text-slate-300">
          The address is reserved for you alone{deadline ? ` until ${formatDayTime(deadline)} (${formatDuration(left)} left)` : ""}. You pay {order.price} ETH
          plus the network fee from your wallet on the secure purchase page. Once the payment is confirmed this page gives you the offset, and your browser
          opens your saved secret key file with its password to make the private key. Unpaid by the deadline, the order expires and the address is never offered
          to anyone.
        </p>
        <button type="button" className={`${button} mt-4`} disabled={pay.isPending} onClick={() => pay.mutate()} data-testid="pay-order">
          {pay.isPending ? "Reserving your address…" : `Pay ${order.price} ETH`}
        </button>
        {pay.isError && (
          <p className="mt-2 text-sm text-red-300" role="alert">
            {pay.error instanceof HttpError ? (pay.error.serverMessage ?? pay.error.message) : "The payment could not be started; try again."}
          </p>
        )}
      </section>
    );
  }
  if (stage === "paying") {
    return (
      <section className={`${box} border-violet-700 bg-violet-950/30`}>
        <h2 className="text-lg font-semibold text-white">Payment started</h2>
        <p className="mt-2 text-sm text-slate-300">Your address is reserved for this payment. Finish paying on the purchase page.</p>
        {purchaseLink("Continue to payment")}
      </section>
    );
  }
  if (stage === "paid") {
    return (
      <section className={`${box} border-emerald-800 bg-emerald-950/30`} role="status">
        <h2 className="text-lg font-semibold text-white">Payment received</h2>
        <p className="mt-2 text-sm text-slate-300">Your payment is being confirmed on the chain. This page shows the key step by itself once it is settled.</p>
        {purchaseLink("See the payment")}
      </section>
    );
  }
  if (stage === "delivered" && order.payment) {
    return (
      <p className="mt-4 text-sm text-slate-400">
        Paid.{" "}
        <Link to="/transaction/$transactionId" params={{ transactionId: order.payment.transactionId }} className="text-violet-300 underline">
          See the payment
        </Link>
      </p>
    );
  }
  return null;
}
