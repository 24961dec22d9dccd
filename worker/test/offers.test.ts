// Offers (docs/offers.md): making one and what a hostile client sends, one open offer per buyer and listing, who sees
// what, accepting (a reservation through the purchase path at the offered price, the others declined, races), declining,
// withdrawing, and every end: a price change, a sale, an unlisting, the clock, an accepted offer's unpaid reservation.
import { env } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_OPEN_RESERVATIONS } from "../../schema/purchases";
import { RESERVATION_MINUTES } from "../../schema/reservation";
import type { AcceptOfferResponse, MyOffersResponse, OfferSummary, OfferView, ReceivedOffersResponse } from "../../schema/offers";
import type { AuthSession } from "../auth/middleware";
import { createDb } from "../db/database";
import { clientNetwork } from "../http/rate-limit";
import { planAcceptance } from "../offers/answer";
import { runOfferJob } from "../offers/offer-job";
import { expireReservations } from "../purchases/payment-jobs";
import { quoteFees } from "../purchases/fee-quote";
import { writeReservation } from "../purchases/reserve";
import { unitsToDecimal } from "../../schema/money";
import { rowCount } from "./collectors-fixtures";
import { actors, call, ethWallet, initiate, listWithKey, purchaseRow, solWallet, type Wallet } from "./purchase-fixtures";
import { client, refusal, unchecked } from "./client";
import { readDeployment } from "../deployment/deployment";

let seller: Wallet;
let buyer: Wallet;
let other: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});
beforeEach(async () => {
  [buyer, other] = await Promise.all([ethWallet(), ethWallet()]);
});

const offer = (w: Wallet, addressId: number | string, amount: unknown, extra: Record<string, unknown> = {}) =>
  client(w).offers.$post({ json: unchecked({ addressId, amount, currency: "ETH", validForHours: 24, ...extra }) });
async function made(w: Wallet, addressId: number, amount: string, extra: Record<string, unknown> = {}): Promise<OfferView> {
  const res = await offer(w, addressId, amount, extra);
  if (res.status !== 201) throw new Error(`offer: ${res.status} ${await res.text()}`);
  return (await res.json()) as OfferView;
}
const accept = (w: Wallet, id: number) => client(w).offers[":id"].accept.$post({ param: { id: String(id) } });
const decline = (w: Wallet, id: number) => client(w).offers[":id"].decline.$post({ param: { id: String(id) } });
const withdraw = (w: Wallet, id: number) => client(w).offers[":id"].$delete({ param: { id: String(id) } });
const summary = async (id: number, w?: Wallet) => (await (await client(w).offers.listing[":id"].$get({ param: { id: String(id) } })).json()) as OfferSummary;
const offerRow = (id: number) => env.DB.prepare("SELECT * FROM offers WHERE id = ?").bind(id).first<Record<string, unknown>>();
const notes = (userId: number, kind: string) =>
  env.DB.prepare("SELECT data FROM notifications WHERE user_id = ? AND kind = ?")
    .bind(userId, kind)
    .all<{ data: string }>()
    .then((r) => r.results.map((x) => JSON.parse(x.data) as Record<string, unknown>));
const offerCount = (listingId: number) => rowCount("offers", "address_id = ?", listingId);
const db = () => createDb(env.DB);
const HOUR = 60 * 60 * 1000;

describe("making an offer", () => {
  it("signed out: 401 and nothing written", async () => {
    const l = await listWithKey(seller.userId);
    const res = await client().offers.$post({ json: { addressId: l.id, amount: "0.1", currency: "ETH", validForHours: 24 } });
    expect(res.status).toBe(401);
    expect(await offerCount(l.id)).toBe(0);
  });

  it("an offer below the ask is open, in the listing's currency, valid for the hours chosen; the seller is told", async () => {
    const l = await listWithKey(seller.userId, { price: "0.5" });
    const before = Date.now();
    const o = await made(buyer, l.id, "0.40");
    expect(o).toMatchObject({ listingId: l.id, amount: "0.4", currency: "ETH", ask: "0.5", status: "open", endReason: null, transactionId: null });
    const expires = Date.parse(o.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 24 * HOUR);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * HOUR);
    expect(await notes(seller.userId, "offer_received")).toContainEqual(expect.objectContaining({ listingId: l.id, amount: "0.4", ask: "0.5" }));
  });

  it("refuses what a hostile client sends, with a clear message, writing nothing", async () => {
    const l = await listWithKey(seller.userId, { price: "0.5" });
    const cases: [unknown, Record<string, unknown>, number, string][] = [
      ["abc", {}, 400, "amount: The amount must be a positive number"],
      [null, {}, 400, "amount"],
      [{ n: 1 }, {}, 400, "amount"],
      [[0.1], {}, 400, "amount"],
      ["-0.1", {}, 400, "amount: Negative amounts are not allowed"],
      [-0.1, {}, 400, "amount: Negative amounts are not allowed"],
      ["0", {}, 400, "amount: The amount must be a positive number"],
      ["NaN", {}, 400, "amount"],
      ["1e400", {}, 400, "amount"],
      ["0.123456789", {}, 400, "amount: The amount can have at most 8 decimal places"],
      ["0.5", {}, 409, "below the asking price"],
      ["0.50000000", {}, 409, "below the asking price"],
      ["0.6", {}, 409, "below the asking price"],
      ["0.1", { currency: "SOL" }, 400, "currency: this listing is priced in ETH"],
      ["0.1", { currency: "BTC" }, 400, "currency must be ETH or SOL"],
      ["0.1", { validForHours: 0 }, 400, "validForHours must be at least 1"],
      ["0.1", { validForHours: 721 }, 400, "validForHours must be at most 720"],
      ["0.1", { validForHours: 1.5 }, 400, "whole number of hours"],
      ["0.1", { validForHours: "24" }, 400, "whole number of hours"],
      ["0.1", { validForHours: undefined }, 400, "validForHours is required"],
      ["0.1", { addressId: "1; DROP TABLE offers" }, 400, "addressId"],
      ["0.1", { addressId: 0 }, 400, "addressId"],
    ];
    for (const [amount, extra, status, message] of cases) {
      const res = await offer(buyer, l.id, amount, extra);
      expect(res.status, `${JSON.stringify(amount)} ${JSON.stringify(extra)}`).toBe(status);
      const body = await refusal(res);
      expect(body.message).toContain(message);
      expect(typeof body.error).toBe("string");
    }
    // Bodies that are not a JSON object: raw text the typed client would not send.
    for (const body of ["[]", "not json", '"0.1"']) {
      expect((await call("POST", "/api/offers", buyer, body)).status, body).toBe(400);
    }
    expect(await offerCount(l.id)).toBe(0);
  });

  it("refuses the seller's own listing, the other chain's wallets, listings not for sale and unknown ones", async () => {
    const own = await listWithKey(buyer.userId);
    expect((await offer(buyer, own.id, "0.1")).status).toBe(403);
    const l = await listWithKey(seller.userId);
    const sol = await solWallet();
    expect((await offer(sol, l.id, "0.1", { currency: "ETH" })).status).toBe(403);
    for (const status of ["sold", "inactive"]) {
      const gone = await listWithKey(seller.userId, { status });
      const res = await offer(buyer, gone.id, "0.1");
      expect(res.status, status).toBe(409);
      expect(await res.json()).toMatchObject({ message: "This listing is not for sale" });
    }
    expect((await offer(buyer, 987_654, "0.1")).status).toBe(404);
    const deleted = await listWithKey(seller.userId, { status: "deleted" });
    expect((await offer(buyer, deleted.id, "0.1")).status).toBe(404);
    expect(await rowCount("offers", "buyer_id = ?", buyer.userId)).toBe(0);
  });

  it("a Solana listing takes offers in SOL from Solana wallets", async () => {
    const l = await listWithKey(seller.userId, { network: "solana", price: "3" });
    const sol = await solWallet();
    const o = await made(sol, l.id, "2.5", { currency: "SOL" });
    expect(o).toMatchObject({ currency: "SOL", network: "solana", amount: "2.5" });
  });

  it("one open offer per buyer and listing: a second is 409 until the first is withdrawn", async () => {
    const l = await listWithKey(seller.userId);
    const first = await made(buyer, l.id, "0.1");
    const again = await offer(buyer, l.id, "0.2");
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ offerId: first.id, message: expect.stringContaining("already have an open offer of 0.1 ETH") });
    // Racing requests: the unique index lets one through.
    const racing = await Promise.all([offer(other, l.id, "0.2"), offer(other, l.id, "0.3")]);
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await withdraw(buyer, first.id)).status).toBe(200);
    expect((await offer(buyer, l.id, "0.2")).status).toBe(201);
    expect(await rowCount("offers", "address_id = ? AND status = 'open'", l.id)).toBe(2);
  });
});

describe("who sees what", () => {
  it("anyone sees a listing's count and best amount, never who offered or the other amounts", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    await made(buyer, l.id, "0.3");
    await made(other, l.id, "0.7");
    const res = await client().offers.listing[":id"].$get({ param: { id: String(l.id) } });
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ listingId: l.id, count: 2, best: "0.7", currency: "ETH", mine: null });
    expect(text).not.toContain("0.3");
    expect(text.toLowerCase()).not.toContain(buyer.address.toLowerCase().slice(2));
    // The buyer's own offer comes back to them alone.
    expect((await summary(l.id, buyer)).mine).toMatchObject({ amount: "0.3", status: "open" });
    expect((await client().offers.listing[":id"].$get({ param: { id: "abc" } })).status).toBe(400);
    expect((await client().offers.listing[":id"].$get({ param: { id: "987654" } })).status).toBe(404);
  });

  it("a buyer sees only their own offers; the seller's list and the admin's are theirs alone", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const mine = await made(buyer, l.id, "0.3");
    const theirs = await made(other, l.id, "0.7");
    const list = (await (await client(buyer).offers.mine.$get()).json()) as MyOffersResponse;
    expect(list.offers.map((o) => o.id)).toContain(mine.id);
    expect(list.offers.map((o) => o.id)).not.toContain(theirs.id);
    expect((await client(buyer).offers.listing[":id"].all.$get({ param: { id: String(l.id) } })).status).toBe(403);
    const received = (await (await client(buyer).offers.received.$get()).json()) as ReceivedOffersResponse;
    expect(received.offers).toEqual([]);
    // Someone else's offer: not found, whatever the call.
    for (const res of [await withdraw(buyer, theirs.id), await accept(buyer, theirs.id), await decline(buyer, theirs.id)]) {
      expect(res.status).toBe(404);
    }
    expect((await offerRow(theirs.id))!.status).toBe("open");
    const anonymous = client().offers;
    for (const [path, res] of [
      ["mine", () => anonymous.mine.$get()],
      ["received", () => anonymous.received.$get()],
      ["listing/:id/all", () => anonymous.listing[":id"].all.$get({ param: { id: String(l.id) } })],
    ] as const) {
      expect((await res()).status, path).toBe(401);
    }
  });

  it("the seller sees a listing's open offers best first, with the buyers' wallets", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const third = await ethWallet();
    await made(buyer, l.id, "0.3");
    await made(other, l.id, "0.7");
    await made(third, l.id, "0.5");
    const res = (await (await client(seller).offers.listing[":id"].all.$get({ param: { id: String(l.id) } })).json()) as ReceivedOffersResponse;
    expect(res.offers.map((o) => o.amount)).toEqual(["0.7", "0.5", "0.3"]);
    expect(res.offers[0].buyerWallet).toBe(other.address.toLowerCase());
    const all = (await (await client(seller).offers.received.$get()).json()) as ReceivedOffersResponse;
    const here = all.offers.filter((o) => o.listingId === l.id).map((o) => o.amount);
    expect(here).toEqual(["0.7", "0.5", "0.3"]);
  });
});

describe("accepting", () => {
  it("reserves the listing for the offer's buyer at the offered price, fees recomputed, the usual window; pauses the others and tells the buyer", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const chosen = await made(buyer, l.id, "0.8");
    const lower = await made(other, l.id, "0.6");
    const before = Date.now();
    const res = await accept(seller, chosen.id);
    expect(res.status).toBe(201);
    const body = (await res.json()) as AcceptOfferResponse;
    expect(body.offer).toMatchObject({ id: chosen.id, status: "accepted", transactionId: body.transactionId });
    const p = (await purchaseRow(body.transactionId))!;
    const fees = await quoteFees(db(), readDeployment(env).ethereum, "ethereum", 80_000_000n);
    const total = fees.listingPrice + fees.exchangeFee + fees.commissionFee;
    expect(p).toMatchObject({
      buyer_id: buyer.userId,
      seller_id: seller.userId,
      buyer_wallet: buyer.address.toLowerCase(),
      price: "0.8",
      price_units: 80_000_000,
      status: "initiated",
      exchange_fee: unitsToDecimal(fees.exchangeFee),
      commission_fee: unitsToDecimal(fees.commissionFee),
      total_units: Number(total),
      total_amount: unitsToDecimal(total),
      // Counted against the buyer's network, not the seller's.
      client_network: clientNetwork(buyer.headers["cf-connecting-ip"]),
    });
    expect(p.expires_at as number).toBeGreaterThanOrEqual(before + RESERVATION_MINUTES * 60_000);
    expect(Date.parse(body.reservedUntil)).toBe(p.expires_at);
    expect((await offerRow(lower.id))!).toMatchObject({ status: "paused", end_reason: null });
    expect(await notes(buyer.userId, "offer_accepted")).toEqual([expect.objectContaining({ transactionId: body.transactionId, amount: "0.8" })]);
    // Paused is not an end: nothing is declined yet, so nothing is told.
    expect(await notes(other.userId, "offer_declined")).toEqual([]);
    // The buyer's purchase page reads it as their own open purchase; the seller cannot read it.
    const view = await client(buyer).transactions[":id"].$get({ param: { id: body.transactionId } });
    expect(view.status).toBe(200);
    expect(
      await rowCount("transaction_audit", "transaction_id = ? AND action = 'reserved' AND metadata LIKE ?", body.transactionId, `%"offerId":${chosen.id}%`),
    ).toBe(1);
    // The public listing now shows no open offers.
    expect(await summary(l.id)).toMatchObject({ count: 0, best: null });
  });

  it("only the seller or an admin accepts; a buyer who is not the seller gets 404", async () => {
    const l = await listWithKey(seller.userId);
    const o = await made(buyer, l.id, "0.1");
    expect((await accept(other, o.id)).status).toBe(404);
    expect((await accept(buyer, o.id)).status).toBe(404);
    expect((await accept(seller, 987_654)).status).toBe(404);
    expect((await client(seller).offers[":id"].accept.$post({ param: { id: "abc" } })).status).toBe(400);
    expect(await rowCount("transactions", "address_id = ?", l.id)).toBe(0);
  });

  it("accepting twice, racing: one reservation, one 201", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const a = await made(buyer, l.id, "0.8");
    const b = await made(other, l.id, "0.7");
    const results = await Promise.all([accept(seller, a.id), accept(seller, b.id), accept(seller, a.id)]);
    expect(results.map((r) => r.status).filter((s) => s === 201)).toHaveLength(1);
    for (const r of results) expect([201, 409]).toContain(r.status);
    expect(await rowCount("transactions", "address_id = ?", l.id)).toBe(1);
    expect(await rowCount("offers", "address_id = ? AND status = 'accepted'", l.id)).toBe(1);
  });

  it("the attack: the offer is withdrawn after the acceptance was planned; the write refuses and reserves nothing", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const o = await made(buyer, l.id, "0.5");
    const session: AuthSession = {
      userId: seller.userId,
      network: "ethereum",
      walletAddress: seller.address.toLowerCase(),
      isAdmin: true,
      expiresAt: Date.now() + HOUR,
    };
    const plan = await planAcceptance(db(), readDeployment(env), session, o.id);
    expect((await withdraw(buyer, o.id)).status).toBe(200);
    await expect(writeReservation(db(), plan, { ip: "127.0.0.1", userAgent: null })).rejects.toMatchObject({
      status: 409,
      message: "This offer is no longer open",
    });
    expect(await rowCount("transactions", "address_id = ?", l.id)).toBe(0);
    expect((await offerRow(o.id))!.status).toBe("withdrawn");
  });

  // The listing's own condition (forSale: the price as planned) refuses this too; the offer's ask check is the second lock.
  it("the attack: the price changes after the acceptance was planned; the write refuses", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const o = await made(buyer, l.id, "0.5");
    const session: AuthSession = {
      userId: seller.userId,
      network: "ethereum",
      walletAddress: seller.address.toLowerCase(),
      isAdmin: true,
      expiresAt: Date.now() + HOUR,
    };
    const plan = await planAcceptance(db(), readDeployment(env), session, o.id);
    const restoreTrigger = await keepTrigger("offers_end_on_listing_change");
    // Written straight to the table, past the trigger's expiry of the offer: the INSERT's own condition must hold.
    await env.DB.batch([
      env.DB.prepare("DROP TRIGGER offers_end_on_listing_change"),
      env.DB.prepare("UPDATE addresses SET price = '2', price_units = 200000000 WHERE id = ?").bind(l.id),
    ]);
    try {
      await expect(writeReservation(db(), plan, { ip: "127.0.0.1", userAgent: null })).rejects.toMatchObject({ status: 409 });
      expect(await rowCount("transactions", "address_id = ?", l.id)).toBe(0);
    } finally {
      await restoreTrigger();
    }
  });

  it("a listing reserved by another buyer at the ask: 409, the offer stays open", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const o = await made(buyer, l.id, "0.5");
    expect((await initiate(other, l.id)).status).toBe(201);
    const res = await accept(seller, o.id);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ message: "This listing is reserved by another buyer" });
    expect((await offerRow(o.id))!.status).toBe("open");
  });

  it("a buyer at their bound of open reservations: 409 saying so, the offer stays open", async () => {
    const listings = await Promise.all(Array.from({ length: MAX_OPEN_RESERVATIONS + 1 }, () => listWithKey(seller.userId, { price: "1" })));
    for (const l of listings.slice(0, MAX_OPEN_RESERVATIONS)) expect((await initiate(buyer, l.id)).status).toBe(201);
    const o = await made(buyer, listings[MAX_OPEN_RESERVATIONS].id, "0.5");
    const res = await accept(seller, o.id);
    expect(res.status).toBe(409);
    expect((await refusal(res)).message).toContain("The buyer already holds");
    expect((await offerRow(o.id))!.status).toBe("open");
  });
});

/** The trigger's own SQL as the migrations left it, and a function that creates it again (a test drops it). */
async function keepTrigger(name: string): Promise<() => Promise<void>> {
  const row = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?").bind(name).first<{ sql: string }>();
  if (!row) throw new Error(`no trigger ${name}`);
  return async () => {
    await env.DB.prepare(row.sql).run();
  };
}

// The bait: an offer one unit below the ask tops the seller's list; were accepting it to end every other offer, a buyer
// who never pays would clear a listing's offers for the price of a reservation that lapses.
describe("the bait: accepting one offer pauses the others until its sale completes", () => {
  const sellerList = async (id: number) =>
    ((await (await client(seller).offers.listing[":id"].all.$get({ param: { id: String(id) } })).json()) as ReceivedOffersResponse).offers;

  it("the others are paused while the bait is reserved, and open again when it expires or is cancelled unpaid", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const third = await ethWallet();
    const bait = await made(buyer, l.id, "0.99999999");
    const a = await made(other, l.id, "0.8");
    const b = await made(third, l.id, "0.7");
    const first = (await (await accept(seller, bait.id)).json()) as AcceptOfferResponse;
    for (const id of [a.id, b.id]) expect((await offerRow(id))!).toMatchObject({ status: "paused", end_reason: null });
    // The seller's list says where each offer stands.
    expect((await sellerList(l.id)).map((o) => [o.id, o.status])).toEqual([
      [bait.id, "accepted"],
      [a.id, "paused"],
      [b.id, "paused"],
    ]);
    // A paused offer holds its buyer's place: no second offer beside it, and it cannot be accepted or declined.
    expect((await offer(other, l.id, "0.9")).status).toBe(409);
    expect((await accept(seller, a.id)).status).toBe(409);
    expect((await decline(seller, a.id)).status).toBe(409);

    // The bait's reservation runs out unpaid: it lapses, and the others are open again, their terms unchanged.
    await expireReservations(db(), Date.now() + RESERVATION_MINUTES * 60_000 + 1000);
    expect((await purchaseRow(first.transactionId))!.status).toBe("expired");
    expect((await offerRow(bait.id))!).toMatchObject({ status: "lapsed", end_reason: "payment_lapsed" });
    for (const id of [a.id, b.id]) expect((await offerRow(id))!).toMatchObject({ status: "open", end_reason: null, amount: id === a.id ? "0.8" : "0.7" });
    expect((await sellerList(l.id)).map((o) => [o.id, o.status])).toEqual([
      [a.id, "open"],
      [b.id, "open"],
      [bait.id, "lapsed"],
    ]);
    await runOfferJob(db());
    expect(await notes(other.userId, "offer_declined")).toEqual([]);
    expect(await notes(third.userId, "offer_declined")).toEqual([]);
    expect(await summary(l.id)).toMatchObject({ count: 2, best: "0.8" });

    // Accepted again and cancelled by its buyer: the same.
    const second = (await (await accept(seller, a.id)).json()) as AcceptOfferResponse;
    expect((await offerRow(b.id))!.status).toBe("paused");
    expect((await client(other).transactions[":id"].cancel.$post({ param: { id: second.transactionId } })).status).toBe(200);
    expect((await offerRow(a.id))!.status).toBe("lapsed");
    expect((await offerRow(b.id))!).toMatchObject({ status: "open", end_reason: null });
    expect((await accept(seller, b.id)).status).toBe(201);
  });

  it("the sale completes: the paused offers are declined and their buyers told", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const chosen = await made(buyer, l.id, "0.9");
    const paused = await made(other, l.id, "0.8");
    const { transactionId } = (await (await accept(seller, chosen.id)).json()) as AcceptOfferResponse;
    await env.DB.prepare("UPDATE transactions SET status = 'completed' WHERE id = ?").bind(transactionId).run();
    expect((await offerRow(chosen.id))!).toMatchObject({ status: "completed" });
    expect((await offerRow(paused.id))!).toMatchObject({ status: "declined", end_reason: "other_accepted" });
    await runOfferJob(db());
    expect(await notes(other.userId, "offer_declined")).toEqual([expect.objectContaining({ reason: "other_accepted", amount: "0.8" })]);
  });

  it("a paused offer still ends with its time, a price change or its buyer's withdrawal", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const third = await ethWallet();
    const chosen = await made(buyer, l.id, "0.9");
    const short = await made(other, l.id, "0.8", { validForHours: 1 });
    const mine = await made(third, l.id, "0.7");
    await accept(seller, chosen.id);
    expect((await withdraw(third, mine.id)).status).toBe(200);
    expect((await offerRow(mine.id))!).toMatchObject({ status: "withdrawn" });
    await runOfferJob(db(), Date.now() + 2 * HOUR);
    expect((await offerRow(short.id))!).toMatchObject({ status: "expired", end_reason: "clock" });
    const l2 = await listWithKey(seller.userId, { price: "1" });
    const c = await made(buyer, l2.id, "0.9");
    const d = await made(other, l2.id, "0.8");
    await accept(seller, c.id);
    await env.DB.prepare("UPDATE addresses SET price = '2', price_units = 200000000 WHERE id = ?").bind(l2.id).run();
    expect((await offerRow(d.id))!).toMatchObject({ status: "expired", end_reason: "price_changed" });
  });

  it("paused offers count toward the bounds they held while open", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const ip = other.headers["cf-connecting-ip"];
    const chosen = await made(buyer, l.id, "0.9");
    await made(other, l.id, "0.8");
    const neighbour = await ethWallet();
    await made({ ...neighbour, headers: { ...neighbour.headers, "cf-connecting-ip": ip } }, l.id, "0.7");
    await accept(seller, chosen.id);
    // Two of the network's offers are paused on this listing: a third from it is over the bound per listing.
    const third = await ethWallet();
    const res = await offer({ ...third, headers: { ...third.headers, "cf-connecting-ip": ip } }, l.id, "0.6");
    expect(res.status).toBe(409);
  });

  it("no one accepts an offer they made, an admin on another admin's listing included", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    await env.DB.prepare("UPDATE users SET is_admin = 1 WHERE id = ?").bind(other.userId).run();
    try {
      const own = await made(other, l.id, "0.5");
      const res = await accept(other, own.id);
      expect(res.status).toBe(403);
      expect((await refusal(res)).message).toContain("your own offer");
      expect((await offerRow(own.id))!.status).toBe("open");
      expect(await rowCount("transactions", "address_id = ?", l.id)).toBe(0);
      // The listing's seller still may.
      expect((await accept(seller, own.id)).status).toBe(201);
    } finally {
      await env.DB.prepare("UPDATE users SET is_admin = 0 WHERE id = ?").bind(other.userId).run();
    }
  });
});

describe("declining and withdrawing", () => {
  it("the seller declines an open offer; its buyer is told; it cannot be accepted or declined again", async () => {
    const l = await listWithKey(seller.userId);
    const o = await made(buyer, l.id, "0.1");
    const res = await decline(seller, o.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: o.id, status: "declined", endReason: "seller" });
    expect(await notes(buyer.userId, "offer_declined")).toEqual([expect.objectContaining({ reason: "seller", amount: "0.1" })]);
    expect((await accept(seller, o.id)).status).toBe(409);
    expect((await decline(seller, o.id)).status).toBe(409);
    expect(await rowCount("transactions", "address_id = ?", l.id)).toBe(0);
  });

  it("the buyer withdraws their own open offer once; the seller cannot accept it after", async () => {
    const l = await listWithKey(seller.userId);
    const o = await made(buyer, l.id, "0.1");
    const res = await withdraw(buyer, o.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "withdrawn", endReason: "buyer" });
    expect((await withdraw(buyer, o.id)).status).toBe(409);
    expect((await accept(seller, o.id)).status).toBe(409);
    expect((await client(buyer).offers[":id"].$delete({ param: { id: "1.5" } })).status).toBe(400);
    expect((await withdraw(buyer, 987_654)).status).toBe(404);
  });
});

describe("how offers end", () => {
  it("a price change expires the listing's open offers; the cron job tells their buyers", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const o = await made(buyer, l.id, "0.5");
    expect((await client(seller).addresses[":id"].$patch({ param: { id: String(l.id) }, json: { price: "0.9" } })).status).toBe(200);
    expect((await offerRow(o.id))!).toMatchObject({ status: "expired", end_reason: "price_changed" });
    await runOfferJob(db());
    expect(await notes(buyer.userId, "offer_expired")).toEqual([expect.objectContaining({ reason: "price_changed" })]);
    // Told once.
    await runOfferJob(db());
    expect(await rowCount("notifications", "user_id = ? AND kind = 'offer_expired'", buyer.userId)).toBe(1);
  });

  it("an unlisting and a sale expire open offers", async () => {
    const a = await listWithKey(seller.userId);
    const b = await listWithKey(seller.userId);
    const oa = await made(buyer, a.id, "0.1");
    const ob = await made(buyer, b.id, "0.1");
    await env.DB.prepare("UPDATE addresses SET is_listed = 0 WHERE id = ?").bind(a.id).run();
    await env.DB.prepare("UPDATE addresses SET status = 'sold', is_listed = 0 WHERE id = ?").bind(b.id).run();
    expect((await offerRow(oa.id))!).toMatchObject({ status: "expired", end_reason: "unlisted" });
    expect((await offerRow(ob.id))!).toMatchObject({ status: "expired", end_reason: "sold" });
  });

  it("the clock: an open offer reads expired at once past its time, and the cron job ends it and tells its buyer", async () => {
    const l = await listWithKey(seller.userId);
    const o = await made(buyer, l.id, "0.1", { validForHours: 1 });
    const later = Date.now() + HOUR + 1000;
    expect((await runOfferJob(db(), Date.now())).expired).toBe(0);
    const report = await runOfferJob(db(), later);
    expect(report.expired).toBeGreaterThanOrEqual(1);
    expect((await offerRow(o.id))!).toMatchObject({ status: "expired", end_reason: "clock" });
    expect(await notes(buyer.userId, "offer_expired")).toEqual([expect.objectContaining({ reason: "clock" })]);
    // Its place is free: a new offer on the same listing.
    expect((await offer(buyer, l.id, "0.2")).status).toBe(201);
  });

  it("an accepted offer whose reservation lapses unpaid ends lapsed; the listing is for sale again; the buyer is told", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const o = await made(buyer, l.id, "0.5");
    const { transactionId } = (await (await accept(seller, o.id)).json()) as AcceptOfferResponse;
    await expireReservations(db(), Date.now() + RESERVATION_MINUTES * 60_000 + 1000);
    expect((await purchaseRow(transactionId))!.status).toBe("expired");
    expect((await offerRow(o.id))!).toMatchObject({ status: "lapsed", end_reason: "payment_lapsed" });
    await runOfferJob(db());
    expect(await notes(buyer.userId, "offer_expired")).toEqual([expect.objectContaining({ reason: "payment_lapsed" })]);
    expect((await initiate(other, l.id)).status).toBe(201);
  });

  it("a paid accepted offer ends completed", async () => {
    const l = await listWithKey(seller.userId, { price: "1" });
    const o = await made(buyer, l.id, "0.5");
    const { transactionId } = (await (await accept(seller, o.id)).json()) as AcceptOfferResponse;
    await env.DB.prepare("UPDATE transactions SET status = 'completed' WHERE id = ?").bind(transactionId).run();
    expect((await offerRow(o.id))!).toMatchObject({ status: "completed", end_reason: "paid", notified_status: "completed" });
  });

  it("ended offers are deleted after the retention period; open and accepted ones are kept", async () => {
    const l = await listWithKey(seller.userId);
    const ended = await made(buyer, l.id, "0.1");
    await withdraw(buyer, ended.id);
    const open = await made(other, l.id, "0.1", { validForHours: 720 });
    await runOfferJob(db(), Date.now() + 29 * 24 * HOUR);
    expect(await offerRow(ended.id)).not.toBeNull();
    await runOfferJob(db(), Date.now() + 91 * 24 * HOUR);
    expect(await offerRow(ended.id)).toBeNull();
    // The open one expired by the clock in that run, and is kept for its own 90 days.
    expect(await offerRow(open.id)).not.toBeNull();
  });
});
