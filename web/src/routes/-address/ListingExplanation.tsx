// The listing page's explanation of the purchase (issue 13 item 4): what the score means, the price in
// context and where the key came from, read from GET /api/addresses/{id}/context. While it loads, a skeleton
// of the same height holds the space so nothing below moves.
import { useQuery } from "@tanstack/react-query";
import type { ListingView } from "../../../../schema/browse";
import { listingContextQuery } from "../../api/listing-context";
import { errorMessage } from "../../api/error-message";
import { useViewer } from "../../components/listing/use-viewer";
import { PriceContext } from "./PriceContext";
import { Provenance } from "./Provenance";
import { ScoreExplanation } from "./ScoreExplanation";

export function ListingExplanation({ listing }: { listing: ListingView }) {
  const context = useQuery(listingContextQuery(String(listing.id), useViewer()));
  if (context.isPending) return <ExplanationSkeleton />;
  if (context.isError) {
    return (
      <p role="alert" className="rounded-2xl border border-red-800/60 bg-red-950/30 p-4 text-sm text-red-200">
        The price history and comparable listings could not be loaded: {errorMessage(context.error)}
      </p>
    );
  }
  return (
    <div className="space-y-6" data-testid="listing-explanation">
      <ScoreExplanation listing={listing} difficulty={context.data.difficulty} />
      <PriceContext listing={listing} context={context.data} />
      <Provenance provedAt={context.data.ownershipProvedAt} />
    </div>
  );
}

function ExplanationSkeleton() {
  return (
    <div className="space-y-6" aria-busy="true" data-testid="explanation-skeleton">
      <span className="sr-only">Loading what this listing is worth</span>
      <div aria-hidden className="h-[13rem] animate-pulse rounded-2xl bg-slate-800/60" />
      <div aria-hidden className="h-[26rem] animate-pulse rounded-2xl bg-slate-800/60" />
      <div aria-hidden className="h-[9rem] animate-pulse rounded-2xl bg-slate-800/60" />
    </div>
  );
}
