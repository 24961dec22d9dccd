// GET /api/transactions/user: the admin profile's "Transaction History" (sales and purchases merged, newest
// first by createdAt). Admin only, as the spec says; the walletAddress query parameter is accepted but the
// session decides whose history it is. Mounted on /api/transactions.
import { Hono } from "hono";
import * as v from "valibot";
import { PROFILE_LIST_DEFAULT, PROFILE_LIST_MAX, type UserTransaction } from "../../schema/listings";
import { requireAdmin } from "../auth/middleware";
import { ignoredWalletQuery, queryInt } from "../http/params";
import { validate } from "../http/validate";
import { userTransactions } from "../listings/profile";
import { requireSecrets } from "../config";
import type { AppEnv } from "../types";

const query = v.object({
  walletAddress: ignoredWalletQuery,
  limit: v.optional(queryInt("limit", 1, PROFILE_LIST_MAX)),
  offset: v.optional(queryInt("offset", 0, 1_000_000)),
});

export const transactionHistoryRoutes = new Hono<AppEnv>().get("/user", requireSecrets, requireAdmin, validate("query", query), async (c) => {
  const { limit = PROFILE_LIST_DEFAULT, offset = 0 } = c.req.valid("query");
  const rows = await userTransactions(c.var.db, c.var.session.userId, limit, offset);
  return c.json(rows satisfies UserTransaction[]);
});
