// Admin > Settings, mounted on /api/admin/settings; admins only. The services (operations/settings.ts)
// hold the rules; every change is audited with who and when. A refusal names each refused field's problem in
// `fields` as well as in `message`, so the tab shows it at the field (docs/api.md#conventions).
//   GET  /        fee configurations (history, in force, scheduled), quote settings history, the audit trail
//   POST /fees    {network, exchangeFeePercentage, commissionFeePercentage, minimumFee, maximumFee?, gasFeeMultiplier, effectiveFrom?}
//   POST /quote   {basePrice, pricePerBillion, maxPrice, maxDifficultyBits, grindRate}
import { Hono } from "hono";
import { FeeConfigRequest, QuoteSettingsRequest, type SettingsResponse } from "../../schema/settings";
import { requireAdmin } from "../auth/middleware";
import { validate } from "../http/validate";
import { feeHistory, quoteHistory, setFeeConfig, setQuoteSettings, settingsAudit } from "../operations/settings";
import type { AppEnv } from "../types";

export const adminSettingsRoutes = new Hono<AppEnv>()
  .use("*", requireAdmin)
  .get("/", async (c) => {
    const db = c.var.db;
    const [fees, quote, audit] = await Promise.all([feeHistory(db, Date.now()), quoteHistory(db), settingsAudit(db)]);
    return c.json({ fees, quote, audit } satisfies SettingsResponse);
  })
  .post("/fees", validate("json", FeeConfigRequest, { perField: true }), async (c) => {
    return c.json(await setFeeConfig(c.var.db, c.var.session, c.req.valid("json"), c.var.requestInfo, Date.now()), 201);
  })
  .post("/quote", validate("json", QuoteSettingsRequest, { perField: true }), async (c) => {
    return c.json(await setQuoteSettings(c.var.db, c.var.session, c.req.valid("json"), c.var.requestInfo, Date.now()), 201);
  });
