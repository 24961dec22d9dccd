// Listing creation, the admin panel and the admin profile lists. Keys
// start with their path: everything under /api/addresses is refreshed by one invalidation after a change,
// and the admin table and stats (under /api/admin) are refreshed with it.
import { infiniteQueryOptions, mutationOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import type { BulkRow } from "../../../schema/listings";
import type { BulkPricing } from "../../../schema/price-advice";
import type { Network } from "../../../schema/db";
import { api, read } from "./http";

export const ADMIN_KEY = "/api/admin";

/** GET /api/addresses/validate?address: the live check of the create-listing form. */
export const validateAddress = (address: string, signal?: AbortSignal) => read(api.addresses.validate.$get({ query: { address } }, { init: { signal } }));

/** The create-listing form's live check of one address; the latest typed address wins (older ones are aborted). */
export const addressCheckQuery = (address: string) =>
  queryOptions({ queryKey: ["/api/addresses", "validate", address], queryFn: ({ signal }) => validateAddress(address, signal) });

/** POST /api/addresses/verify-ownership. The key is sent once and kept nowhere else. */
export const verifyOwnership = (address: string, privateKey: string, network: Network) =>
  read(api.addresses["verify-ownership"].$post({ json: { address, privateKey, network } }));

/**
 * Proving a key: changes nothing on the server, so it refreshes nothing. A mutation keeps its variables (here
 * the key) until it is collected: gcTime 0 drops it as soon as the form resets it.
 */
export const verifyOwnershipMutation = () =>
  mutationOptions({
    mutationFn: (p: { address: string; privateKey: string; network: Network }) => verifyOwnership(p.address, p.privateKey, p.network),
    gcTime: 0,
  });

/** The body of POST /api/addresses, as the route validates it (worker/listings/create.ts createListingBody). */
export type CreateListingRequest = InferRequestType<typeof api.addresses.$post>["json"];

/** POST /api/addresses (admins). Rarity, category and pattern are the server's to decide. */
export const createListing = (payload: CreateListingRequest) => read(api.addresses.$post({ json: payload }));

type AdminListingsQuery = InferRequestType<typeof api.admin.addresses.$get>["query"];
/** One page of the admin table: the route's own network and status filters. */
export type AdminListingsParams = {
  limit: number;
  offset: number;
  search: string;
  network: NonNullable<AdminListingsQuery["network"]>;
  status: NonNullable<AdminListingsQuery["status"]>;
};

export const adminListingsQuery = (p: AdminListingsParams) =>
  queryOptions({
    queryKey: [ADMIN_KEY, "addresses", p],
    queryFn: () => {
      const query: AdminListingsQuery = { limit: String(p.limit), offset: String(p.offset), network: p.network, status: p.status };
      if (p.search.trim()) query.search = p.search.trim();
      return read(api.admin.addresses.$get({ query }));
    },
    placeholderData: (prev) => prev,
  });

/** GET /api/admin/addresses/export: every listing the table's filters match (not only its page), up to the route's cap. */
export const exportAdminListings = (p: Omit<AdminListingsParams, "limit" | "offset">) => {
  const query: { network: AdminListingsParams["network"]; status: AdminListingsParams["status"]; search?: string } = { network: p.network, status: p.status };
  if (p.search.trim()) query.search = p.search.trim();
  return read(api.admin.addresses.export.$get({ query }));
};

export const adminStatsQuery = () => queryOptions({ queryKey: [ADMIN_KEY, "stats"], queryFn: () => read(api.admin.stats.$get()) });

export const bulkSetStatus = (listingIds: number[], status: "active" | "inactive") =>
  read(api.admin.addresses["bulk-status"].$put({ json: { listingIds, status } }));
export const bulkSetFeatured = (listingIds: number[], isFeatured: boolean) =>
  read(api.admin.addresses["bulk-featured"].$put({ json: { listingIds, isFeatured } }));
export const bulkDelete = (listingIds: number[]) => read(api.admin.addresses["bulk-delete"].$delete({ json: { listingIds } }));
const adminListing = api.admin.addresses[":id"];
export const adminUpdateListing = (id: number, change: { status?: "active" | "inactive"; isFeatured?: boolean }) =>
  read(adminListing.$put({ param: { id: String(id) }, json: change }));
export const adminDeleteListing = (id: number) => read(adminListing.$delete({ param: { id: String(id) } }));

/**
 * POST /api/admin/addresses/bulk: one chunk of CSV rows, one result per row, priced by the upload's choice;
 * rows with no notable pattern are listed only with confirmNoPattern.
 */
export const uploadBulkRows = (rows: BulkRow[], options: { pricing: BulkPricing; confirmNoPattern: boolean }) =>
  read(api.admin.addresses.bulk.$post({ json: { rows, ...options } }));

/** POST /api/admin/addresses/bulk/appraise: the preview's figures for rows sent without their keys. */
export const appraiseBulkRows = (rows: Omit<BulkRow, "private_key">[]) => read(api.admin.addresses.bulk.appraise.$post({ json: { rows } }));

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
/** "My Listings" loads this many at a time; "Show more" fetches the next page (it stopped at 100). */
export const USER_LISTINGS_PAGE = 48;

export const userListingsQuery = (wallet: string) =>
  infiniteQueryOptions({
    queryKey: ["/api/addresses", "user", wallet],
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      read(api.addresses.user.$get({ query: { walletAddress: wallet, limit: String(USER_LISTINGS_PAGE), offset: String(pageParam) } })),
    // A full page may have more behind it; a short one is the end.
    getNextPageParam: (last, pages) => (last.length === USER_LISTINGS_PAGE ? pages.length * USER_LISTINGS_PAGE : undefined),
  });

/** GET /api/transactions/user ("Transaction History", admins): sales and purchases merged. */
export const userTransactionsQuery = (wallet: string) =>
  queryOptions({
    queryKey: ["/api/transactions", "user", wallet],
    queryFn: () => read(api.transactions.user.$get({ query: { walletAddress: wallet } })),
  });
