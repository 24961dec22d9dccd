// Custom orders brought to `found` the way the real grinder does it (take, search offsets from A, submit),
// for the worker and chain tests of paying and delivering an order.
import { env } from "cloudflare:test";
import type { CustomOrderQuote, CustomOrderView } from "../../schema/custom-orders";
import { addressMatchesOrder, type OrderPattern } from "../../schema/custom-order-pattern";
import { CURVE_ORDER, orderAddress, publicKeyOf, randomSecret, scalarToHex } from "../../schema/split-key";
import type { Wallet } from "./purchase-fixtures";
import { client } from "./client";

/** Finds an offset the way the grinder would, for a short pattern (a few dozen tries). */
export function findOffset(publicKey: string, pattern: OrderPattern, variant = 0): bigint {
  let k = randomSecret() % (CURVE_ORDER - 100_000n);
  for (let i = 0; i < 100_000; i++, k++) if (addressMatchesOrder(pattern, orderAddress(publicKey, k, variant))) return k;
  throw new Error("no offset found");
}

export async function placeOrder(buyer: Wallet, pattern: OrderPattern, secret = randomSecret()): Promise<{ order: CustomOrderView; secret: bigint }> {
  const q = (await (
    await client()["custom-orders"].quote.$get({
      query: { prefix: pattern.prefix, suffix: pattern.suffix, caseSensitive: pattern.caseSensitive ? "true" : "false" },
    })
  ).json()) as CustomOrderQuote;
  const res = await client(buyer)["custom-orders"].$post({ json: { ...pattern, publicKey: publicKeyOf(secret), price: q.price } });
  if (res.status !== 201) throw new Error(`place: ${res.status} ${await res.text()}`);
  return { order: (await res.json()) as CustomOrderView, secret };
}

export type FoundOrder = { order: CustomOrderView; secret: bigint; offset: bigint; variant: number; listingId: number };

/** Places an order for `buyer`, and the admin (the grinder) takes it and submits a matching offset. */
export async function foundOrder(
  buyer: Wallet,
  grinder: Wallet,
  pattern: OrderPattern = { prefix: "a", suffix: "", caseSensitive: false },
  variant = 2,
): Promise<FoundOrder> {
  const { order, secret } = await placeOrder(buyer, pattern);
  const take = await client(grinder)["custom-orders"].admin[":id"].take.$post({ param: { id: String(order.id) }, json: {} });
  if (take.status !== 200) throw new Error(`take: ${take.status} ${await take.text()}`);
  const offset = findOffset(order.publicKey, pattern, variant);
  const submit = await client(grinder)["custom-orders"].admin[":id"].submit.$post({
    param: { id: String(order.id) },
    json: { offset: scalarToHex(offset), variant },
  });
  if (submit.status !== 200) throw new Error(`submit: ${submit.status} ${await submit.text()}`);
  const row = await env.DB.prepare("SELECT a.id AS listing_id FROM custom_orders co JOIN addresses a ON a.address = co.found_address WHERE co.id = ?")
    .bind(order.id)
    .first<{ listing_id: number }>();
  const view = (await (await client(buyer)["custom-orders"][":id"].$get({ param: { id: String(order.id) } })).json()) as CustomOrderView;
  return { order: view, secret, offset, variant, listingId: row!.listing_id };
}

/** POST /api/custom-orders/:id/pay as `wallet`. */
export function payOrder(wallet: Wallet | undefined, id: number | string, body?: unknown, headers: Record<string, string> = {}) {
  const route = client(wallet, headers)["custom-orders"][":id"].pay;
  if (body === undefined) return route.$post({ param: { id: String(id) } });
  // The route takes no body; a test that sends one anyway passes it through the client's raw init.
  return route.$post({ param: { id: String(id) } }, { headers: { "content-type": "application/json" }, init: { body: JSON.stringify(body) } });
}
