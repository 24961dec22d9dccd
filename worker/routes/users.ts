// GET /api/users/admin-status?walletAddress= -> {isAdmin, userExists}. Public on purpose: who the admins are
// is not a secret, and the answer grants nothing (roles come from the session, see auth/middleware.ts).
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { detectAddressType } from "../../schema/address";
import { AdminStatusQuery, type AdminStatusResponse } from "../../schema/auth";
import { users } from "../../schema/db";
import { isAdmin } from "../auth/roles";
import { normalizeWallet } from "../domain/users";
import { ApiError } from "../http/errors";
import { validate } from "../http/validate";
import type { AppEnv } from "../types";

export const userRoutes = new Hono<AppEnv>().get("/admin-status", validate("query", AdminStatusQuery), async (c) => {
  const { walletAddress } = c.req.valid("query");
  const network = detectAddressType(walletAddress);
  if (network === "unknown") throw new ApiError(400, "walletAddress: not an Ethereum or Solana address");
  const user = await c.var.db
    .select({ isAdmin: users.isAdmin })
    .from(users)
    .where(eq(users.walletAddress, normalizeWallet(network, walletAddress)))
    .get();
  const answer: AdminStatusResponse = {
    isAdmin: isAdmin(c.env, network, walletAddress, user?.isAdmin === true),
    userExists: user !== undefined,
  };
  return c.json(answer);
});
