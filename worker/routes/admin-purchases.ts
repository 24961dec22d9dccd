// Admin actions on one purchase, mounted on /api/admin/purchases: closing a stuck purchase with a note
// (purchases/admin-close.ts; docs/payments.md#deadlines). Every action is audited with the admin's wallet.
import { Hono } from "hono";
import { ClosePurchaseRequest, type ClosePurchaseResponse } from "../../schema/admin-payments";
import { requireAdmin } from "../auth/middleware";
import { validId } from "../http/params";
import { validate } from "../http/validate";
import { closePurchase } from "../purchases/admin-close";
import type { AppEnv } from "../types";

export const adminPurchaseRoutes = new Hono<AppEnv>()
  .use("*", requireAdmin)
  .post("/:id/close", validId("transaction"), validate("json", ClosePurchaseRequest), async (c) => {
    const payment = await closePurchase(c.var.db, c.var.deployment, c.var.session, c.req.valid("param").id, c.req.valid("json").note, c.var.requestInfo);
    c.header("Cache-Control", "no-store");
    return c.json({ success: true, status: "failed", payment } satisfies ClosePurchaseResponse);
  });
