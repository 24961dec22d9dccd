// /transaction/{id}: the purchase page (the same page as /secure-transaction/{id}; the spec names both).
import { createFileRoute } from "@tanstack/react-router";
import { PurchasePage } from "./-purchase/PurchasePage";

export const Route = createFileRoute("/transaction/$transactionId")({
  component: function TransactionRoute() {
    const { transactionId } = Route.useParams();
    return <PurchasePage key={transactionId} transactionId={transactionId} />;
  },
});
