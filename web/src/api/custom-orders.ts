// Custom-order calls (schema/custom-orders.ts). Keys start with the path, so placing or cancelling an order
// can invalidate every read under /api/custom-orders at once.
import { queryOptions } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import type { OrderPattern } from "../../../schema/custom-order-pattern";
import { api, read } from "./http";

export const ORDERS_KEY = "/api/custom-orders";
const order = api["custom-orders"][":id"];

export const orderQuoteQuery = (p: OrderPattern) =>
  queryOptions({
    queryKey: [ORDERS_KEY, "quote", p.prefix, p.suffix, p.caseSensitive],
    queryFn: () => read(api["custom-orders"].quote.$get({ query: { prefix: p.prefix, suffix: p.suffix, caseSensitive: p.caseSensitive ? "true" : "false" } })),
    staleTime: 60_000,
  });

/**
 * The buyer's order; polled while the grinder works so progress and the found address appear by themselves,
 * and fast while a payment confirms so the delivery (and the key card) follows settlement.
 */
export const customOrderQuery = (id: number) =>
  queryOptions({
    queryKey: [ORDERS_KEY, id],
    queryFn: () => read(order.$get({ param: { id: String(id) } })),
    refetchInterval: (q) => {
      const o = q.state.data;
      if (!o) return false;
      if (o.status === "found" && o.payment) return 3_000;
      return ["open", "grinding"].includes(o.status) ? 10_000 : false;
    },
  });

export const myOrdersQuery = (wallet: string) =>
  queryOptions({ queryKey: [ORDERS_KEY, "mine", wallet], queryFn: () => read(api["custom-orders"].mine.$get()) });

export const orderQueueQuery = (status: NonNullable<InferRequestType<(typeof api)["custom-orders"]["admin"]["queue"]["$get"]>["query"]["status"]>) =>
  queryOptions({
    queryKey: [ORDERS_KEY, "admin", "queue", status],
    queryFn: () => read(api["custom-orders"].admin.queue.$get({ query: { status } })),
    refetchInterval: 15_000,
  });

/** The body of POST /api/custom-orders, as the route validates it (schema/custom-orders.ts createOrderBody). */
export type PlaceOrderRequest = InferRequestType<(typeof api)["custom-orders"]["$post"]>["json"];

export const placeOrder = (body: PlaceOrderRequest) => read(api["custom-orders"].$post({ json: body }));
/** Reserves the found order's address for its buyer; the answer is the purchase to pay on /transaction/{id}. */
export const payOrder = (id: number) => read(order.pay.$post({ param: { id: String(id) } }));
export const cancelOrder = (id: number) => read(order.cancel.$post({ param: { id: String(id) } }));
