// Admin: "Payments needing attention" — received payments that must go back (late, partial, duplicate, an
// overpayment's excess, or money sent by the wrong wallet) — and marking one refunded with the refund's hash.
// Mounted on /api/admin/payments.
import { sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import * as v from "valibot";
import type { Network } from "../../schema/db";
import { type AttentionPayment, type AttentionReason, type AttentionResponse, RefundRequest, type RefundResponse } from "../../schema/purchases";
import { requireAdmin } from "../auth/middleware";
import { paymentVerifier } from "../chain/payment-verifier";
import { ApiError } from "../http/errors";
import { clientIp } from "../http/rate-limit";
import { validate } from "../http/validate";
import type { AppEnv } from "../types";
import { writeBatch } from "../purchases/write-batch";

const ATTENTION_LIMIT = 200;
const idParam = v.object({ id: v.pipe(v.string(), v.regex(/^[0-9a-f-]{36}$/, "must be a payment id")) });

type Row = {
  id: string;
  transaction_id: string | null;
  network: Network;
  amount: string;
  currency: "ETH" | "SOL";
  expected_base_units: string | null;
  refund_base_units: string | null;
  sender_address: string | null;
  tx_hash: string | null;
  attention_reason: AttentionReason | null;
  status: string;
  created_at: number;
};

export const adminPaymentRoutes = new Hono<AppEnv>()
  .use("*", requireAdmin)
  .get("/attention", async (c) => {
    const rows = await c.var.db.all<Row>(sql`
      SELECT id, transaction_id, network, amount, currency, expected_base_units, refund_base_units, sender_address, tx_hash, attention_reason, status, created_at
      FROM escrow_transactions WHERE refund_status = 'needed' ORDER BY created_at DESC LIMIT ${ATTENTION_LIMIT}`);
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
      };
    });
    return c.json({ payments } satisfies AttentionResponse);
  })
  .post("/:id/refund", validate("param", idParam), validate("json", RefundRequest), async (c) => {
    const { id } = c.req.valid("param");
    const { refundTxHash } = c.req.valid("json");
    const now = Date.now();
    const [updated] = await writeBatch(c.var.db, [
      sql`UPDATE escrow_transactions SET refund_status = 'refunded', status = 'refunded', release_tx_hash = ${refundTxHash}, release_time = ${now}
                       WHERE id = ${id} AND refund_status = 'needed'`,
      sql`INSERT INTO transaction_audit (transaction_id, action, performed_by, metadata, ip_address, user_agent, timestamp)
                       SELECT transaction_id, 'refund_marked', ${c.var.session.walletAddress}, json_object('escrowId', id, 'refundTxHash', ${refundTxHash}),
                              ${clientIp(c as unknown as Context<AppEnv>)}, ${c.req.header("user-agent")?.slice(0, 256) ?? null}, ${now}
                       FROM escrow_transactions WHERE id = ${id} AND release_time = ${now} AND refund_status = 'refunded'`,
    ]);
    if (((updated as D1Result).meta.changes ?? 0) === 0) {
      const exists = await c.var.db.get<{ id: string }>(sql`SELECT id FROM escrow_transactions WHERE id = ${id}`);
      throw exists ? new ApiError(409, "This payment does not need a refund (already refunded or settled)") : new ApiError(404, "Payment not found");
    }
    return c.json({ success: true } satisfies RefundResponse);
  });
