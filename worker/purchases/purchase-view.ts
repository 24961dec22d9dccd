// GET /api/transactions/:id and the buyer's "My Purchases" list. A purchase is shown to its buyer, its
// seller and admins only; to anyone else it does not exist (404). Never any key material.
import { count, desc, eq } from "drizzle-orm";
import { addresses, transactions } from "../../schema/db";
import { isIn, PAYABLE, SOLD } from "../../schema/purchase-lifecycle";
import type { PurchasesResponse, PurchaseView } from "../../schema/purchases";
import type { AuthSession } from "../auth/middleware";
import { paymentVerifier } from "../chain/payment-verifier";
import type { Deployment } from "../deployment/deployment";
import type { Db } from "../db/database";
import { lastDeadline, paymentDeadline } from "../domain/payment-decision";
import { ApiError } from "../http/errors";
import { rarityString } from "../listings/listing-view";
import { orderIdOfListing } from "../orders/order-listing";
import { gasEstimateColumn, purchaseColumns } from "./purchase-row";

const t = transactions;
const a = addresses;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function purchaseView(db: Db, deployment: Deployment, session: AuthSession, id: string): Promise<PurchaseView> {
  const row = await db
    .select({
      ...purchaseColumns,
      address: a.address,
      rarityScore: a.rarityScore,
      pattern: a.pattern,
      category: a.category,
      customOrderId: orderIdOfListing,
      gasEstimate: gasEstimateColumn(),
    })
    .from(t)
    .innerJoin(a, eq(a.id, t.addressId))
    .where(eq(t.id, id))
    .get();
  const role = !row ? null : row.buyerId === session.userId ? "buyer" : row.sellerId === session.userId ? "seller" : session.isAdmin ? "admin" : null;
  if (!row || !role) throw new ApiError(404, "Transaction not found");
  // A view: amounts, the explorer link and the required depth; nothing is decided here.
  const verifier = paymentVerifier(deployment, row.network, null);
  const settled = isIn(SOLD, row.status);
  const waiting = isIn(PAYABLE, row.status) && row.expiresAt !== null;
  return {
    id: row.id,
    status: row.status,
    failureReason: row.failureReason,
    address: row.address,
    addressId: row.addressId,
    network: row.network,
    price: row.price,
    currency: row.currency,
    exchangeFee: row.exchangeFee,
    commissionFee: row.commissionFee,
    totalAmount: row.totalAmount,
    networkFeeEstimate: row.gasEstimate,
    amountBaseUnits: row.amountBaseUnits ?? "0",
    recipient: verifier.recipient,
    chainId: row.network === "ethereum" ? (deployment.ethereum.chainId ?? Number.NaN) : null,
    paymentReference: row.paymentReference,
    txHash: row.txHash,
    blockchainTxHash: settled ? row.txHash : null,
    confirmations: row.confirmations,
    requiredConfirmations: verifier.requiredConfirmations,
    expiresAt: iso(row.expiresAt),
    paymentDeadline: waiting ? iso(paymentDeadline(row.expiresAt!)) : null,
    lastDeadline: waiting ? iso(lastDeadline(row.expiresAt!)) : null,
    paymentReportedAt: row.txHash === null ? null : iso(row.reportedAt),
    createdAt: new Date(row.createdAt).toISOString(),
    completedAt: iso(row.completedAt),
    privateKeyDestroyed: row.privateKeyDestroyed,
    role,
    adminMayClose: session.isAdmin && waiting,
    rarityScore: rarityString(row.rarityScore),
    pattern: row.pattern,
    category: row.category,
    customOrderId: row.customOrderId,
  };
}

/** The session's own purchases, newest first, paged. */
export async function listPurchases(db: Db, userId: number, page: number, limit: number): Promise<PurchasesResponse> {
  const [rows, counted] = await Promise.all([
    db
      .select({
        id: t.id,
        status: t.status,
        failureReason: t.failureReason,
        price: t.price,
        currency: t.currency,
        network: t.network,
        totalAmount: t.totalAmount,
        createdAt: t.createdAt,
        completedAt: t.completedAt,
        privateKeyDestroyed: t.privateKeyDestroyed,
        addressId: a.id,
        address: a.address,
        rarityScore: a.rarityScore,
        customOrderId: orderIdOfListing,
      })
      .from(t)
      .innerJoin(a, eq(a.id, t.addressId))
      .where(eq(t.buyerId, userId))
      .orderBy(desc(t.createdAt), desc(t.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(t).where(eq(t.buyerId, userId)).get(),
  ]);
  const total = Number(counted?.n ?? 0);
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return {
    purchases: rows.map((r) => ({
      id: r.id,
      status: r.status,
      failureReason: r.failureReason,
      price: r.price,
      currency: r.currency,
      network: r.network,
      totalAmount: r.totalAmount,
      createdAt: new Date(r.createdAt).toISOString(),
      completedAt: iso(r.completedAt),
      privateKeyDestroyed: r.privateKeyDestroyed,
      address: { id: r.addressId, address: r.address, network: r.network, rarityScore: rarityString(r.rarityScore) },
      customOrderId: r.customOrderId,
    })),
    pagination: { page, totalPages, total, hasPrevPage: page > 1, hasNextPage: page < totalPages },
  };
}
