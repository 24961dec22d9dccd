// The watchlist (docs/collectors.md#watchlist): starring and unstarring, what a hostile client sends, the list
// with each listing's state and its change since starred, the public count (never who), the listing reads left
// the same for everyone (the edge cache keeps serving them), and the per-wallet and per-network bounds.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ListingView } from "../../schema/browse";
import { WATCHLIST_LIMITS, type WatchAnswer, type WatchedIdsResponse, type WatchlistResponse } from "../../schema/collectors";
import { CACHE_STATUS_HEADER } from "../http/edge-cache";
import { keyOf, makeUsers, randomAddress, rowCount, starFrom } from "./collectors-fixtures";
import { insertListing } from "./browse-fixtures";
import { ethWallet, type Wallet } from "./purchase-fixtures";
import { client, refusal } from "./client";

const IP = "203.0.113.10";
let alice: Wallet;
let bob: Wallet;
beforeAll(async () => {
  [alice, bob] = [await ethWallet(), await ethWallet()];
});

const watchers = async (id: number) =>
  ((await (await client().watchlist[":id"].watchers.$get({ param: { id: String(id) } })).json()) as { watchers: number }).watchers;

describe("starring", () => {
  it("signed out: 401 and nothing written, for every call", async () => {
    const id = await insertListing({ address: randomAddress() });
    const anonymous = client().watchlist;
    for (const [path, res] of [
      ["PUT /api/watchlist/:id", () => anonymous[":id"].$put({ param: { id: String(id) } })],
      ["DELETE /api/watchlist/:id", () => anonymous[":id"].$delete({ param: { id: String(id) } })],
      ["GET /api/watchlist", () => anonymous.$get({ query: {} })],
      ["GET /api/watchlist/ids", () => anonymous.ids.$get()],
    ] as const) {
      expect((await res()).status, path).toBe(401);
    }
    expect(await rowCount("watchlist")).toBe(0);
  });

  it("a star is 201 with the count; a second star of the same listing is 200 and writes nothing", async () => {
    const id = await insertListing({ address: randomAddress(), price: "0.5" });
    const first = await starFrom(IP, alice, id);
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ listingId: id, watching: true, watchers: 1 } satisfies WatchAnswer);
    const again = await starFrom(IP, alice, id);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ listingId: id, watching: true, watchers: 1 });
    expect(await rowCount("watchlist", "address_id = ?", id)).toBe(1);
    expect((await starFrom(IP, bob, id)).status).toBe(201);
    expect(await watchers(id)).toBe(2);
  });

  it("the public count says how many, never who", async () => {
    const id = await insertListing({ address: randomAddress() });
    await starFrom(IP, alice, id);
    const res = await client().watchlist[":id"].watchers.$get({ param: { id: String(id) } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ listingId: id, watchers: 1 });
    expect(text.toLowerCase()).not.toContain(alice.address.toLowerCase());
  });

  it("refuses what a hostile client sends, writing nothing: unknown, deleted and custom-order listings, malformed ids", async () => {
    const deleted = await insertListing({ address: randomAddress(), status: "deleted", isListed: false });
    const hidden = await insertListing({ address: "0x00000000c0ffee0000000000000000000000beef" });
    await env.DB.prepare(
      `INSERT INTO custom_orders (buyer_id, buyer_wallet, public_key, prefix, suffix, case_sensitive, difficulty_bits, price, price_units, status, found_address)
       VALUES (?, '0xbuyer', '0x02', 'c0ffee', '', 0, 24, '0.1', 10000000, 'found', '0x00000000c0ffee0000000000000000000000beef')`,
    )
      .bind(bob.userId)
      .run();
    const before = await rowCount("watchlist");
    for (const id of [999_999, deleted, hidden]) {
      const res = await starFrom(IP, alice, id);
      expect(res.status, `listing ${id}`).toBe(404);
      expect(await res.json()).toEqual({ error: "Not Found", message: "Address not found" });
      expect((await client().watchlist[":id"].watchers.$get({ param: { id: String(id) } })).status).toBe(404);
    }
    for (const id of ["abc", "0", "-1", "1.5", "99999999999999999999"]) {
      const res = await starFrom(IP, alice, id);
      expect(res.status, id).toBe(400);
      expect((await refusal(res)).message).toContain("id:");
    }
    expect(await rowCount("watchlist")).toBe(before);
  });

  it("unstar removes it (again is fine); an unknown listing not watched is 404", async () => {
    const id = await insertListing({ address: randomAddress() });
    await starFrom(IP, alice, id);
    const res = await client(alice, { "cf-connecting-ip": IP }).watchlist[":id"].$delete({ param: { id: String(id) } });
    expect(await res.json()).toEqual({ listingId: id, watching: false, watchers: 0 } satisfies WatchAnswer);
    expect((await client(alice, { "cf-connecting-ip": IP }).watchlist[":id"].$delete({ param: { id: String(id) } })).status).toBe(200);
    expect((await client(alice, { "cf-connecting-ip": IP }).watchlist[":id"].$delete({ param: { id: "999998" } })).status).toBe(404);
  });

  it("a listing deleted after it was starred stays in the list as unlisted and can be removed", async () => {
    const id = await insertListing({ address: randomAddress() });
    await starFrom(IP, alice, id);
    await env.DB.prepare("UPDATE addresses SET status = 'deleted', is_listed = 0 WHERE id = ?").bind(id).run();
    const list = (await (await client(alice).watchlist.$get()).json()) as WatchlistResponse;
    expect(list.items.find((i) => i.listingId === id)?.state).toBe("unlisted");
    expect((await client(alice, { "cf-connecting-ip": IP }).watchlist[":id"].$delete({ param: { id: String(id) } })).status).toBe(200);
  });
});

describe("the list", () => {
  it("each listing now: price, price when starred, the change, and its state", async () => {
    const w = await ethWallet();
    const forSale = await insertListing({ address: randomAddress(), price: "1" });
    const reserved = await insertListing({ address: randomAddress(), price: "2" });
    const sold = await insertListing({ address: randomAddress(), price: "3" });
    const inactive = await insertListing({ address: randomAddress(), price: "4" });
    for (const id of [forSale, reserved, sold, inactive]) expect((await starFrom(IP, w, id)).status).toBe(201);
    await env.DB.batch([
      env.DB.prepare("UPDATE addresses SET price = '0.8', price_units = 80000000 WHERE id = ?").bind(forSale),
      env.DB.prepare(
        `INSERT INTO transactions (id, address_id, network, price, price_units, currency, total_amount, total_units, status, expires_at, created_at)
         VALUES ('tx-watch-1', ?, 'ethereum', '2', 200000000, 'ETH', '2', 200000000, 'initiated', ?, ?)`,
      ).bind(reserved, Date.now() + 600_000, Date.now()),
      env.DB.prepare("UPDATE addresses SET status = 'sold', is_listed = 0 WHERE id = ?").bind(sold),
      env.DB.prepare("UPDATE addresses SET status = 'inactive' WHERE id = ?").bind(inactive),
    ]);
    const res = await client(w).watchlist.$get();
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as WatchlistResponse;
    expect(body.limit).toBe(WATCHLIST_LIMITS.perWallet);
    const byId = new Map(body.items.map((i) => [i.listingId, i]));
    expect(byId.get(forSale)).toMatchObject({ price: "0.8", priceAtStar: "1", changePercent: "-20.00", state: "for-sale", reservedUntil: null });
    expect(byId.get(reserved)).toMatchObject({ state: "reserved", reservedUntil: expect.any(String), changePercent: "0.00" });
    expect(byId.get(sold)?.state).toBe("sold");
    expect(byId.get(inactive)?.state).toBe("unlisted");
    // Newest star first.
    expect(body.items.map((i) => i.listingId)).toEqual([inactive, sold, reserved, forSale]);
    const ids = (await (await client(w).watchlist.ids.$get()).json()) as WatchedIdsResponse;
    expect(ids.listingIds).toEqual([inactive, sold, reserved, forSale]);
  });

  it("is each wallet's own", async () => {
    const w = await ethWallet();
    const id = await insertListing({ address: randomAddress() });
    await starFrom(IP, alice, id);
    expect(((await (await client(w).watchlist.ids.$get()).json()) as WatchedIdsResponse).listingIds).toEqual([]);
  });
});

describe("listing reads stay the same for every viewer", () => {
  it("a star changes no listing answer, and a visitor's cached answer keeps being served", async () => {
    const id = await insertListing({ address: randomAddress() });
    const listing = () => client().addresses[":id"].$get({ param: { id: String(id) } });
    const first = await listing();
    const before = (await first.json()) as ListingView;
    expect(Object.keys(before)).not.toContain("watching");
    await starFrom(IP, alice, id);
    const after = await listing();
    expect(after.headers.get(CACHE_STATUS_HEADER)).toBe("HIT");
    expect(await after.json()).toEqual(before);
  });
});

describe("bounds: a wallet is free, so one client network cannot fill the table", () => {
  /** `count` listings, and `perUser` stars each for new users, all stored as made from `ip`. */
  async function fill(ip: string, users: number, perUser: number, tag: string) {
    const key = await keyOf(ip);
    const owners = await makeUsers(users, tag);
    const listings: number[] = [];
    for (let i = 0; i < perUser; i++) listings.push(await insertListing({ address: randomAddress() }));
    const statements = owners.flatMap((u) =>
      listings.map((l) =>
        env.DB.prepare("INSERT INTO watchlist (user_id, address_id, price_at_star, price_units_at_star, client_key) VALUES (?, ?, '0.1', 10000000, ?)").bind(
          u,
          l,
          key,
        ),
      ),
    );
    for (let i = 0; i < statements.length; i += 500) await env.DB.batch(statements.slice(i, i + 500));
    return listings;
  }

  it(`a wallet keeps at most ${WATCHLIST_LIMITS.perWallet}: the next star is 409 and writes nothing`, async () => {
    const w = await ethWallet();
    const key = await keyOf("198.51.100.7");
    const listings: number[] = [];
    for (let i = 0; i < WATCHLIST_LIMITS.perWallet; i++) listings.push(await insertListing({ address: randomAddress() }));
    await env.DB.batch(
      listings
        .slice(1)
        .map((l) =>
          env.DB.prepare("INSERT INTO watchlist (user_id, address_id, price_at_star, price_units_at_star, client_key) VALUES (?, ?, '0.1', 10000000, ?)").bind(
            w.userId,
            l,
            key,
          ),
        ),
    );
    expect((await starFrom("198.51.100.7", w, listings[0])).status).toBe(201);
    const extra = await insertListing({ address: randomAddress() });
    const refused = await starFrom("198.51.100.7", w, extra);
    expect(refused.status).toBe(409);
    expect((await refusal(refused)).message).toContain("Your watchlist is full");
    expect(await rowCount("watchlist", "user_id = ?", w.userId)).toBe(WATCHLIST_LIMITS.perWallet);
    // Starring one it already has is still fine at the bound.
    expect((await starFrom("198.51.100.7", w, listings[0])).status).toBe(200);
  });

  it(`the wallets of one client network keep at most ${WATCHLIST_LIMITS.perClient} together; another network is not held back`, async () => {
    const ip = "2001:db8:77::1";
    const perUser = WATCHLIST_LIMITS.perClient / 10;
    await fill(ip, 10, perUser, "net");
    const fresh = await ethWallet();
    const id = await insertListing({ address: randomAddress() });
    // Another address of the same IPv6 /64 is the same client network.
    const refused = await starFrom("2001:db8:77::abcd", fresh, id);
    expect(refused.status).toBe(409);
    expect((await refusal(refused)).message).toContain("on your network");
    expect(await rowCount("watchlist", "user_id = ?", fresh.userId)).toBe(0);
    expect((await starFrom("2001:db8:78::1", fresh, id)).status).toBe(201);
  });

  it("the stored network is a keyed hash, not the address", async () => {
    const w = await ethWallet();
    const id = await insertListing({ address: randomAddress() });
    await starFrom("192.0.2.55", w, id);
    const row = await env.DB.prepare("SELECT client_key FROM watchlist WHERE user_id = ?").bind(w.userId).first<{ client_key: string }>();
    expect(row!.client_key).toMatch(/^[0-9a-f]{32}$/);
    expect(row!.client_key).toBe(await keyOf("192.0.2.55"));
  });
});
