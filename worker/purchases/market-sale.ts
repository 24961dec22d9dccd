// "A market sale" in SQL, written once: schema/purchase-lifecycle.ts MARKET_SALE says what it is and why.
import { eq, type SQL, sql } from "drizzle-orm";
import type { transactions } from "../../schema/db";
import { MARKET_SALE } from "../../schema/purchase-lifecycle";
import { orderListing } from "../orders/order-listing";
import { statusIs } from "./status-sql";

/**
 * In SQL: the purchase row `t` was paid for real: settled and not test data, a custom order's payment included. What
 * makes its buyer a returning buyer (http/rate-limit.ts): the wallet paid a price and fees either way.
 */
export const paidPurchase = (t: Pick<typeof transactions, "status" | "isTestData">): SQL =>
  sql`${statusIs(t.status, MARKET_SALE.status)} AND ${eq(t.isTestData, MARKET_SALE.testData)}`;

/** In SQL: the purchase row `t` (the transactions table or an alias of it) is a market sale: paid, and not a custom order's. */
export const marketSale = (t: Pick<typeof transactions, "status" | "isTestData" | "addressId">): SQL =>
  sql`${paidPurchase(t)} AND NOT ${orderListing(sql`${t.addressId}`)}`;
