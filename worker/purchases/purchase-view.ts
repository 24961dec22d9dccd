// GET /api/transactions/:id and the buyer's "My Purchases" list. A purchase is shown to its buyer, its
// seller and admins only; to anyone else it does not exist (404). Never any key material.
import { sql } from "drizzle-orm";
import { type PurchaseListItem, type PurchasesResponse, type PurchaseView } from "../../schema/purchases";
import type { AuthSession } from "../auth/middleware";
import { paymentVerifier, type VerifierEnv } from "../chain/payment-verifier";
import type { Db } from "../db";
import { ApiError } from "../http/errors";
import { rarityString } from "../listings/listing-view";
import { PURCHASE_COLUMNS, type PurchaseRow } from "./purchase-row";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

type ViewRow = PurchaseRow & { address: string; rarity_score: number; pattern: string | null; category: string | null; custom_order_id: number | null };

export async function purchaseView(db: Db, env: VerifierEnv & Pick<Env, "ETH_CHAIN_ID">, session: AuthSession, id: string): Promise<PurchaseView> {
  const row = await db.get<ViewRow>(sql`
    SELECT ${PURCHASE_COLUMNS}, a.address, a.rarity_score, a.pattern, a.category,
           (SELECT co.id FROM custom_orders co WHERE co.found_address = a.address) AS custom_order_id
    FROM transactions t JOIN addresses a ON a.id = t.address_id WHERE t.id = ${id}`);
  const role = !row ? null : row.buyer_id === session.userId ? "buyer" : row.seller_id === session.userId ? "seller" : session.isAdmin ? "admin" : null;
  if (!row || !role) throw new ApiError(404, "Transaction not found");
  const verifier = paymentVerifier(env, row.network);
  const settled = row.status === "completed" || row.status === "verified";
  return {
    id: row.id,
    status: row.status,
    failureReason: row.failure_reason,
    address: row.address,
    addressId: row.address_id,
    network: row.network,
    price: row.price,
    currency: row.currency,
    exchangeFee: row.exchange_fee,
    commissionFee: row.commission_fee,
    totalAmount: row.total_amount,
    amountBaseUnits: row.amount_base_units ?? "0",
    recipient: verifier.recipient,
    chainId: row.network === "ethereum" ? Number(env.ETH_CHAIN_ID) : null,
    paymentReference: row.payment_reference,
    txHash: row.tx_hash,
    blockchainTxHash: settled ? row.tx_hash : null,
    confirmations: row.confirmations,
    requiredConfirmations: verifier.requiredConfirmations,
    expiresAt: iso(row.expires_at),
    createdAt: new Date(row.created_at).toISOString(),
    completedAt: iso(row.completed_at),
    privateKeyDestroyed: Boolean(row.private_key_destroyed),
    role,
    rarityScore: rarityString(row.rarity_score),
    pattern: row.pattern,
    category: row.category,
    customOrderId: row.custom_order_id,
  };
}

type ListRow = {
  id: string;
  status: PurchaseListItem["status"];
  price: string;
  currency: "ETH" | "SOL";
  network: PurchaseListItem["network"];
  total_amount: string;
  created_at: number;
  completed_at: number | null;
  private_key_destroyed: number;
  address_id: number;
  address: string;
  rarity_score: number;
};

/** The session's own purchases, newest first, paged. */
export async function listPurchases(db: Db, userId: number, page: number, limit: number): Promise<PurchasesResponse> {
  const [rows, count] = await Promise.all([
    db.all<ListRow>(sql`
      SELECT t.id, t.status, t.price, t.currency, t.network, t.total_amount, t.created_at, t.completed_at, t.private_key_destroyed,
             a.id AS address_id, a.address, a.rarity_score
      FROM transactions t JOIN addresses a ON a.id = t.address_id
      WHERE t.buyer_id = ${userId}
      ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit} OFFSET ${(page - 1) * limit}`),
    db.get<{ n: number }>(sql`SELECT count(*) AS n FROM transactions WHERE buyer_id = ${userId}`),
  ]);
  const total = Number(count?.n ?? 0);
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return {
    purchases: rows.map((r) => ({
      id: r.id,
      status: r.status,
      price: r.price,
      currency: r.currency,
      network: r.network,
      totalAmount: r.total_amount,
      createdAt: new Date(r.created_at).toISOString(),
      completedAt: iso(r.completed_at),
      privateKeyDestroyed: Boolean(r.private_key_destroyed),
      address: { id: r.address_id, address: r.address, network: r.network, rarityScore: rarityString(r.rarity_score) },
    })),
    pagination: { page, totalPages, total, hasPrevPage: page > 1, hasNextPage: page < totalPages },
  };
}
