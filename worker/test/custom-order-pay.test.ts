// Paying a custom order through the purchase machinery, on the real Worker and D1: the
// hidden listing made when the offset is accepted, who may reserve it, POST /:id/pay, the public reads that
// must never show it, the purchase view and key endpoints for it, cancelling and the payment-deadline expiry
// against a purchase in progress. Settlement on a real chain is in worker/test-chain/custom-order-pay.test.ts.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { CustomOrderView } from "../../schema/custom-orders";
import type { NotificationsResponse } from "../../schema/collectors";
import type { AdminListingsResponse } from "../../schema/listings";
import type { CreateTransactionResponse, PurchasesResponse, PurchaseView } from "../../schema/purchases";
import { runCollectorJob } from "../collectors/notification-job";
import { createDb } from "../db/database";
import { runScheduledJobs } from "../jobs/scheduled";
import { insertListing } from "./browse-fixtures";
import { foundOrder, payOrder, placeOrder } from "./custom-order-fixtures";
import { actors, ethWallet, initiate, purchaseRow, type Wallet } from "./purchase-fixtures";
import { client, refusal } from "./client";
import { REVEAL_BODY } from "./sealed-reveal";

let admin: Wallet;
let other: Wallet;
beforeAll(async () => {
  ({ seller: admin, other } = await actors());
});

const one = <T = Record<string, unknown>>(query: string, ...binds: unknown[]) =>
  env.DB.prepare(query)
    .bind(...binds)
    .first<T>();
const count = async (table: string, where = "1", ...binds: unknown[]) =>
  (await one<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, ...binds))!.n;
/** Everything a refused call must leave as it was. */
const snapshot = async () =>
  JSON.stringify(
    await Promise.all(
      [
        env.DB.prepare("SELECT id, status, address_id, buyer_id, expires_at FROM transactions ORDER BY id").all(),
        env.DB.prepare("SELECT id, status, found_address, updated_at FROM custom_orders ORDER BY id").all(),
        env.DB.prepare("SELECT id, status, is_listed, updated_at FROM addresses ORDER BY id").all(),
        env.DB.prepare("SELECT count(*) FROM transaction_audit").all(),
      ].map((q) => q.then((r) => r.results)),
    ),
  );

describe("the accepted offset makes a hidden listing", () => {
  it("ethereum, no seller, no sealed key, the order's price, unlisted and active; linked to the order by its address", async () => {
    const buyer = await ethWallet();
    const f = await foundOrder(buyer, admin);
    expect(f.listingId).toBeGreaterThan(0);
    const listing = await one("SELECT address, network, seller_id, price, price_units, currency, is_listed, status FROM addresses WHERE id = ?", f.listingId);
    const order = await one<{ price: string; price_units: number }>("SELECT price, price_units FROM custom_orders WHERE id = ?", f.order.id);
    expect(listing).toEqual({
      address: f.order.address,
      network: "ethereum",
      seller_id: null,
      price: order!.price,
      price_units: order!.price_units,
      currency: "ETH",
      is_listed: 0,
      status: "active",
    });
    expect(await count("encrypted_keys", "address_id = ?", f.listingId)).toBe(0);
  });

  it("a refused submit (wrong offset) writes no listing", async () => {
    const buyer = await ethWallet();
    const { order } = await placeOrder(buyer, { prefix: "bcd", suffix: "", caseSensitive: false });
    await client(admin)["custom-orders"].admin[":id"].take.$post({ param: { id: String(order.id) }, json: {} });
    const before = await count("addresses");
    const bad = await client(admin)["custom-orders"].admin[":id"].submit.$post({
      param: { id: String(order.id) },
      json: { offset: `0x${"0".repeat(63)}1`, variant: 0 },
    });
    expect([400, 409]).toContain(bad.status);
    expect(await count("addresses")).toBe(before);
    expect(await one("SELECT found_address FROM custom_orders WHERE id = ?", order.id)).toEqual({ found_address: null });
  });
});

describe("never shown to anyone but the order's buyer and admins", () => {
  let buyer: Wallet;
  let f: Awaited<ReturnType<typeof foundOrder>>;
  let countsBefore: string;
  const listingCounts = async () => JSON.stringify((await env.DB.prepare("SELECT * FROM listing_counts ORDER BY 1, 2, 3, 4, 5").all()).results);
  beforeAll(async () => {
    buyer = await ethWallet();
    countsBefore = await listingCounts();
    f = await foundOrder(buyer, admin);
    // Even a featured flag (an admin's slip) must not surface it.
    await env.DB.prepare("UPDATE addresses SET is_featured = 1 WHERE id = ?").bind(f.listingId).run();
  });

  it("detail and context: 404 signed out and for another wallet; the buyer and admins see it", async () => {
    const param = { id: String(f.listingId) };
    for (const [path, read] of [
      ["/api/addresses/:id", (who?: Wallet) => client(who).addresses[":id"].$get({ param })],
      ["/api/addresses/:id/context", (who?: Wallet) => client(who).addresses[":id"].context.$get({ param })],
    ] as const) {
      expect((await read()).status, path).toBe(404);
      expect((await read(other)).status, path).toBe(404);
      expect((await read(buyer)).status, path).toBe(200);
      expect((await read(admin)).status, path).toBe(200);
    }
  });

  it("search (available or all, by its own address), featured, counts and recent transactions leave it out", async () => {
    const hex = f.order.address!.slice(2).toLowerCase();
    const api = client(other).addresses;
    for (const [path, read] of [
      ["search, all", () => api.search.$get({ query: { search: hex, excludeSold: "false" } })],
      ["search", () => api.search.$get({ query: { search: hex } })],
      ["search by prefix", () => api.search.$get({ query: { patternFilter: "prefix", patternValue: hex.slice(0, 8), excludeSold: "false" } })],
      ["search, 100", () => api.search.$get({ query: { excludeSold: "false", limit: "100" } })],
      ["featured", () => api.featured.$get({ query: {} })],
    ] as const) {
      const res = await read();
      expect(res.status, path).toBe(200);
      expect((await res.text()).toLowerCase(), path).not.toContain(hex);
    }
    expect(await listingCounts()).toBe(countsBefore);
    // Reserved and paid by its buyer (completed, the state the public recent list shows): still not listed.
    const paid = await payOrder(buyer, f.order.id);
    expect(paid.status).toBe(201);
    const paidId = ((await paid.json()) as CreateTransactionResponse).id;
    await env.DB.prepare("UPDATE transactions SET status = 'completed', tx_hash = ?, completed_at = ? WHERE id = ?")
      .bind(`0x${"cd".repeat(32)}`, Date.now(), paidId)
      .run();
    const recent = await (await client().transactions.recent.$get()).text();
    expect(recent.toLowerCase()).not.toContain(hex);
    // Nor the public activity page or a public sale page.
    const sales = await (await client().transactions.sales.$get({ query: { limit: "50" } })).text();
    expect(sales.toLowerCase()).not.toContain(hex);
    expect((await client().transactions.sales[":id"].$get({ param: { id: paidId } })).status).toBe(404);
  });
});

describe("reserving the hidden listing", () => {
  it("refused to every other wallet, admins included, through both purchase endpoints; nothing written", async () => {
    const buyer = await ethWallet();
    const f = await foundOrder(buyer, admin);
    const before = await snapshot();
    for (const w of [other, admin]) {
      const a = await initiate(w, f.listingId);
      expect(a.status).toBe(409);
      expect(await a.json()).toMatchObject({ message: "This listing is not available for purchase" });
      const b = await client(w).transactions.$post({ json: { addressId: f.listingId } });
      expect(b.status).toBe(409);
    }
    expect(await snapshot()).toBe(before);
  });

  it("the buyer may reserve it through the plain endpoint too, at the server's price, with no seller", async () => {
    const buyer = await ethWallet();
    const f = await foundOrder(buyer, admin);
    const res = await initiate(buyer, f.listingId);
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { transactionId: string }).transactionId;
    expect(await purchaseRow(id)).toMatchObject({
      address_id: f.listingId,
      buyer_id: buyer.userId,
      seller_id: null,
      price: f.order.price,
      status: "initiated",
    });
  });

  it("an ordinary unlisted listing stays refused to everyone", async () => {
    const buyer = await ethWallet();
    const row = await one<{ id: number }>(
      "INSERT INTO addresses (address, network, seller_id, price, price_units, currency, status, is_listed) VALUES ('0x00000000000000000000000000000000000000a1', 'ethereum', ?, '0.1', 10000000, 'ETH', 'active', 0) RETURNING id",
      admin.userId,
    );
    expect((await initiate(buyer, row!.id)).status).toBe(409);
  });
});

describe("POST /api/custom-orders/:id/pay", () => {
  it("the buyer gets the purchase (the reserve answer's shape); calling again returns the same open one", async () => {
    const buyer = await ethWallet();
    const f = await foundOrder(buyer, admin);
    const res = await payOrder(buyer, f.order.id);
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as CreateTransactionResponse;
    expect(body).toEqual({ id: body.id, transactionId: body.id, expiresAt: expect.any(String), feeCalculation: expect.any(Object) });
    expect(body.feeCalculation.listingPrice).toBe(f.order.price);
    expect(await purchaseRow(body.id)).toMatchObject({ address_id: f.listingId, buyer_id: buyer.userId, seller_id: null, status: "initiated" });

    const again = await payOrder(buyer, f.order.id, {});
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(body);
    expect(await count("transactions", "address_id = ?", f.listingId)).toBe(1);

    // The purchase page learns which order it pays.
    const view = (await (await client(buyer).transactions[":id"].$get({ param: { id: body.id } })).json()) as PurchaseView;
    expect(view).toMatchObject({ customOrderId: f.order.id, address: f.order.address, role: "buyer", status: "initiated" });

    // The order page and "My Orders" show the payment, for the purchase page link.
    const orderView = async () => (await (await client(buyer)["custom-orders"][":id"].$get({ param: { id: String(f.order.id) } })).json()) as CustomOrderView;
    expect((await orderView()).payment).toEqual({ transactionId: body.id, status: "initiated" });
    const mine = (await (await client(buyer)["custom-orders"].mine.$get()).json()) as { orders: CustomOrderView[] };
    expect(mine.orders.find((o) => o.id === f.order.id)!.payment).toEqual({ transactionId: body.id, status: "initiated" });

    // Once the reservation lapses unpaid, the order shows no payment, and paying again makes a fresh one.
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, body.id)
      .run();
    expect((await orderView()).payment).toBeNull();
    const fresh = await payOrder(buyer, f.order.id);
    expect(fresh.status).toBe(201);
    expect(((await fresh.json()) as CreateTransactionResponse).id).not.toBe(body.id);
    expect((await purchaseRow(body.id))!.status).toBe("expired");
    const freshId = (await (await client(buyer)["custom-orders"][":id"].$get({ param: { id: String(f.order.id) } })).json()) as CustomOrderView;
    expect(freshId.payment!.transactionId).not.toBe(body.id);
  });

  it("404 for another wallet and for admins, 401 signed out; nothing written", async () => {
    const buyer = await ethWallet();
    const f = await foundOrder(buyer, admin);
    const before = await snapshot();
    expect((await payOrder(other, f.order.id)).status).toBe(404);
    expect((await payOrder(admin, f.order.id)).status).toBe(404);
    expect((await payOrder(undefined, f.order.id)).status).toBe(401);
    expect((await payOrder(buyer, 999_999_999)).status).toBe(404);
    expect(await snapshot()).toBe(before);
  });

  it("409 unless found and before the deadline: open, past the deadline, cancelled, delivered", async () => {
    const buyer = await ethWallet();
    const { order: open } = await placeOrder(buyer, { prefix: "c", suffix: "", caseSensitive: false });
    let res = await payOrder(buyer, open.id);
    expect(res.status).toBe(409);
    expect((await refusal(res)).message).toMatch(/only a found order can be paid/);
    await client(buyer)["custom-orders"][":id"].cancel.$post({ param: { id: String(open.id) } });

    const late = await foundOrder(buyer, admin);
    await env.DB.prepare("UPDATE custom_orders SET payment_deadline = ? WHERE id = ?")
      .bind(Date.now() - 1, late.order.id)
      .run();
    const before = await snapshot();
    res = await payOrder(buyer, late.order.id);
    expect(res.status).toBe(409);
    expect((await refusal(res)).message).toMatch(/past its payment deadline/);
    // the plain purchase endpoint refuses it too
    expect((await initiate(buyer, late.listingId)).status).toBe(409);
    expect(await snapshot()).toBe(before);

    const cancelled = await foundOrder(buyer, admin);
    expect((await client(buyer)["custom-orders"][":id"].cancel.$post({ param: { id: String(cancelled.order.id) } })).status).toBe(200);
    expect((await payOrder(buyer, cancelled.order.id)).status).toBe(409);
    expect((await initiate(buyer, cancelled.listingId)).status).toBe(409);
    expect(await one("SELECT status FROM addresses WHERE id = ?", cancelled.listingId)).toEqual({ status: "inactive" });

    await env.DB.prepare("UPDATE custom_orders SET status = 'delivered' WHERE id = ?").bind(late.order.id).run();
    expect((await payOrder(buyer, late.order.id)).status).toBe(409);
  });

  it("hostile ids and bodies: 400, nothing written", async () => {
    const buyer = await ethWallet();
    const f = await foundOrder(buyer, admin);
    const before = await snapshot();
    for (const id of ["0", "007", "1".repeat(16), "-1", "1e3", "abc", "1%20", "%00", "1;DROP TABLE transactions"]) {
      const res = await payOrder(buyer, id);
      expect(res.status, id).toBe(400);
      expect(await res.json(), id).toMatchObject({ error: "Validation Error" });
    }
    for (const body of ["[]", "null", "1", '"pay"', "{", '{"addressId": 1}', '{"price": "0"}', '{"__proto__": {"x": 1}}', "not json"]) {
      const res = await payOrder(buyer, f.order.id, body);
      expect(res.status, body).toBe(400);
      expect(await res.json(), body).toMatchObject({ error: "Validation Error", message: "body: must be empty or {}" });
    }
    expect(await snapshot()).toBe(before);
  });
});

describe("the purchase's key endpoints for an order", () => {
  it("reveal and destroy answer 409 to the buyer (the key is completed on the order page), 404 to others; never 500", async () => {
    const buyer = await ethWallet();
    const f = await foundOrder(buyer, admin);
    const { id } = (await (await payOrder(buyer, f.order.id)).json()) as CreateTransactionResponse;
    await env.DB.prepare("UPDATE transactions SET status = 'completed', completed_at = ? WHERE id = ?").bind(Date.now(), id).run();
    const reveal = await client(buyer).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY });
    expect(reveal.status).toBe(409);
    expect((await refusal(reveal)).message).toContain(`/custom-orders/${f.order.id}`);
    expect((await client(buyer).transactions[":id"]["private-key"].$delete({ param: { id } })).status).toBe(409);
    expect((await client(other).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY })).status).toBe(404);
    expect((await client(other).transactions[":id"]["private-key"].$delete({ param: { id } })).status).toBe(404);
    expect(await purchaseRow(id)).toMatchObject({ private_key_destroyed: 0 });

    // The completed purchase is no public "recent sale" on a comparable listing's page.
    const twin = await one<{ id: number }>(
      `INSERT INTO addresses (address, network, seller_id, price, price_units, currency, category, pattern, pattern_length, status, is_listed)
       SELECT '0x00000000000000000000000000000000000000b2', network, ?, price, price_units, currency, category, pattern, pattern_length, 'active', 1
       FROM addresses WHERE id = ? RETURNING id`,
      admin.userId,
      f.listingId,
    );
    const context = await client(other).addresses[":id"].context.$get({ param: { id: String(twin!.id) } });
    expect(context.status).toBe(200);
    expect((await context.json()) as { recentSales: unknown[] }).toMatchObject({ recentSales: [] });
  });
});

describe("cancelling and the payment deadline against a purchase in progress", () => {
  it("the buyer cannot cancel while a purchase of the order is open", async () => {
    const buyer = await ethWallet();
    const f = await foundOrder(buyer, admin);
    const { id } = (await (await payOrder(buyer, f.order.id)).json()) as CreateTransactionResponse;
    const res = await client(buyer)["custom-orders"][":id"].cancel.$post({ param: { id: String(f.order.id) } });
    expect(res.status).toBe(409);
    expect((await refusal(res)).message).toMatch(/payment for this order is in progress/);
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?")
      .bind(`0x${"ab".repeat(32)}`, id)
      .run();
    expect((await client(buyer)["custom-orders"][":id"].cancel.$post({ param: { id: String(f.order.id) } })).status).toBe(409);
    expect(await one("SELECT status FROM custom_orders WHERE id = ?", f.order.id)).toEqual({ status: "found" });
  });

  it("the cron skips an order past its deadline while its purchase is in progress; then expires it and retires the listing", async () => {
    const buyer = await ethWallet();
    const f = await foundOrder(buyer, admin);
    const { id } = (await (await payOrder(buyer, f.order.id)).json()) as CreateTransactionResponse;
    const now = Date.now();
    await env.DB.prepare("UPDATE custom_orders SET payment_deadline = ? WHERE id = ?")
      .bind(now - 1, f.order.id)
      .run();
    for (const status of ["initiated", "pending"]) {
      await env.DB.prepare("UPDATE transactions SET status = ?, expires_at = ? WHERE id = ?")
        .bind(status, now + 600_000, id)
        .run();
      await runScheduledJobs(env, now);
      expect(await one("SELECT status FROM custom_orders WHERE id = ?", f.order.id), status).toEqual({ status: "found" });
      expect(await one("SELECT status FROM addresses WHERE id = ?", f.listingId), status).toEqual({ status: "active" });
    }
    // The payment failed: nothing is in progress any more, so the order expires and its listing leaves for good.
    await env.DB.prepare("UPDATE transactions SET status = 'failed' WHERE id = ?").bind(id).run();
    await runScheduledJobs(env, now);
    expect(await one("SELECT status FROM custom_orders WHERE id = ?", f.order.id)).toEqual({ status: "expired" });
    expect(await one("SELECT status, is_listed FROM addresses WHERE id = ?", f.listingId)).toEqual({ status: "inactive", is_listed: 0 });
    expect((await payOrder(buyer, f.order.id)).status).toBe(409);
    expect((await initiate(buyer, f.listingId)).status).toBe(409);
    expect((await initiate(other, f.listingId)).status).toBe(409);
    const view = (await (await client(buyer)["custom-orders"][":id"].$get({ param: { id: String(f.order.id) } })).json()) as CustomOrderView;
    expect(view).toMatchObject({ status: "expired", offset: null, variant: null });
  });

  it("a reservation cannot be made for an order that expired after the buyer's request was checked", async () => {
    // The order's state is part of the reservation's INSERT. The cron winning the race is simulated inside the
    // reservation's own batch: its first statement expires the buyer's lapsed reservation, and a trigger on
    // that expires the order before the INSERT runs.
    const buyer = await ethWallet();
    const f = await foundOrder(buyer, admin);
    const { id: lapsed } = (await (await payOrder(buyer, f.order.id)).json()) as CreateTransactionResponse;
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, lapsed)
      .run();
    await env.DB.prepare(
      `CREATE TRIGGER expire_order_in_race AFTER UPDATE OF status ON transactions WHEN NEW.id = '${lapsed}' AND NEW.status = 'expired'
       BEGIN UPDATE custom_orders SET status = 'expired' WHERE id = ${f.order.id}; END`,
    ).run();
    try {
      const res = await payOrder(buyer, f.order.id);
      expect(res.status).toBe(409);
      expect((await refusal(res)).message).toMatch(/is expired; it can no longer be paid/);
    } finally {
      await env.DB.prepare("DROP TRIGGER expire_order_in_race").run();
    }
    expect(await count("transactions", "address_id = ? AND status IN ('initiated', 'pending', 'verified')", f.listingId)).toBe(0);
  });
});

describe("the API marks a paid custom order as its buyer's key, not the store's", () => {
  it("My Purchases carries customOrderId, Admin > Listings the order and its status, and the buyer's notification says they hold the key", async () => {
    const buyer = await ethWallet();
    const f = await foundOrder(buyer, admin);
    const { id } = (await (await payOrder(buyer, f.order.id)).json()) as CreateTransactionResponse;
    // Settled as the settle batch leaves it: the purchase completed, the order delivered, the listing retired.
    await env.DB.batch([
      env.DB.prepare("UPDATE transactions SET status = 'completed', completed_at = ? WHERE id = ?").bind(Date.now(), id),
      env.DB.prepare("UPDATE custom_orders SET status = 'delivered' WHERE id = ?").bind(f.order.id),
      env.DB.prepare("UPDATE addresses SET status = 'inactive' WHERE id = ?").bind(f.listingId),
    ]);

    const mine = (await (await client(buyer).transactions.purchases.$get({ query: {} })).json()) as PurchasesResponse;
    expect(mine.purchases.find((p) => p.id === id)).toMatchObject({ customOrderId: f.order.id, status: "completed" });

    const hex = f.order.address!.slice(2).toLowerCase();
    const listed = (await (await client(admin).admin.addresses.$get({ query: { search: hex } })).json()) as AdminListingsResponse;
    expect(listed.addresses.find((l) => l.id === f.listingId)).toMatchObject({ status: "inactive", customOrder: { id: f.order.id, status: "delivered" } });

    await runCollectorJob(createDb(env.DB));
    const inbox = (await (await client(buyer).notifications.$get({ query: { limit: "50" } })).json()) as NotificationsResponse;
    const done = inbox.notifications.find((n) => n.kind === "purchase_completed");
    expect(done).toMatchObject({ href: `/custom-orders/${f.order.id}` });
    expect(done!.body).toContain("You hold this key (made in your browser)");
    expect(done!.body).not.toContain("yours to reveal");
  });

  it("an ordinary inactive listing is not marked (it keeps its status action)", async () => {
    const address = `0x${"ce".repeat(20)}`;
    const listingId = await insertListing({ address, sellerId: admin.userId, status: "inactive" });
    const listed = (await (await client(admin).admin.addresses.$get({ query: { search: address.slice(2) } })).json()) as AdminListingsResponse;
    expect(listed.addresses.find((l) => l.id === listingId)).toMatchObject({ status: "inactive", customOrder: null });
  });
});

describe("admins cannot list an order's address for anyone else", () => {
  it("activating it one by one is 409 with the reason, in bulk it is skipped as a custom order; it stays unlisted and out of search", async () => {
    const buyer = await ethWallet();
    const f = await foundOrder(buyer, admin);
    // Retired first (as expiry or cancelling leaves it), so that activating would list it again.
    await env.DB.prepare("UPDATE addresses SET status = 'inactive' WHERE id = ?").bind(f.listingId).run();
    const before = await snapshot();

    const one = await client(admin).admin.addresses[":id"].$put({ param: { id: String(f.listingId) }, json: { status: "active" } });
    expect(one.status).toBe(409);
    expect((await refusal(one)).message).toMatch(/custom order/);
    expect(await snapshot()).toBe(before);

    const bulk = await client(admin).admin.addresses["bulk-status"].$put({ json: { listingIds: [f.listingId], status: "active" } });
    expect(bulk.status).toBe(200);
    expect(await bulk.json()).toMatchObject({ updated: 0, skipped: [{ id: f.listingId, reason: "custom order" }] });
    expect(await snapshot()).toBe(before);

    const hex = f.order.address!.slice(2).toLowerCase();
    const search = await client(other).addresses.search.$get({ query: { search: hex, excludeSold: "false" } });
    expect((await search.text()).toLowerCase()).not.toContain(hex);
  });
});
