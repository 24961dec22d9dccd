// /transaction-cancelled/{id}: the reservation was
// cancelled, nothing was charged, the address is available again.
import { createFileRoute, Link } from "@tanstack/react-router";

export const Route = createFileRoute("/transaction-cancelled/$transactionId")({
  component: CancelledNotice,
});

function CancelledNotice() {
  const { transactionId } = Route.useParams();
  const link = "rounded-lg px-5 py-2.5 font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400";
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-white">Payment Cancelled</h1>
      <p className="mt-3 text-slate-400">Your purchase was cancelled and nothing was charged. The address is available again for anyone to buy.</p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to="/marketplace" className={`${link} border border-slate-700 text-slate-200 hover:border-violet-500`}>
          Back to Marketplace
        </Link>
        {/* The spec: Try Again opens /transaction/{id}, where the purchase's own state (Cancelled) and its listing link are. */}
        {transactionId && (
          <Link to="/transaction/$transactionId" params={{ transactionId }} className={`${link} bg-violet-600 text-white hover:bg-violet-500`}>
            Try Again
          </Link>
        )}
      </div>
    </section>
  );
}
