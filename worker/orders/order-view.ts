// The two ways an order is shown: to its buyer (the offset only once delivered) and in the admin queue
// (everything the grinder needs, never the offset).
import type { CustomOrderView, GrinderProgress, OrderPayment, QueuedOrder } from "../../schema/custom-orders";
import type { customOrders } from "../../schema/db";

export type OrderRow = typeof customOrders.$inferSelect;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function progressOf(row: OrderRow): GrinderProgress {
  return row.progressAt === null ? null : { attempts: row.progressAttempts ?? 0, rate: row.progressRate ?? 0, at: new Date(row.progressAt).toISOString() };
}

export function toBuyerView(row: OrderRow, payment: OrderPayment | null = null): CustomOrderView {
  // The offset completes the buyer's key: before settlement it would hand over the address unpaid.
  const revealed = row.status === "delivered";
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
    progress: progressOf(row),
    address: row.foundAddress,
    paymentDeadline: iso(row.paymentDeadline),
  };
}
