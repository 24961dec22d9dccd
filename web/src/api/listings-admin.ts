// Listing creation, the admin panel and the admin profile lists (transactions-profile-admin.md §7). Keys
// start with their path: everything under /api/addresses is refreshed by one invalidation after a change,
// and the admin table and stats (under /api/admin) are refreshed with it.
import { infiniteQueryOptions, mutationOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import type { AddressCheckResponse } from "../../../schema/api";
import type { ListingView } from "../../../schema/browse";
import type {
  AdminListingsResponse,
  AdminStats,
  BulkActionResponse,
  BulkRow,
  BulkUploadResponse,
  OwnershipResponse,
  PromotionType,
  UserTransaction,
} from "../../../schema/listings";
import type { Network } from "../../../schema/db";
import { request } from "./http";

export const ADMIN_KEY = "/api/admin";

/** GET /api/addresses/validate?address: the live check of the create-listing form. */
export const validateAddress = (address: string, signal?: AbortSignal) =>
  fetch(`/api/addresses/validate?address=${encodeURIComponent(address)}`, { credentials: "include", signal }).then(async (res) => {
    if (!res.ok) throw new Error(`${res.status}`);
    return (await res.json()) as AddressCheckResponse;
  });

/** The create-listing form's live check of one address; the latest typed address wins (older ones are aborted). */
export const addressCheckQuery = (address: string) =>
  queryOptions({ queryKey: ["/api/addresses", "validate", address], queryFn: ({ signal }) => validateAddress(address, signal) });

/** POST /api/addresses/verify-ownership. The key is sent once and kept nowhere else. */
export const verifyOwnership = (address: string, privateKey: string, network: Network) =>
  request<OwnershipResponse>("POST", "/api/addresses/verify-ownership", { address, privateKey, network });

/**
 * Proving a key: changes nothing on the server, so it refreshes nothing. A mutation keeps its variables (here
 * the key) until it is collected: gcTime 0 drops it as soon as the form resets it.
 */
export const verifyOwnershipMutation = () =>
  mutationOptions({
    mutationFn: (p: { address: string; privateKey: string; network: Network }) => verifyOwnership(p.address, p.privateKey, p.network),
    gcTime: 0,
  });

export type CreateListingPayload = {
  address: string;
  network: Network;
  price: string;
  currency: "ETH" | "SOL";
  promotionType: PromotionType;
  isFeatured: boolean;
  isListed: true;
  status: "active";
  privateKey: string;
};

/** POST /api/addresses (admins). Rarity, category and pattern are the server's to decide. */
export const createListing = (payload: CreateListingPayload) =>
  request<{ success: true; id: number; listing: ListingView }>("POST", "/api/addresses", payload);

export type AdminListingsParams = { limit: number; offset: number; search: string; network: string; status: string };

export const adminListingsQuery = (p: AdminListingsParams) =>
  queryOptions({
    queryKey: [ADMIN_KEY, "addresses", p],
    queryFn: () => {
      const q = new URLSearchParams({ limit: String(p.limit), offset: String(p.offset), network: p.network, status: p.status });
      if (p.search.trim()) q.set("search", p.search.trim());
      return request<AdminListingsResponse>("GET", `${ADMIN_KEY}/addresses?${q}`);
    },
    placeholderData: (prev) => prev,
  });

export const adminStatsQuery = () => queryOptions({ queryKey: [ADMIN_KEY, "stats"], queryFn: () => request<AdminStats>("GET", `${ADMIN_KEY}/stats`) });

export const bulkSetStatus = (listingIds: number[], status: "active" | "inactive") =>
  request<BulkActionResponse>("PUT", `${ADMIN_KEY}/addresses/bulk-status`, { listingIds, status });
export const bulkSetFeatured = (listingIds: number[], isFeatured: boolean) =>
  request<BulkActionResponse>("PUT", `${ADMIN_KEY}/addresses/bulk-featured`, { listingIds, isFeatured });
export const bulkDelete = (listingIds: number[]) => request<BulkActionResponse>("DELETE", `${ADMIN_KEY}/addresses/bulk-delete`, { listingIds });
export const adminUpdateListing = (id: number, change: { status?: "active" | "inactive"; isFeatured?: boolean }) =>
  request<unknown>("PUT", `${ADMIN_KEY}/addresses/${id}`, change);
export const adminDeleteListing = (id: number) => request<BulkActionResponse>("DELETE", `${ADMIN_KEY}/addresses/${id}`);

/** POST /api/admin/addresses/bulk: one chunk of CSV rows, one result per row. */
export const uploadBulkRows = (rows: BulkRow[]) => request<BulkUploadResponse>("POST", `${ADMIN_KEY}/addresses/bulk`, { rows });

/** After any listing change: the listing reads and the admin table and stats. */
export const refreshAfterListingChange = (queryClient: QueryClient) =>
  Promise.all([queryClient.invalidateQueries({ queryKey: ["/api/addresses"] }), queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] })]);

/**
 * A write to listings (create, a bulk upload, an admin's row or bulk action) as a mutation: settled either
 * way it refreshes the listing reads and the admin table, since a call that failed part-way (a bulk chunk,
 * a dropped connection) may still have changed rows. The refresh runs in the background: the form is free
 * again at once.
 */
export const listingChangeMutation = <TVariables, TData>(queryClient: QueryClient, mutationFn: (variables: TVariables) => Promise<TData>) =>
  mutationOptions({
    mutationFn,
    onSettled: () => {
      void refreshAfterListingChange(queryClient);
    },
  });

/** GET /api/addresses/user ("My Listings", admins). */
/** "My Listings" loads this many at a time; "Show more" fetches the next page (issue 13: it stopped at 100). */
export const USER_LISTINGS_PAGE = 48;

export const userListingsQuery = (wallet: string) =>
  infiniteQueryOptions({
    queryKey: ["/api/addresses", "user", wallet],
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      request<ListingView[]>("GET", `/api/addresses/user?walletAddress=${encodeURIComponent(wallet)}&limit=${USER_LISTINGS_PAGE}&offset=${pageParam}`),
    // A full page may have more behind it; a short one is the end.
    getNextPageParam: (last, pages) => (last.length === USER_LISTINGS_PAGE ? pages.length * USER_LISTINGS_PAGE : undefined),
  });

/** GET /api/transactions/user ("Transaction History", admins): sales and purchases merged. */
export const userTransactionsQuery = (wallet: string) =>
  queryOptions({
    queryKey: ["/api/transactions", "user", wallet],
    queryFn: () => request<UserTransaction[]>("GET", `/api/transactions/user?walletAddress=${encodeURIComponent(wallet)}`),
  });
