// One purchase as stored, read the same way by every purchase step.
import { eq, sql } from "drizzle-orm";
import { gasEstimationAudit, transactions } from "../../schema/db";
import type { PurchaseStatus } from "../../schema/purchase-lifecycle";
import { type Db, selected } from "../db/database";

const t = transactions;
const g = gasEstimationAudit;

/** The network fee estimated when the purchase was reserved (decimal text in its coin), or null: a column to select. */
export const gasEstimateColumn = () =>
  selected(sql<(typeof g.$inferSelect)["estimatedCost"]>`(SELECT ${g.estimatedCost} FROM ${g} WHERE ${g.transactionId} = ${t.id})`);
/** The columns every purchase step reads: a selection for drizzle's select() and returning(). */
export const purchaseColumns = {
  id: t.id,
  addressId: t.addressId,
  buyerId: t.buyerId,
  sellerId: t.sellerId,
  buyerWallet: t.buyerWallet,
  network: t.network,
  price: t.price,
  currency: t.currency,
  exchangeFee: t.exchangeFee,
  commissionFee: t.commissionFee,
  totalAmount: t.totalAmount,
  amountBaseUnits: t.amountBaseUnits,
  status: t.status,
  txHash: t.txHash,
  paymentReference: t.paymentReference,
  failureReason: t.failureReason,
  privateKeyDestroyed: t.privateKeyDestroyed,
  expiresAt: t.expiresAt,
  createdAt: t.createdAt,
  completedAt: t.completedAt,
  confirmations: t.confirmations,
  paymentBlock: t.paymentBlock,
  scanFromBlock: t.scanFromBlock,
  reservedBlock: t.reservedBlock,
  reportedAt: t.reportedAt,
};

export type PurchaseRow = Pick<typeof transactions.$inferSelect, keyof typeof purchaseColumns> & { status: PurchaseStatus };

export function findPurchase(db: Db, id: string): Promise<PurchaseRow | undefined> {
  return db.select(purchaseColumns).from(t).where(eq(t.id, id)).get();
}
