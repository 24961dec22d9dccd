// Type-level tests of the API client, checked by `npm run typecheck` (web/tsconfig.json includes this file;
// nothing runs it). Each `@ts-expect-error` line must be an error: were the client untyped (any) or looser than
// the route, the directive would be unused, and that is an error too. route-shape.test.ts proves the other half:
// a route that changes its answer breaks the web's build.
import { expectTypeOf } from "vitest";
import type { ListingView } from "../../../schema/browse";
import { type AnswerOf, api, read } from "./http";
import type { CreateListingRequest } from "./listings-admin";
import type { MarketConfig } from "./market";

// Declared, never called: these only need to type-check.
export async function requestBodies() {
  // The fee preview's body is the route's valibot schema: currency is ETH or SOL, nothing else.
  await api.transactions["calculate-fees"].$post({ json: { price: "1", currency: "ETH", membershipTier: "basic" } });
  // @ts-expect-error currency must be "ETH" | "SOL"
  await api.transactions["calculate-fees"].$post({ json: { price: "1", currency: "BTC" } });

  // @ts-expect-error reserving needs addressId (InitiateRequest)
  await api.transactions.initiate.$post({ json: { buyerId: "0xabc", price: "1", currency: "ETH", membershipTier: "basic" } });

  // @ts-expect-error the admin bulk actions take listing ids as numbers
  await api.admin.addresses["bulk-delete"].$delete({ json: { listingIds: ["1"] } });

  // @ts-expect-error a path parameter is required where the route has one
  await api.addresses[":id"].$get({});

  // @ts-expect-error sign-in names its network: "ethereum" or "solana"
  await api.auth.nonce.$post({ json: { network: "bitcoin", address: "x" } });

  const listing: CreateListingRequest = { address: "0xabc", network: "ethereum", price: "1", privateKey: "0x1" };
  // @ts-expect-error the listing's network is the route's picklist
  const wrongNetwork: CreateListingRequest = { ...listing, network: "polygon" };
  return wrongNetwork;
}

export async function answers() {
  const stats = await read(api["market-stats"].$get());
  expectTypeOf(stats.totalAddresses).toEqualTypeOf<number>();
  // @ts-expect-error the route answers no such field
  void stats.totalSales;

  const listing = await read(api.addresses[":id"].$get({ param: { id: "1" } }));
  expectTypeOf(listing).toEqualTypeOf<ListingView>();
  // @ts-expect-error listings never carry key material
  void listing.privateKey;

  const created = await read(api.addresses.$post({ json: { address: "0xabc", network: "ethereum" } }));
  expectTypeOf(created.success).toEqualTypeOf<true>();
  // @ts-expect-error the creation answers { success, id, listing }
  void created.address;

  const session = await read(api.auth.session.$get());
  // @ts-expect-error only a signed-in answer has a user: narrow on `authenticated` first
  void session.user;
  if (session.authenticated) expectTypeOf(session.user.walletAddress).toEqualTypeOf<string>();

  // A refusal (an error status) is not an answer: read() throws it as an HttpError.
  const reveal = await read(api.transactions[":id"]["reveal-private-key"].$post({ param: { id: "x" }, json: { publicKey: "k" } }));
  expectTypeOf(reveal.success).toEqualTypeOf<true>();
}

// Named answers are the route's, not copies: GET /api/config's answer is what MarketConfig is.
expectTypeOf<MarketConfig>().toEqualTypeOf<AnswerOf<typeof api.config.$get>>();
expectTypeOf<MarketConfig["payments"]>().not.toBeAny();
