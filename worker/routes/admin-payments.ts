// Admin > Payments. Refunds due: received payments that must go back (late, partial, duplicate, an overpayment's
// excess, unmatched or indirect transfers), and marking one refunded with the refund's hash, after the payment is
// re-checked on the chain (still there, at depth, succeeded, from the recorded sender to the platform,
// for the recorded amount; otherwise refused and the row keeps why), or dismissing one with a note (no refund sent,
// the note says why). Differences: what the reconciliation found
// that nothing accounts for, resolved by an admin with a note. Every admin action is audited (purchases/refunds.ts). Mounted on
// /api/admin/payments.
import { Hono } from "hono";
import {
  type AttentionResponse,
  type DifferencesResponse,
  DismissRefundRequest,
  type DismissRefundResponse,
  RefundRequest,
  type RefundResponse,
  ResolveDifferenceRequest,
  type ResolveDifferenceResponse,
} from "../../schema/admin-payments";
import { requireAdmin } from "../auth/middleware";
import { validId } from "../http/params";
import { validate } from "../http/validate";
import { requirePaymentSettings } from "../deployment/payment-readiness";
import { dismissRefund, markRefunded, openDifferences, refundsDue, resolveDifference } from "../purchases/refunds";
import type { AppEnv } from "../types";

export const adminPaymentRoutes = new Hono<AppEnv>()
  .use("*", requireAdmin)
  .get("/attention", async (c) => {
    const payments = await refundsDue(c.var.db, c.var.deployment);
    return c.json({ payments } satisfies AttentionResponse);
  })
  // The re-check reads the chain: on unsafe payment settings (a node on the wrong chain, say) it proves nothing.
  .post("/:id/refund", validId("payment"), requirePaymentSettings, validate("json", RefundRequest), async (c) => {
    await markRefunded(c.var.db, c.var.deployment, c.var.session, c.req.valid("param").id, c.req.valid("json").refundTxHash, c.var.requestInfo);
    return c.json({ success: true } satisfies RefundResponse);
  })
  // Dismissing claims nothing about the chain (no money is said to have gone back): no re-check, no node needed.
  .post("/:id/dismiss", validId("payment"), validate("json", DismissRefundRequest), async (c) => {
    await dismissRefund(c.var.db, c.var.session, c.req.valid("param").id, c.req.valid("json").note, c.var.requestInfo);
    return c.json({ success: true } satisfies DismissRefundResponse);
  })
  .get("/differences", async (c) => {
    const { differences, reconciliation } = await openDifferences(c.var.db, c.var.deployment, c.env);
    return c.json({ differences, reconciliation } satisfies DifferencesResponse);
  })
  .post("/differences/:id/resolve", validId("difference"), validate("json", ResolveDifferenceRequest), async (c) => {
    await resolveDifference(c.var.db, c.var.session, c.req.valid("param").id, c.req.valid("json").note, c.var.requestInfo);
    return c.json({ success: true } satisfies ResolveDifferenceResponse);
  });
