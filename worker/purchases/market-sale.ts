// "A market sale" in SQL, written once: schema/purchase-lifecycle.ts MARKET_SALE says what it is and why.
import { eq, type SQL, sql } from "drizzle-orm";
import type { transactions } from "../../schema/db";
import { MARKET_SALE } from "../../schema/purchase-lifecycle";
import { orderListing } from "../orders/order-listing";
import { statusIs } from "./status-sql";

/** In SQL: the purchase row `t` (the transactions table or an alias of it) is a market sale. */
export const marketSale = (t: Pick<typeof transactions, "status" | "isTestData" | "addressId">): SQL =>
  sql`${statusIs(t.status, MARKET_SALE.status)} AND ${eq(t.isTestData, MARKET_SALE.testData)} AND NOT ${orderListing(sql`${t.addressId}`)}`;
