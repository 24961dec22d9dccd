// The two ways an order is shown: to its buyer (the offset only once delivered) and in the admin queue
// (everything the grinder needs, never the offset).
import type { CustomOrderView, GrinderProgress, GrindersSeen, OrderPayment, QueuedOrder } from "../../schema/custom-orders";
import type { customOrders } from "../../schema/db";
import { orderTo } from "../../schema/order-lifecycle";

export type OrderRow = typeof customOrders.$inferSelect;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Attempts of every claim so far (earlier lapsed ones and the current one); the rate and time of the last report. */
function progressOf(row: OrderRow): GrinderProgress {
  if (row.progressAt === null) return null;
  return { attempts: row.attemptsBefore + (row.progressAttempts ?? 0), rate: row.progressRate ?? 0, at: new Date(row.progressAt).toISOString() };
}

/** What the buyer's view tells beyond the row: the grinders' state, the orders ahead in the queue. */
export type QueueContext = { grinders: GrindersSeen; queueAhead: number };
const NO_CONTEXT: QueueContext = { grinders: { online: 0, lastReportAt: null, fastestRate: null }, queueAhead: 0 };

export function toBuyerView(row: OrderRow, payment: OrderPayment | null = null, context: QueueContext = NO_CONTEXT): CustomOrderView {
  // The offset completes the buyer's key: before settlement it would hand over the address unpaid.
  const revealed = row.status === orderTo("deliver");
  return {
    id: row.id,
    status: row.status,
    prefix: row.prefix,
    suffix: row.suffix,
    caseSensitive: row.caseSensitive,
    difficultyBits: row.difficultyBits,
    expectedAttempts: (1n << BigInt(row.difficultyBits)).toString(),
    price: row.price,
    currency: "ETH",
    publicKey: row.publicKey,
    address: row.foundAddress,
    foundAt: iso(row.foundAt),
    paymentDeadline: iso(row.paymentDeadline),
    grindDeadline: iso(row.grindDeadline),
    queueAhead: row.status === orderTo("place") ? context.queueAhead : 0,
    grinders: context.grinders,
    offset: revealed ? row.foundOffset : null,
    variant: revealed ? row.foundVariant : null,
    progress: progressOf(row),
    createdAt: new Date(row.createdAt).toISOString(),
    payment,
  };
}

export function toQueuedOrder(row: OrderRow, now: number): QueuedOrder {
  return {
    id: row.id,
    status: row.status,
    prefix: row.prefix,
    suffix: row.suffix,
    caseSensitive: row.caseSensitive,
    publicKey: row.publicKey,
    difficultyBits: row.difficultyBits,
    expectedAttempts: (1n << BigInt(row.difficultyBits)).toString(),
    price: row.price,
    buyerWallet: row.buyerWallet,
    ageSeconds: Math.max(0, Math.floor((now - row.createdAt) / 1000)),
    createdAt: new Date(row.createdAt).toISOString(),
    takenAt: iso(row.takenAt),
    claim: row.status === orderTo("claim") && row.claimId !== null ? { grinder: row.claimId, expiresAt: iso(row.claimExpiresAt ?? now)! } : null,
    progress: progressOf(row),
    address: row.foundAddress,
    paymentDeadline: iso(row.paymentDeadline),
    grindDeadline: iso(row.grindDeadline),
  };
}
