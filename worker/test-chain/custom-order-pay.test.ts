// A custom order paid on a real chain (anvil): the buyer pays its hidden listing through the purchase
// machinery, settlement delivers the order, and the revealed offset completes the buyer's own key; a payment
// that arrives after the order expired is listed for refund and delivers nothing.
import { env } from "cloudflare:test";
import { privateKeyToAddress } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import type { CustomOrderView } from "../../schema/custom-orders";
import type { CreateTransactionResponse, PurchaseView } from "../../schema/purchases";
import { finalPrivateKey } from "../../schema/split-key";
import { runScheduledJobs } from "../jobs/scheduled";
import { foundOrder, payOrder } from "../test/custom-order-fixtures";
import { actors, purchaseRow, type Wallet } from "../test/purchase-fixtures";
import { amountOf, confirm, fundedBuyer, pay } from "./purchase-helpers";
import { client } from "../test/client";
import { REVEAL_BODY } from "../test/sealed-reveal";

let grinder: Wallet;
beforeAll(async () => {
  ({ seller: grinder } = await actors());
});

const one = (query: string, ...binds: unknown[]) =>
  env.DB.prepare(query)
    .bind(...binds)
    .first<Record<string, unknown>>();
const orderView = async (buyer: Wallet, id: number) =>
  (await (await client(buyer)["custom-orders"][":id"].$get({ param: { id: String(id) } })).json()) as CustomOrderView;

describe("paying a found order", () => {
  it("settles through the purchase machinery; the order is delivered and its offset completes the buyer's key", async () => {
    const buyer = await fundedBuyer();
    const f = await foundOrder(buyer, grinder, { prefix: "ab", suffix: "", caseSensitive: false }, 4);
    const paid = await payOrder(buyer, f.order.id);
    expect(paid.status).toBe(201);
    const { id } = (await paid.json()) as CreateTransactionResponse;
    const view = (await (await client(buyer).transactions[":id"].$get({ param: { id } })).json()) as PurchaseView;
    expect(view).toMatchObject({ customOrderId: f.order.id, address: f.order.address, price: f.order.price });

    const hash = await pay(buyer.account, await amountOf(buyer, id));
    const { body } = await confirm(buyer, id, hash);
    expect(body).toMatchObject({ success: true, status: "completed" });

    // Delivered in the settle batch: the offset and variant are the buyer's now, and complete the key.
    const order = await orderView(buyer, f.order.id);
    expect(order).toMatchObject({ status: "delivered", variant: 4, payment: { transactionId: id, status: "completed" } });
    expect(BigInt(order.offset!)).toBe(f.offset);
    const key = finalPrivateKey(f.secret, BigInt(order.offset!), order.variant!) as `0x${string}`;
    expect(privateKeyToAddress(key)).toBe(f.order.address);

    // No seller: the platform holds the whole payment; the listing leaves as inactive, never shown as sold.
    expect(await purchaseRow(id)).toMatchObject({ status: "completed", seller_id: null, tx_hash: hash });
    expect(await one("SELECT status, is_listed FROM addresses WHERE id = ?", f.listingId)).toEqual({ status: "inactive", is_listed: 0 });
    expect(await one("SELECT status, amount, attention_reason FROM escrow_transactions WHERE tx_hash = ?", hash)).toEqual({
      status: "released",
      amount: view.totalAmount,
      attention_reason: null,
    });

    // The purchase's own key endpoints point to the order page; nobody else learns of the order.
    const reveal = await client(buyer).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY });
    expect(reveal.status).toBe(409);
    expect(await reveal.text()).not.toContain(key.slice(2));
    expect((await client().addresses[":id"].$get({ param: { id: String(f.listingId) } })).status).toBe(404);
    expect(await (await client().transactions.recent.$get()).text()).not.toContain(id);
    // Paying again is refused: the order is delivered.
    expect((await payOrder(buyer, f.order.id)).status).toBe(409);
  });
});

describe("a payment after the order expired", () => {
  it("is recorded as late for refund; the order stays expired and its offset hidden; the address is offered to nobody", async () => {
    const buyer = await fundedBuyer();
    const f = await foundOrder(buyer, grinder, { prefix: "c", suffix: "", caseSensitive: false }, 0);
    const { id } = (await (await payOrder(buyer, f.order.id)).json()) as CreateTransactionResponse;
    const wei = await amountOf(buyer, id);
    const now = Date.now();
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?")
      .bind(now - 1, id)
      .run();
    await env.DB.prepare("UPDATE custom_orders SET payment_deadline = ? WHERE id = ?")
      .bind(now - 1, f.order.id)
      .run();
    // One run expires the lapsed reservation; the order, no longer with a purchase in progress, expires by the next.
    await runScheduledJobs(env);
    await runScheduledJobs(env);
    expect((await purchaseRow(id))!.status).toBe("expired");
    expect((await orderView(buyer, f.order.id)).status).toBe("expired");
    expect(await one("SELECT status FROM addresses WHERE id = ?", f.listingId)).toEqual({ status: "inactive" });

    const hash = await pay(buyer.account, wei);
    expect((await confirm(buyer, id, hash)).body).toMatchObject({ success: false, status: "expired" });
    expect(await one("SELECT status, attention_reason, refund_status FROM escrow_transactions WHERE tx_hash = ?", hash)).toEqual({
      status: "refund",
      attention_reason: "late",
      refund_status: "needed",
    });
    expect(await orderView(buyer, f.order.id)).toMatchObject({ status: "expired", offset: null, variant: null });
    expect((await payOrder(buyer, f.order.id)).status).toBe(409);
    const stranger = await fundedBuyer();
    expect((await client(stranger).transactions.initiate.$post({ json: { addressId: f.listingId, buyerId: stranger.address } })).status).toBe(409);
  });
});
