// The listing page the Worker serves for /address/{id} carries the anonymous detail answer it rendered from
// (worker/landing/listing-page.ts), so the app starts with it instead of reading it again (web/src/api/embedded-listing.ts).
import type { ListingView } from "./browse";
import type { ChainConfigResponse } from "./purchases";

/** The id of the `<script type="application/json">` element holding an EmbeddedListing. */
export const EMBEDDED_LISTING_ELEMENT_ID = "listing-data";

/**
 * `id` is the path's listing id as the route sees it; `listing` is GET /api/addresses/{id} for a visitor;
 * `config` is GET /api/config, which the summary's Explorer button was rendered with.
 */
export type EmbeddedListing = { id: string; listing: ListingView; config: ChainConfigResponse };
