// Admin > Payments. Refunds due: received payments that must go back (late, partial, duplicate, an overpayment's
// excess, unmatched or indirect transfers), and marking one refunded with the refund's hash, after the payment is
// re-checked on the chain (issue 26 §3: still there, at depth, succeeded, from the recorded sender to the platform,
// for the recorded amount; otherwise refused and the row keeps why). Differences: what the reconciliation found
// that nothing accounts for, resolved by an admin with a note. Every admin action is audited. Mounted on
// /api/admin/payments.
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import * as v from "valibot";
import type { Network } from "../../schema/db";
import {
  type AttentionPayment,
  type AttentionReason,
  type AttentionResponse,
  type DifferenceKind,
  type DifferencesResponse,
  type PaymentDifference,
  RefundRequest,
  type RefundResponse,
  ResolveDifferenceRequest,
  type ResolveDifferenceResponse,
} from "../../schema/purchases";
import { requireAdmin } from "../auth/middleware";
import { paymentVerifier } from "../chain/payment-verifier";
import { refundRecheck } from "../domain/reconciliation";
import { ApiError } from "../http/errors";
import { validate } from "../http/validate";
import { requirePaymentSettings } from "../payment-config";
import type { AppEnv } from "../types";
import { writeBatch } from "../db";

const ATTENTION_LIMIT = 200;
const idParam = v.object({ id: v.pipe(v.string(), v.regex(/^[0-9a-f-]{36}$/, "must be a payment id")) });
const differenceParam = v.object({ id: v.pipe(v.string(), v.regex(/^[0-9a-f-]{36}$/, "must be a difference id")) });

type Row = {
  id: string;
  transaction_id: string | null;
  network: Network;
  amount: string;
  currency: "ETH" | "SOL";
  amount_base_units: string | null;
  expected_base_units: string | null;
  refund_base_units: string | null;
  sender_address: string | null;
  tx_hash: string | null;
  attention_reason: AttentionReason | null;
  status: string;
  refund_status: string | null;
  created_at: number;
  check_failure: string | null;
  checked_at: number | null;
};

type DifferenceRow = {
  id: string;
  network: Network;
  kind: DifferenceKind;
  tx_hash: string | null;
  from_block: number | null;
  to_block: number | null;
  amount_base_units: string | null;
  sender_address: string | null;
  transaction_id: string | null;
  escrow_id: string | null;
  detail: string;
  status: "open" | "resolved";
  created_at: number;
  resolved_at: number | null;
  resolved_by: string | null;
  resolution_note: string | null;
};

const ESCROW_COLUMNS = sql.raw(`id, transaction_id, network, amount, currency, amount_base_units, expected_base_units, refund_base_units, sender_address,
  tx_hash, attention_reason, status, refund_status, created_at, check_failure, checked_at`);

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const adminPaymentRoutes = new Hono<AppEnv>()
  .use("*", requireAdmin)
  .get("/attention", async (c) => {
    const rows = await c.var.db.all<Row>(sql`
      SELECT ${ESCROW_COLUMNS} FROM escrow_transactions WHERE refund_status = 'needed' ORDER BY created_at DESC LIMIT ${ATTENTION_LIMIT}`);
    const payments = rows.map((r): AttentionPayment => {
      const verifier = paymentVerifier(c.env, r.network);
      return {
        id: r.id,
        transactionId: r.transaction_id,
        network: r.network,
        amount: r.amount,
        currency: r.currency,
        expectedAmount: r.expected_base_units === null ? null : verifier.formatAmount(BigInt(r.expected_base_units)),
        senderAddress: r.sender_address,
        txHash: r.tx_hash,
        reason: r.attention_reason ?? "failed",
        status: r.status,
        createdAt: new Date(r.created_at).toISOString(),
        explorerUrl: r.tx_hash ? verifier.explorerUrl(r.tx_hash) : null,
        checkFailure: r.check_failure,
        checkedAt: iso(r.checked_at),
      };
    });
    return c.json({ payments } satisfies AttentionResponse);
  })
  // The re-check reads the chain: on unsafe payment settings (a node on the wrong chain, say) it proves nothing.
  .post("/:id/refund", requirePaymentSettings, validate("param", idParam), validate("json", RefundRequest), async (c) => {
    const { id } = c.req.valid("param");
    const { refundTxHash } = c.req.valid("json");
    const db = c.var.db;
    const row = await db.get<Row>(sql`
      SELECT ${ESCROW_COLUMNS} FROM escrow_transactions WHERE id = ${id}`);
    if (!row) throw new ApiError(404, "Payment not found");
    if (row.refund_status !== "needed") throw new ApiError(409, "This payment does not need a refund (already refunded or settled)");
    // The money must really be there before anyone records that it went back.
    const verifier = paymentVerifier(c.env, row.network);
    const seen = row.tx_hash ? await verifier.received(row.tx_hash) : ({ kind: "missing" } as const);
    const failure = refundRecheck(row.network, { sender: row.sender_address, amount: BigInt(row.amount_base_units ?? "0") }, seen, verifier.requiredConfirmations);
    const now = Date.now();
    if (failure) {
      await db.run(sql`UPDATE escrow_transactions SET check_failure = ${failure}, checked_at = ${now} WHERE id = ${id}`);
      throw new ApiError(seen.kind === "unavailable" ? 503 : 409, `Not marked refunded: ${failure}`);
    }
    const { ip, userAgent } = c.var.requestInfo;
    const [updated] = await writeBatch(db, [
      // The ledger status stays what it was (refund, or released for an overpayment's excess): only the refund is done.
      sql`UPDATE escrow_transactions SET refund_status = 'refunded', release_tx_hash = ${refundTxHash}, release_time = ${now}, check_failure = NULL, checked_at = ${now}
                       WHERE id = ${id} AND refund_status = 'needed'`,
      sql`INSERT INTO transaction_audit (transaction_id, action, performed_by, metadata, ip_address, user_agent, timestamp)
                       SELECT transaction_id, 'refund_marked', ${c.var.session.walletAddress}, json_object('escrowId', id, 'refundTxHash', ${refundTxHash}),
                              ${ip}, ${userAgent}, ${now}
                       FROM escrow_transactions WHERE id = ${id} AND release_time = ${now} AND refund_status = 'refunded'`,
      // A reconciliation difference that listed this payment is settled by the refund.
      sql`UPDATE payment_attention SET status = 'resolved', resolved_at = ${now}, resolved_by = ${c.var.session.walletAddress},
                       resolution_note = ${`Refunded in ${refundTxHash}`}
                       WHERE escrow_id = ${id} AND status = 'open' AND EXISTS (SELECT 1 FROM escrow_transactions WHERE id = ${id} AND release_time = ${now})`,
    ]);
    if (((updated as D1Result).meta.changes ?? 0) === 0) throw new ApiError(409, "This payment does not need a refund (already refunded or settled)");
    return c.json({ success: true } satisfies RefundResponse);
  })
  .get("/differences", async (c) => {
    const db = c.var.db;
    const [rows, cursors] = await Promise.all([
      db.all<DifferenceRow>(sql`
        SELECT id, network, kind, tx_hash, from_block, to_block, amount_base_units, sender_address, transaction_id, escrow_id, detail, status,
               created_at, resolved_at, resolved_by, resolution_note
        FROM payment_attention WHERE status = 'open' ORDER BY created_at DESC LIMIT ${ATTENTION_LIMIT}`),
      db.all<{ network: Network; next_block: number | null; last_signature: string | null; updated_at: number }>(
        sql`SELECT network, next_block, last_signature, updated_at FROM reconcile_cursors`,
      ),
    ]);
    const differences = rows.map((r): PaymentDifference => {
      const verifier = paymentVerifier(c.env, r.network);
      return {
        id: r.id,
        network: r.network,
        kind: r.kind,
        txHash: r.tx_hash,
        fromBlock: r.from_block,
        toBlock: r.to_block,
        amount: r.amount_base_units === null ? null : verifier.formatAmount(BigInt(r.amount_base_units)),
        currency: r.network === "ethereum" ? "ETH" : "SOL",
        senderAddress: r.sender_address,
        transactionId: r.transaction_id,
        escrowId: r.escrow_id,
        detail: r.detail,
        status: r.status,
        createdAt: new Date(r.created_at).toISOString(),
        resolvedAt: iso(r.resolved_at),
        resolvedBy: r.resolved_by,
        resolutionNote: r.resolution_note,
        explorerUrl: r.tx_hash ? verifier.explorerUrl(r.tx_hash) : null,
      };
    });
    const reconciliation = (["ethereum", "solana"] as const).map((network) => {
      const cursor = cursors.find((k) => k.network === network);
      const through = !cursor ? null : network === "ethereum" ? (cursor.next_block === null ? null : `block ${cursor.next_block - 1}`) : cursor.last_signature || null;
      return { network, through, updatedAt: iso(cursor?.updated_at ?? null) };
    });
    return c.json({ differences, reconciliation } satisfies DifferencesResponse);
  })
  .post("/differences/:id/resolve", validate("param", differenceParam), validate("json", ResolveDifferenceRequest), async (c) => {
    const { id } = c.req.valid("param");
    const { note } = c.req.valid("json");
    const now = Date.now();
    const { ip, userAgent } = c.var.requestInfo;
    const [updated] = await writeBatch(c.var.db, [
      sql`UPDATE payment_attention SET status = 'resolved', resolved_at = ${now}, resolved_by = ${c.var.session.walletAddress}, resolution_note = ${note}
                       WHERE id = ${id} AND status = 'open'`,
      sql`INSERT INTO transaction_audit (transaction_id, action, performed_by, metadata, ip_address, user_agent, timestamp)
                       SELECT transaction_id, 'payment_difference_resolved', ${c.var.session.walletAddress},
                              json_object('differenceId', id, 'kind', kind, 'txHash', tx_hash, 'note', ${note}), ${ip}, ${userAgent}, ${now}
                       FROM payment_attention WHERE id = ${id} AND resolved_at = ${now} AND status = 'resolved'`,
    ]);
    if (((updated as D1Result).meta.changes ?? 0) === 0) {
      const exists = await c.var.db.get<{ id: string }>(sql`SELECT id FROM payment_attention WHERE id = ${id}`);
      throw exists ? new ApiError(409, "This difference is already resolved") : new ApiError(404, "Difference not found");
    }
    return c.json({ success: true } satisfies ResolveDifferenceResponse);
  });
