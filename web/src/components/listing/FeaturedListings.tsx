// Featured listings on the home page and the marketplace. On a phone they are one compact row that scrolls
// sideways, so the search results still start on the first screen; from the sm breakpoint up they
// are a grid. Placeholders of the cards' own size hold the space while loading, so nothing below shifts.
import type { ListingView } from "../../../../schema/browse";
import { ListingCard, ListingCardSkeleton } from "./ListingCard";

// `relative`: the row is the containing block of what its cards position absolutely (their screen-reader text),
// which is then clipped by its scrolling; otherwise that text, placed where its card is in the row, widened the
// page itself (to 1,453 px on a phone), so the page scrolled sideways and a phone zoomed out to it.
const ROW =
  "relative -mx-4 flex snap-x snap-mandatory gap-3 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:snap-none sm:grid-cols-2 sm:gap-4 sm:overflow-visible sm:px-0 sm:pb-0 lg:grid-cols-3";
const ITEM = "w-[17rem] shrink-0 snap-start sm:w-auto";

export function FeaturedListings({ listings, label }: { listings: ListingView[]; label: string }) {
  return (
    <ul className={ROW} aria-label={label} data-testid="featured-listings">
      {listings.map((listing) => (
        <li key={listing.id} className={`${ITEM} flex`}>
          <ListingCard listing={listing} compactOnPhone />
        </li>
      ))}
    </ul>
  );
}

export function FeaturedListingsSkeleton({ count, label }: { count: number; label: string }) {
  return (
    <div className={ROW} aria-busy="true">
      <span className="sr-only">{label}</span>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className={ITEM}>
          <ListingCardSkeleton compactOnPhone />
        </div>
      ))}
    </div>
  );
}
