// One purchase as stored, read the same way by every purchase step.
import { sql } from "drizzle-orm";
import type { Network } from "../../schema/db";
import type { PurchaseStatus } from "../../schema/purchases";
import type { Db } from "../db";

export type PurchaseRow = {
  id: string;
  address_id: number;
  buyer_id: number | null;
  seller_id: number | null;
  buyer_wallet: string | null;
  network: Network;
  price: string;
  currency: "ETH" | "SOL";
  exchange_fee: string;
  commission_fee: string;
  total_amount: string;
  amount_base_units: string | null;
  status: PurchaseStatus;
  tx_hash: string | null;
  payment_reference: string | null;
  failure_reason: string | null;
  private_key_destroyed: number;
  expires_at: number | null;
  created_at: number;
  completed_at: number | null;
  confirmations: number;
  payment_block: string | null;
  scan_from_block: number | null;
  reserved_block: number | null;
  reported_at: number | null;
};

const COLUMNS = `id, address_id, buyer_id, seller_id, buyer_wallet, network, price, currency, exchange_fee, commission_fee, total_amount,
  amount_base_units, status, tx_hash, payment_reference, failure_reason, private_key_destroyed, expires_at, created_at, completed_at,
  confirmations, payment_block, scan_from_block, reserved_block, reported_at`;
/** The columns of PurchaseRow, qualified with the alias `t`. */
export const PURCHASE_COLUMNS = sql.raw(COLUMNS.split(",").map((c) => `t.${c.trim()}`).join(", "));
/** The same, unqualified (for RETURNING). */
export const PURCHASE_COLUMNS_BARE = sql.raw(COLUMNS);

export function findPurchase(db: Db, id: string): Promise<PurchaseRow | undefined> {
  return db.get<PurchaseRow>(sql`SELECT ${PURCHASE_COLUMNS} FROM transactions t WHERE t.id = ${id}`);
}

export const OPEN_STATUSES: readonly PurchaseStatus[] = ["initiated", "pending", "verified"];
