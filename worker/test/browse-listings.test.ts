// GET /api/addresses/featured, GET /api/addresses/{id}, and isOwner coming only from the session.
import { env } from "cloudflare:test";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { FEATURED_LIMIT, type ListingView } from "../../schema/browse";
import { createDb } from "../db/database";
import { handleError } from "../http/errors";
import { addressRoutes } from "../routes/addresses";
import type { AppEnv } from "../types";
import { adminAccount, signInEthereum } from "./auth-helpers";
import { clearBrowseData, insertListing, insertListings, insertUser, search, snapshot } from "./browse-fixtures";
import { api } from "./helpers";
import { client, clientOf, unchecked } from "./client";

const DAY = 24 * 60 * 60 * 1000;

/** The browse routes behind a stand-in session middleware, to pin isOwner to `session.userId` alone; called through
 * the typed client (the app mounts only /api/addresses, where the client's paths land). */
function withSession(session: unknown) {
  const app = new Hono<AppEnv>().onError(handleError);
  app.use("*", async (c, next) => {
    c.set("db", createDb(env.DB));
    (c as unknown as { set: (k: string, v: unknown) => void }).set("session", session);
    await next();
  });
  app.route("/api/addresses", addressRoutes);
  return clientOf((input, init) => app.request(input, init, env)).addresses;
}

describe("featured", () => {
  let order: number[];
  beforeAll(async () => {
    await clearBrowseData();
    const now = Date.now();
    const [heavy, rare, plain] = await insertListings([
      { isFeatured: true, promotionType: "featured", promotionWeight: 5, rarity: 2 },
      { isFeatured: true, promotionType: "featured", rarity: 9 },
      { isFeatured: true, promotionType: "featured", rarity: 4, featuredUntil: now + DAY },
    ]);
    order = [heavy, rare, plain];
    await insertListings([
      { isFeatured: true, rarity: 9.9, status: "sold", isListed: false },
      { isFeatured: true, rarity: 9.9, status: "deleted" },
      { isFeatured: true, rarity: 9.9, status: "inactive" },
      { isFeatured: true, rarity: 9.9, isListed: false },
      { isFeatured: true, rarity: 9.9, featuredUntil: now - 1 },
      { isFeatured: false, rarity: 9.9, promotionType: "promoted" },
    ]);
  });

  it("only featured, active, listed, unexpired; heaviest promotion, then rarest", async () => {
    const res = await client().addresses.featured.$get({ query: {} });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ListingView[];
    expect(body.map((l) => l.id)).toEqual(order);
    expect(body.every((l) => l.isFeatured && l.status === "active" && l.isListed)).toBe(true);
  });

  it("of one network when the marketplace filters by network; both without; a network that is none is a 400", async () => {
    const [sol] = await insertListings([{ isFeatured: true, promotionType: "featured", network: "solana", rarity: 3 }]);
    const ids = async (query: { network?: "ethereum" | "solana" }) =>
      ((await (await client().addresses.featured.$get({ query })).json()) as ListingView[]).map((l) => l.id);
    expect(await ids({ network: "solana" })).toEqual([sol]);
    expect(await ids({ network: "ethereum" })).toEqual(order);
    expect(await ids({})).toEqual([...order, sol]);
    const bad = await client().addresses.featured.$get({ query: unchecked({ network: "bitcoin" }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "Validation Error", message: "network: network must be ethereum or solana" });
  });

  it(`at most ${FEATURED_LIMIT}`, async () => {
    await insertListings(Array.from({ length: FEATURED_LIMIT + 3 }, () => ({ isFeatured: true })));
    const body = (await (await client().addresses.featured.$get({ query: {} })).json()) as ListingView[];
    expect(body).toHaveLength(FEATURED_LIMIT);
  });
});

describe("one listing", () => {
  let active: number;
  let sold: number;
  let deleted: number;
  let inactive: number;
  beforeAll(async () => {
    await clearBrowseData();
    active = await insertListing({
      address: "0xDeaDbeef00000000000000000000000000000001",
      price: "1.5",
      rarity: 7.25,
      category: "word-like",
      pattern: "deadbeef",
      patternLength: 8,
    });
    sold = await insertListing({ status: "sold", isListed: false });
    deleted = await insertListing({ status: "deleted" });
    inactive = await insertListing({ status: "inactive" });
  });

  it("returns the listing view", async () => {
    const res = await client().addresses[":id"].$get({ param: { id: String(active) } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: active,
      address: "0xDeaDbeef00000000000000000000000000000001",
      network: "ethereum",
      category: "word-like",
      pattern: "deadbeef",
      patternLength: 8,
      rarityScore: "7.3",
      price: "1.5",
      currency: "ETH",
      usdPrice: 5694,
      formattedUsd: "$5,694.00",
      status: "active",
      isListed: true,
      isOwner: false,
    });
  });

  it("sold and inactive listings are shown with their status (the page says Not Available)", async () => {
    expect(await (await client().addresses[":id"].$get({ param: { id: String(sold) } })).json()).toMatchObject({ status: "sold", isListed: false });
    expect(await (await client().addresses[":id"].$get({ param: { id: String(inactive) } })).json()).toMatchObject({ status: "inactive" });
  });

  it("unknown and deleted ids: 404", async () => {
    for (const id of [999999, deleted]) {
      const res = await client().addresses[":id"].$get({ param: { id: String(id) } });
      expect(res.status, String(id)).toBe(404);
      expect(await res.json()).toEqual({ error: "Not Found", message: "Address not found" });
    }
  });

  it.each(["0", "abc", "12abc", "-1", "1.5", "1e3", "0x10", "%20", "99999999999999999999"])("malformed id %s: 400, nothing changed", async (id) => {
    const before = await snapshot();
    const res = await client().addresses[":id"].$get({ param: { id } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Validation Error", message: "id: must be a listing id (a whole number from 1)" });
    expect(await snapshot()).toBe(before);
  });

  it("sibling routes on /api/addresses are not swallowed by the id routes", async () => {
    const res = await client().addresses.validate.$get({ query: { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ isValid: true });
    expect((await client().addresses.search.$get()).status).toBe(200);
    expect((await client().addresses.featured.$get({ query: {} })).status).toBe(200);
  });
});

describe("isOwner", () => {
  let seller: number;
  let mine: number;
  let theirs: number;
  let mineDeleted: number;
  beforeAll(async () => {
    await clearBrowseData();
    seller = await insertUser("seller", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
    const other = await insertUser("other", "0x70997970c51812dc3a010c7d01b50e0d17dc79c8");
    [mine, theirs] = await insertListings([
      { sellerId: seller, rarity: 9 },
      { sellerId: other, rarity: 8 },
    ]);
    mineDeleted = await insertListing({ sellerId: seller, status: "deleted" });
  });

  it("walletAddress never makes anyone an owner", async () => {
    const { body } = await search("walletAddress=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(body.addresses.map((l) => [l.id, l.isOwner])).toEqual([
      [mine, false],
      [theirs, false],
    ]);
    // Raw query: the route takes none, and a walletAddress naming the seller must not make a visitor the owner.
    const named = `${client().addresses[":id"].$path({ param: { id: String(mine) } })}?walletAddress=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266`;
    expect(await (await api(named)).json()).toMatchObject({ isOwner: false });
  });

  it("the session's user owns their listings on search and detail", async () => {
    const listings = withSession({ userId: seller });
    const res = await listings.search.$get();
    const body = (await res.json()) as { addresses: ListingView[] };
    expect(body.addresses.map((l) => [l.id, l.isOwner])).toEqual([
      [mine, true],
      [theirs, false],
    ]);
    expect(await (await listings[":id"].$get({ param: { id: String(mine) } })).json()).toMatchObject({ isOwner: true });
    // An owner still sees their own deleted listing; nobody else does.
    expect((await listings[":id"].$get({ param: { id: String(mineDeleted) } })).status).toBe(200);
    expect((await withSession({ userId: 999 })[":id"].$get({ param: { id: String(mineDeleted) } })).status).toBe(404);
  });

  it.each([null, undefined, {}, { userId: "1" }, { userId: 1.5 }, "admin"])("a malformed session (%j) owns nothing", async (session) => {
    const res = await withSession(session).search.$get();
    const body = (await res.json()) as { addresses: ListingView[] };
    expect(body.addresses.every((l) => !l.isOwner)).toBe(true);
  });

  it("through real sign-in: the wallet's user owns their listings", async () => {
    // adminAccount's wallet is the "seller" user's: signing in upserts onto that user.
    const { cookie } = await signInEthereum(adminAccount);
    const res = await client(undefined, { cookie }).addresses.search.$get();
    const listed = ((await res.json()) as { addresses: ListingView[] }).addresses;
    expect(listed.map((l) => [l.id, l.isOwner])).toEqual([
      [mine, true],
      [theirs, false],
    ]);
  });
});
