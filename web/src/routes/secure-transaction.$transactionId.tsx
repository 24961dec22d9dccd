// /secure-transaction/{id}: where the buy flow lands; the same purchase page as /transaction/{id}.
import { createFileRoute } from "@tanstack/react-router";
import { PurchasePage } from "./-purchase/PurchasePage";

export const Route = createFileRoute("/secure-transaction/$transactionId")({
  component: function SecureTransactionRoute() {
    const { transactionId } = Route.useParams();
    return <PurchasePage key={transactionId} transactionId={transactionId} />;
  },
});
