// Offers below the ask (docs/offers.md). The public part of a listing's offers (count, best amount) and the caller's
// own are one uncached call, as the watchers count is: listing reads stay the same for everyone.
import { mutationOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import type { MakeOfferInput } from "../../../schema/offers";
import { api, read } from "./http";

export const OFFERS_KEY = "/api/offers";

const validId = (id: string) => /^[1-9]\d{0,14}$/.test(id);

/** GET /api/offers/listing/{id}: count, best amount, and the wallet's own open or accepted offer (`wallet` keys it). */
export const offerSummaryQuery = (listingId: string, wallet: string | null) =>
  queryOptions({
    queryKey: [OFFERS_KEY, "summary", listingId, wallet],
    queryFn: () => {
      if (!validId(listingId)) return Promise.reject(new Error("Address not found"));
      return read(api.offers.listing[":id"].$get({ param: { id: listingId } }));
    },
    staleTime: 15_000,
  });

/** GET /api/offers/listing/{id}/all: the listing's open offers, best first (its seller or an admin). */
export const listingOffersQuery = (listingId: string, wallet: string) =>
  queryOptions({
    queryKey: [OFFERS_KEY, "listing", listingId, wallet],
    queryFn: () => read(api.offers.listing[":id"].all.$get({ param: { id: listingId } })),
    staleTime: 15_000,
  });

/** GET /api/offers/mine: Profile > Offers. */
export const myOffersQuery = (wallet: string) =>
  queryOptions({ queryKey: [OFFERS_KEY, "mine", wallet], queryFn: () => read(api.offers.mine.$get()), staleTime: 15_000 });

/** GET /api/offers/received: Admin > Offers. */
export const receivedOffersQuery = (wallet: string) =>
  queryOptions({ queryKey: [OFFERS_KEY, "received", wallet], queryFn: () => read(api.offers.received.$get()), staleTime: 15_000 });

const refresh = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: [OFFERS_KEY] });

/** POST /api/offers. */
export const makeOfferMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (body: MakeOfferInput) => read(api.offers.$post({ json: body })),
    onSettled: () => refresh(queryClient),
  });

/** DELETE /api/offers/{id}: the buyer withdraws their open offer. */
export const withdrawOfferMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (id: number) => read(api.offers[":id"].$delete({ param: { id: String(id) } })),
    onSettled: () => refresh(queryClient),
  });

/** POST /api/offers/{id}/accept or /decline: the seller's answer. Accepting reserves the listing, so listing reads follow. */
export const answerOfferMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: async ({ id, accept }: { id: number; accept: boolean }) => {
      const param = { param: { id: String(id) } };
      return accept ? (await read(api.offers[":id"].accept.$post(param))).offer : read(api.offers[":id"].decline.$post(param));
    },
    onSettled: async (_data, _error, { accept }) => {
      await refresh(queryClient);
      if (accept) await queryClient.invalidateQueries();
    },
  });
