// The listing page with its listing in it (the address is the page's largest element; from the
// prerendered shell alone it painted only once the app had downloaded, run and read the listing, about 2 s
// later on a slow phone). For GET /address/{id} the Worker asks its own API for the listing as a visitor
// without a session would (same route, same visibility rules, same edge cache), renders the page's summary and
// price with react-dom/server from the components the route renders (web/src/server-rendered/ListingSummary),
// puts them into the shell's placeholders, and embeds the answer as JSON so the app does not read it again.
//
// Never anything session-specific: the API is called with no cookie, whatever the visitor sent, so a deleted
// listing (visible to its owner) or a hidden custom order's listing (visible to its buyer) gets the plain shell
// and the app reads it with the visitor's session as before.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import type { ListingView } from "../../schema/browse";
import { EMBEDDED_LISTING_ELEMENT_ID, type EmbeddedListing } from "../../schema/embedded-listing";
import { ROW_ID_PATTERN } from "../../schema/ids";
import type { ChainConfigResponse } from "../../schema/purchases";
import { ListingPrice, ListingSummary } from "../../web/src/server-rendered/ListingSummary";

/** Answers a request with the Worker's own API (the Hono app). */
export type ApiFetch = (request: Request) => Promise<Response>;

const LISTING_PAGE = new RegExp(`^/address/(${ROW_ID_PATTERN})/?$`);

/** The listing id in a listing page's path, exactly as the API accepts it (schema/ids.ts); else null. */
export function listingPageId(pathname: string): string | null {
  return LISTING_PAGE.exec(pathname)?.[1] ?? null;
}

/**
 * JSON that can sit inside a <script> element: `<`, `>` and `&` are escaped as \u003c..., so no value can close
 * the element (`</script>`) or open a comment (`<!--`); U+2028/2029 too, for older parsers. JSON.parse reads
 * it back unchanged.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** What a visitor without a session is shown for this id, or null when there is nothing to show them. */
export async function anonymousListing(origin: string, id: string, api: ApiFetch): Promise<{ listing: ListingView; config: ChainConfigResponse } | null> {
  // Fresh requests: no Cookie, no Authorization, no x-wallet-address from the visitor's request.
  const [listingRes, configRes] = await Promise.all([api(new Request(`${origin}/api/addresses/${id}`)), api(new Request(`${origin}/api/config`))]);
  if (listingRes.status !== 200 || configRes.status !== 200) {
    await Promise.all([listingRes.body?.cancel(), configRes.body?.cancel()]);
    return null;
  }
  const [listing, config] = (await Promise.all([listingRes.json(), configRes.json()])) as [ListingView, ChainConfigResponse];
  return { listing, config };
}

/**
 * The shell with the listing's summary and price in its `data-listing-slot` placeholders and the answer as JSON
 * after #root. No validators (the shell's ETag is not this page's) and `no-cache`: every visit is rendered
 * afresh from the API's answer, so the page is never older than that answer (docs/front-end.md#the-listing-page-carries-its-listing). Throws,
 * leaving `page` unread, when the listing cannot be rendered.
 */
export function withListing(page: Response, id: string, found: { listing: ListingView; config: ChainConfigResponse }): Response {
  const summary = renderToString(createElement(ListingSummary, { listing: found.listing, chainConfig: found.config }));
  const price = renderToString(createElement(ListingPrice, { listing: found.listing }));
  const data = scriptSafeJson({ id, listing: found.listing, config: found.config } satisfies EmbeddedListing);
  const res = new Response(page.body, page);
  res.headers.delete("etag");
  res.headers.delete("last-modified");
  res.headers.delete("content-length");
  res.headers.set("cache-control", "no-cache");
  return new HTMLRewriter()
    .on('[data-listing-slot="summary"]', { element: (el) => void el.replace(summary, { html: true }) })
    .on('[data-listing-slot="price"]', { element: (el) => void el.replace(price, { html: true }) })
    .on("#root", { element: (el) => void el.after(`<script type="application/json" id="${EMBEDDED_LISTING_ELEMENT_ID}">${data}</script>`, { html: true }) })
    .transform(res);
}

/** The page's Link header without the preload of the listing's read, which the page now carries itself. */
export function withoutListingPreload(link: string, id: string): string {
  return link
    .split(/,\s*(?=<)/)
    .filter((entry) => !entry.startsWith(`</api/addresses/${id}>`))
    .join(", ");
}
