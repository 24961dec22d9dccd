// GET /api/users/admin-status?walletAddress= -> {isAdmin, userExists}. Public on purpose: who the admins are
// is not a secret, and the answer grants nothing (roles come from the session, see auth/middleware.ts).
import { Hono } from "hono";
import { AdminStatusQuery, type AdminStatusResponse } from "../../schema/auth";
import { adminStatus } from "../auth/sign-in";
import { validate } from "../http/validate";
import type { AppEnv } from "../types";

export const userRoutes = new Hono<AppEnv>().get("/admin-status", validate("query", AdminStatusQuery), async (c) => {
  return c.json((await adminStatus(c.var.db, c.var.deployment, c.req.valid("query").walletAddress)) satisfies AdminStatusResponse);
});
