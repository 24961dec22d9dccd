// Placing an order: the server's quote, never the client's; at most MAX_UNFINISHED_ORDERS waiting per buyer,
// counted inside the INSERT so parallel requests cannot pass the cap together.
import { CUSTOM_ORDER_GRIND_HOURS, MAX_UNFINISHED_ORDERS } from "../../schema/custom-orders";
import { orderPatternProblems, type OrderPattern } from "../../schema/custom-order-pattern";
import { parsePublicKey, SplitKeyError } from "../../schema/split-key";
import type { AuthSession } from "../auth/session";
import { sql } from "drizzle-orm";
import { customOrders } from "../../schema/db";
import { bare, columnList, type Db } from "../db/database";
import { quoteOrder, type QuoteConfig } from "../domain/custom-orders/quote";
import { decimalToUnits, unitsToNumber } from "../../schema/money";
import { ApiError } from "../http/errors";
import { ORDER_UNFINISHED } from "../../schema/order-lifecycle";
import { orderStatusAfter, orderStatusIn } from "./status-sql";

export type PlaceOrderInput = OrderPattern & { publicKey: string; price: string };

/** Validates the pattern and quote; 400 with the reason for a malformed or too hard pattern. */
export function checkedQuote(pattern: OrderPattern, config: QuoteConfig) {
  const problems = orderPatternProblems(pattern);
  if (problems.length) throw new ApiError(400, `pattern: ${problems.join("; ")}`);
  const quote = quoteOrder(pattern, config);
  if (quote.refusal) throw new ApiError(400, `pattern: ${quote.refusal}`);
  return quote;
}

export async function placeOrder(db: Db, session: AuthSession, input: PlaceOrderInput, config: QuoteConfig, now: number): Promise<number> {
  if (session.network !== "ethereum") {
    throw new ApiError(403, "Custom orders are for Ethereum wallets: Solana keys cannot be split (the scalar comes from a hash of the seed)");
  }
  const quote = checkedQuote(input, config);
  let publicKey: string;
  try {
    publicKey = "0x" + parsePublicKey(input.publicKey).toHex(true);
  } catch (e) {
    if (e instanceof SplitKeyError) throw new ApiError(400, e.message);
    throw e;
  }
  if (decimalToUnits(input.price) !== quote.priceUnits) {
    throw new ApiError(409, `The price for this pattern is now ${quote.price} ETH; review it and order again`, { currentPrice: quote.price });
  }
  const co = customOrders;
  const row = await db.get<Pick<typeof co.$inferSelect, "id">>(
    sql`INSERT INTO ${co} ${columnList(co.buyerId, co.buyerWallet, co.publicKey, co.prefix, co.suffix, co.caseSensitive, co.difficultyBits, co.price, co.priceUnits, co.currency, co.status, co.grindDeadline, co.createdAt, co.updatedAt)}
        SELECT ${session.userId}, ${session.walletAddress.toLowerCase()}, ${publicKey}, ${input.prefix}, ${input.suffix}, ${input.caseSensitive ? 1 : 0},
               ${quote.difficultyBits}, ${quote.price}, ${unitsToNumber(quote.priceUnits)}, 'ETH', ${orderStatusAfter("place")}, ${now + CUSTOM_ORDER_GRIND_HOURS * 3600_000}, ${now}, ${now}
        WHERE (SELECT count(*) FROM ${co} WHERE ${co.buyerId} = ${session.userId} AND ${orderStatusIn(co.status, ORDER_UNFINISHED)}) < ${MAX_UNFINISHED_ORDERS}
        RETURNING ${bare(co.id)}`,
  );
  if (!row) throw new ApiError(409, `You already have ${MAX_UNFINISHED_ORDERS} orders waiting; pay for or cancel one first`);
  return row.id;
}
