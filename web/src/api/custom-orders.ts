// Custom-order calls (schema/custom-orders.ts). Keys start with the path, so placing or cancelling an order
// can invalidate every read under /api/custom-orders at once.
import { queryOptions } from "@tanstack/react-query";
import type { CustomOrderList, CustomOrderQuote, CustomOrderView, OrderQueue } from "../../../schema/custom-orders";
import type { OrderPattern } from "../../../schema/custom-order-pattern";
import type { CreateTransactionResponse } from "../../../schema/purchases";
import { request } from "./http";

export const ORDERS_KEY = "/api/custom-orders";

export const orderQuoteQuery = (p: OrderPattern) =>
  queryOptions({
    queryKey: [ORDERS_KEY, "quote", p.prefix, p.suffix, p.caseSensitive],
    queryFn: () => {
      const q = new URLSearchParams({ prefix: p.prefix, suffix: p.suffix, caseSensitive: String(p.caseSensitive) });
      return request<CustomOrderQuote>("GET", `${ORDERS_KEY}/quote?${q}`);
    },
    staleTime: 60_000,
  });

/**
 * The buyer's order; polled while the grinder works so progress and the found address appear by themselves,
 * and fast while a payment confirms so the delivery (and the key card) follows settlement.
 */
export const customOrderQuery = (id: number) =>
  queryOptions({
    queryKey: [ORDERS_KEY, id],
    queryFn: () => request<CustomOrderView>("GET", `${ORDERS_KEY}/${id}`),
    refetchInterval: (q) => {
      const o = q.state.data;
      if (!o) return false;
      if (o.status === "found" && o.payment) return 3_000;
      return ["open", "grinding"].includes(o.status) ? 10_000 : false;
    },
  });

export const myOrdersQuery = (wallet: string) =>
  queryOptions({ queryKey: [ORDERS_KEY, "mine", wallet], queryFn: () => request<CustomOrderList>("GET", `${ORDERS_KEY}/mine`) });

export const orderQueueQuery = (status: string) =>
  queryOptions({
    queryKey: [ORDERS_KEY, "admin", "queue", status],
    queryFn: () => request<OrderQueue>("GET", `${ORDERS_KEY}/admin/queue?status=${encodeURIComponent(status)}`),
    refetchInterval: 15_000,
  });

export type PlaceOrderRequest = OrderPattern & { publicKey: string; price: string };

export const placeOrder = (body: PlaceOrderRequest) => request<CustomOrderView>("POST", ORDERS_KEY, body);
/** Reserves the found order's address for its buyer; the answer is the purchase to pay on /transaction/{id}. */
export const payOrder = (id: number) => request<CreateTransactionResponse>("POST", `${ORDERS_KEY}/${id}/pay`, {});
export const cancelOrder = (id: number) => request<CustomOrderView>("POST", `${ORDERS_KEY}/${id}/cancel`, {});
