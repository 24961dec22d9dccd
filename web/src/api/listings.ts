// Listing reads and owner changes (public-side.md §7). Every key starts with "/api/addresses", so a price,
// feature or delete change refreshes exactly these caches (the spec's cache rule) with one invalidation.
// The connected wallet is part of each read's key: `isOwner` comes from the session, so signing in or out
// must fetch the listings again.
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import type { ListingView, SearchResponse } from "../../../schema/browse";
import type { PromotionType } from "../../../schema/listings";
import { request } from "./http";

export const ADDRESSES_KEY = "/api/addresses";

/** GET /api/addresses/featured. A non-OK answer raises "HTTP error! status: N" (what the home page shows). */
export const featuredQuery = (viewer: string | null) =>
  queryOptions({
    queryKey: [ADDRESSES_KEY, "featured", viewer],
    queryFn: async ({ signal }): Promise<ListingView[]> => {
      const res = await fetch(`${ADDRESSES_KEY}/featured`, { credentials: "include", signal });
      if (!res.ok) throw new Error(`HTTP error! status: ${res.status}`);
      return (await res.json()) as ListingView[];
    },
  });

/** GET /api/addresses/search?{params}; `params` is the full query string (see -marketplace/search.ts). */
export const searchQuery = (params: string) =>
  queryOptions({
    queryKey: [ADDRESSES_KEY, "search", params],
    queryFn: () => request<SearchResponse>("GET", `${ADDRESSES_KEY}/search?${params}`),
  });

/** GET /api/addresses/{id}. An id that is not a whole number cannot exist: it fails without a call. */
export const listingQuery = (id: string, viewer: string | null) =>
  queryOptions({
    queryKey: [ADDRESSES_KEY, id, viewer],
    queryFn: () => {
      if (!/^[1-9]\d{0,15}$/.test(id)) return Promise.reject(new Error("Address not found"));
      return request<ListingView>("GET", `${ADDRESSES_KEY}/${id}`);
    },
  });

/** The spec's cache rule after a price or feature change (and a deletion): refresh only /api/addresses. */
export const refreshListings = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: [ADDRESSES_KEY] });

/** Owner-changing calls carry the stored wallet in x-wallet-address (it authorises nothing; the session does). */
function walletHeader(): Record<string, string> {
  try {
    const wallet = localStorage.getItem("walletAddress");
    return wallet ? { "x-wallet-address": wallet } : {};
  } catch {
    return {};
  }
}

/** PATCH /api/addresses/{id} {price}: the price as typed (a decimal string, so nothing is lost to floats). */
export const updateListingPrice = (id: number, price: string) =>
  request<ListingView>("PATCH", `${ADDRESSES_KEY}/${id}`, { price }, walletHeader());

/** PATCH /api/addresses/{id} {promotionType, isFeatured}: isFeatured is true only for "featured". */
export const updateListingPromotion = (id: number, promotionType: PromotionType) =>
  request<ListingView>("PATCH", `${ADDRESSES_KEY}/${id}`, { promotionType, isFeatured: promotionType === "featured" }, walletHeader());

/** DELETE /api/addresses/{id}: the owner's soft deletion. */
export const deleteListing = (id: number) => request<{ success: true; id: number; status: "deleted" }>("DELETE", `${ADDRESSES_KEY}/${id}`, undefined, walletHeader());
