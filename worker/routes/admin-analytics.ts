// Admin > Analytics, mounted on /api/admin/analytics; admins only.
//   GET /?days=7|30|90   every figure of the tab for the period (operations/analytics.ts)
import { Hono } from "hono";
import * as v from "valibot";
import { ANALYTICS_PERIODS, type AnalyticsResponse } from "../../schema/analytics";
import { requireAdmin } from "../auth/middleware";
import { validate } from "../http/validate";
import { analytics } from "../operations/analytics";
import type { AppEnv } from "../types";

const query = v.object({ days: v.optional(v.picklist(ANALYTICS_PERIODS, `days must be one of ${ANALYTICS_PERIODS.join(", ")}`), "30") });

export const adminAnalyticsRoutes = new Hono<AppEnv>()
  .use("*", requireAdmin)
  .get("/", validate("query", query), async (c) =>
    c.json((await analytics(c.var.db, Number(c.req.valid("query").days), Date.now())) satisfies AnalyticsResponse),
  );
