// The listing page's explanation of the purchase: what the score means, the price in
// context and where the key came from, read from GET /api/addresses/{id}/context. While it loads, a skeleton
// of the same height holds the space so nothing below moves.
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { ListingView } from "../../../../schema/browse";
import { listingContextQuery } from "../../api/listing-context";
import { errorMessage } from "../../api/error-message";
import { useViewer } from "../../components/listing/use-viewer";
import { PriceContext } from "./PriceContext";
import { Provenance } from "./Provenance";
import { ScoreExplanation } from "./ScoreExplanation";

/**
 * Each section's height on a phone: its skeleton's height while the context loads, and the size the browser
 * assumes for it while it is still off screen (BelowTheFold), so neither moves what lies below.
 */
const SECTION_HEIGHT = { score: "13rem", price: "26rem", provenance: "9rem" } as const;

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
      <BelowTheFold height={SECTION_HEIGHT.score}>
        <ScoreExplanation listing={listing} difficulty={context.data.difficulty} />
      </BelowTheFold>
      <BelowTheFold height={SECTION_HEIGHT.price}>
        <PriceContext listing={listing} context={context.data} />
      </BelowTheFold>
      <BelowTheFold height={SECTION_HEIGHT.provenance}>
        <Provenance provedAt={context.data.ownershipProvedAt} />
      </BelowTheFold>
    </div>
  );
}

/**
 * A section the browser lays out only once it nears the viewport (`content-visibility: auto`), sized meanwhile at
 * its skeleton's height and then at its last rendered size. On a phone all three sections start below the first
 * screen, and laying out the whole 2,500 px page when the app replaced the HTML was one 20-40 ms task. Their
 * content stays in the document: found by find-in-page, read by screen readers, reached by Tab.
 */
function BelowTheFold({ height, children }: { height: string; children: ReactNode }) {
  return (
    <div data-below-the-fold style={{ contentVisibility: "auto", containIntrinsicSize: `auto ${height}` }}>
      {children}
    </div>
  );
}

function ExplanationSkeleton() {
  return (
    <div className="space-y-6" aria-busy="true" data-testid="explanation-skeleton">
      <span className="sr-only">Loading what this listing is worth</span>
      <div aria-hidden style={{ height: SECTION_HEIGHT.score }} className="rounded-2xl bg-slate-800/60" />
      <div aria-hidden style={{ height: SECTION_HEIGHT.price }} className="rounded-2xl bg-slate-800/60" />
      <div aria-hidden style={{ height: SECTION_HEIGHT.provenance }} className="rounded-2xl bg-slate-800/60" />
    </div>
  );
}
