// The listing page the Worker serves carries the listing it rendered from (worker/landing/listing-page.ts): the answer
// GET /api/addresses/{id} gives a visitor without a session. A visitor without a connected wallet would read
// exactly that, so the app starts with it in the cache instead of reading it again. With a wallet, the read
// carries the session (isOwner, a deleted or custom-order listing its owner or buyer may see): the app reads
// it as before, under its own key. The chain config the Worker rendered the Explorer button with is the same
// for everyone: seeded always, so the app's first render has it too and the summary keeps its height.
import type { QueryClient } from "@tanstack/react-query";
import { EMBEDDED_LISTING_ELEMENT_ID, type EmbeddedListing } from "../../../schema/embedded-listing";
import { currentViewer } from "../components/listing/use-viewer";
import { listingQuery } from "./listings";
import { chainConfigQuery } from "./market";

type PageSource = { getElementById(id: string): { textContent: string | null; remove(): void } | null };

/**
 * Puts the page's embedded config into the cache, and its listing when nobody is signed in, when they are this
 * path's; true if the listing went in.
 */
export function seedEmbeddedListing(queryClient: QueryClient, page: PageSource = document, path = location.pathname, viewer = currentViewer()): boolean {
  const element = page.getElementById(EMBEDDED_LISTING_ELEMENT_ID);
  if (!element) return false;
  // Read once, at start: later navigations read the API as usual.
  element.remove();
  let embedded: EmbeddedListing;
  try {
    embedded = JSON.parse(element.textContent ?? "") as EmbeddedListing;
  } catch {
    return false;
  }
  const id = /^\/address\/([^/]+)\/?$/.exec(path)?.[1];
  if (!id || embedded?.id !== id || embedded.listing?.id !== Number(id)) return false;
  if (embedded.config) queryClient.setQueryData(chainConfigQuery().queryKey, embedded.config);
  if (viewer !== null) return false;
  queryClient.setQueryData(listingQuery(id, null).queryKey, embedded.listing);
  return true;
}
