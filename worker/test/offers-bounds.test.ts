// Offers' bounds (docs/offers.md#bounds): a wallet is free, so the bounds that hold are the client network's. One
// client cannot fill a wallet's, a network's or a seller's list of open offers, the table (offers a day), or the
// seller's bell (one unread line per listing).
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { OFFER_LIMITS, type ReceivedOffersResponse } from "../../schema/offers";
import { clientNetwork } from "../http/rate-limit";
import { makeUsers, rowCount } from "./collectors-fixtures";
import { inFreshRateWindow } from "./helpers";
import { actors, ethWallet, listWithKey, type Wallet } from "./purchase-fixtures";
import { client, refusal } from "./client";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

const offerFrom = (ip: string, w: Wallet, addressId: number, amount = "0.1") =>
  client(w, { "cf-connecting-ip": ip }).offers.$post({ json: { addressId, amount, currency: "ETH", validForHours: 24 } });

/** Rows written straight into D1 to bring a network's bound within reach: `count` offers from `ip`'s network. */
async function fillFrom(ip: string, count: number, status: "open" | "withdrawn", tag: string) {
  const users = await makeUsers(count, tag);
  const listing = await listWithKey(seller.userId, { price: "1" });
  const network = clientNetwork(ip);
  const now = Date.now();
  await env.DB.batch(
    users.map((u) =>
      env.DB.prepare(
        `INSERT INTO offers (address_id, buyer_id, amount, amount_units, currency, ask_units, status, expires_at, client_network, notified_status, created_at, updated_at)
         VALUES (?, ?, '0.1', 10000000, 'ETH', 100000000, ?, ?, ?, ?, ?, ?)`,
      ).bind(listing.id, u, status, now + 3_600_000, network, status, now, now),
    ),
  );
}

describe("offer bounds", () => {
  it(`a wallet holds at most ${OFFER_LIMITS.openPerWallet} open offers`, async () => {
    await inFreshRateWindow();
    const ip = "198.51.100.1";
    const w = await ethWallet();
    const listings = await Promise.all(Array.from({ length: OFFER_LIMITS.openPerWallet + 1 }, () => listWithKey(seller.userId, { price: "1" })));
    for (const l of listings.slice(0, -1)) expect((await offerFrom(ip, w, l.id)).status).toBe(201);
    const res = await offerFrom(ip, w, listings.at(-1)!.id);
    expect(res.status).toBe(409);
    expect((await refusal(res)).message).toContain(`${OFFER_LIMITS.openPerWallet} open offers, the most one wallet may`);
    expect(await rowCount("offers", "buyer_id = ? AND status = 'open'", w.userId)).toBe(OFFER_LIMITS.openPerWallet);
  });

  it(`one client network adds at most ${OFFER_LIMITS.openPerClientPerListing} lines to a seller's list, whatever its wallets`, async () => {
    const ip = "198.51.100.2";
    const l = await listWithKey(seller.userId, { price: "1" });
    const wallets = await Promise.all(Array.from({ length: OFFER_LIMITS.openPerClientPerListing + 2 }, () => ethWallet()));
    const statuses = await Promise.all(wallets.map((w, i) => offerFrom(ip, w, l.id, `0.${i + 1}`).then((r) => r.status as number)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(OFFER_LIMITS.openPerClientPerListing);
    expect(statuses.filter((s) => s === 409)).toHaveLength(2);
    const list = (await (await client(seller).offers.listing[":id"].all.$get({ param: { id: String(l.id) } })).json()) as ReceivedOffersResponse;
    expect(list.offers).toHaveLength(OFFER_LIMITS.openPerClientPerListing);
    // Another network is not held back by it.
    expect((await offerFrom("198.51.100.3", await ethWallet(), l.id)).status).toBe(201);
  });

  it(`a client network's wallets hold at most ${OFFER_LIMITS.openPerClient} open offers together`, async () => {
    const ip = "198.51.100.4";
    await fillFrom(ip, OFFER_LIMITS.openPerClient, "open", "offnet");
    const l = await listWithKey(seller.userId, { price: "1" });
    const res = await offerFrom(ip, await ethWallet(), l.id);
    expect(res.status).toBe(409);
    expect((await refusal(res)).message).toContain(`hold ${OFFER_LIMITS.openPerClient} open offers`);
    expect(await rowCount("offers", "address_id = ?", l.id)).toBe(0);
  });

  it(`a client network makes at most ${OFFER_LIMITS.perClientPerDay} offers a day, withdrawn ones included: the table grows by that at most`, async () => {
    const ip = "198.51.100.5";
    await fillFrom(ip, OFFER_LIMITS.perClientPerDay, "withdrawn", "offday");
    const l = await listWithKey(seller.userId, { price: "1" });
    const res = await offerFrom(ip, await ethWallet(), l.id);
    expect(res.status).toBe(429);
    expect(await rowCount("offers", "address_id = ?", l.id)).toBe(0);
  });

  it("the seller's bell holds one unread line per listing, however many offers it gets", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    for (const [i, ip] of ["198.51.100.6", "198.51.100.7", "198.51.100.8"].entries()) {
      expect((await offerFrom(ip, await ethWallet(), l.id, `0.${i + 1}`)).status).toBe(201);
    }
    const rows = await env.DB.prepare("SELECT data FROM notifications WHERE user_id = ? AND subject = ? AND read_at IS NULL")
      .bind(seller.userId, `listing-offers:${l.id}`)
      .all<{ data: string }>();
    expect(rows.results).toHaveLength(1);
    expect(JSON.parse(rows.results[0].data)).toMatchObject({ amount: "0.3" });
  });
});
