// Listing reads and owner changes. Every key starts with "/api/addresses", so a price,
// feature or delete change refreshes exactly these caches (the spec's cache rule) with one invalidation.
// The connected wallet is part of each read's key: `isOwner` comes from the session, so signing in or out
// must fetch the listings again.
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import type { Network } from "../../../schema/db";
import type { PromotionType } from "../../../schema/listings";
import { api, read, walletHeader } from "./http";

export const ADDRESSES_KEY = "/api/addresses";

const listing = api.addresses[":id"];

/**
 * GET /api/addresses/featured, of one network when `network` is given (the marketplace's filter). A non-OK
 * answer raises "HTTP error! status: N" (what the home page shows).
 */
export const featuredQuery = (viewer: string | null, network?: Network) =>
  queryOptions({
    queryKey: [ADDRESSES_KEY, "featured", viewer, network ?? "all"],
    queryFn: ({ signal }) =>
      read(api.addresses.featured.$get({ query: network ? { network } : {} }, { init: { signal } }), { message: (status) => `HTTP error! status: ${status}` }),
  });

/** GET /api/addresses/search?{params}; `params` is the full query string (see server-rendered/marketplace-search.ts). */
export const searchQuery = (params: string) =>
  queryOptions({
    queryKey: [ADDRESSES_KEY, "search", params],
    queryFn: () => read(api.addresses.search.$get({ query: Object.fromEntries(new URLSearchParams(params)) })),
  });

/** GET /api/addresses/{id}. An id that is not a whole number cannot exist: it fails without a call. */
export const listingQuery = (id: string, viewer: string | null) =>
  queryOptions({
    queryKey: [ADDRESSES_KEY, id, viewer],
    queryFn: () => {
      if (!/^[1-9]\d{0,15}$/.test(id)) return Promise.reject(new Error("Address not found"));
      return read(listing.$get({ param: { id } }));
    },
  });

/** The spec's cache rule after a price or feature change (and a deletion): refresh only /api/addresses. */
export const refreshListings = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: [ADDRESSES_KEY] });

/** PATCH /api/addresses/{id} {price}: the price as typed (a decimal string, so nothing is lost to floats). */
export const updateListingPrice = (id: number, price: string) =>
  read(listing.$patch({ param: { id: String(id) }, json: { price } }, { headers: walletHeader() }));

/** PATCH /api/addresses/{id} {promotionType, isFeatured}: isFeatured is true only for "featured". */
export const updateListingPromotion = (id: number, promotionType: PromotionType) =>
  read(listing.$patch({ param: { id: String(id) }, json: { promotionType, isFeatured: promotionType === "featured" } }, { headers: walletHeader() }));

/** DELETE /api/addresses/{id}: the owner's soft deletion. */
export const deleteListing = (id: number) => read(listing.$delete({ param: { id: String(id) } }, { headers: walletHeader() }));
