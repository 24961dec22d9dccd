// GET /api/addresses/{id}/context: the listing page's explanation (schema/listing-context.ts). Its key starts
// with /api/addresses, so a price change or a deletion refreshes it with the listings (api/listings.ts).
import { queryOptions } from "@tanstack/react-query";
import { api, idParam, read } from "./http";
import { ADDRESSES_KEY } from "./listings";

export const listingContextQuery = (id: string, viewer: string | null) =>
  queryOptions({
    queryKey: [ADDRESSES_KEY, "context", id, viewer],
    queryFn: () => read(api.addresses[":id"].context.$get(idParam(id))),
  });
