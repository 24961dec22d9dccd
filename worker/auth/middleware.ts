// Who is calling. `loadSession` runs on every /api request and sets `c.var.session` (or null); routes that
// need a signed-in wallet or an admin mount `requireSession` / `requireAdmin`.
//
// The spec's `x-wallet-address` header is only ever compared with the session: it never signs anyone in and
// never grants a role. A header naming a different wallet than the session's is refused with 403, so a
// client that lost track of its wallet cannot act under a stale identity.
import type { Context, MiddlewareHandler } from "hono";
import { sameAddress } from "../../schema/address";
import { createMiddleware } from "hono/factory";
import { ApiError } from "../http/errors";
import type { AppEnv } from "../types";
import { type AuthSession, clearSessionCookie, findSession, hashSessionId, readSessionCookie } from "./session";

export type { AuthSession };

/** The session cookie's value and its stored hash, when the request carries a well-formed one. */
export async function presentedSession(c: Context<AppEnv>): Promise<{ id: string; idHash: string } | null> {
  const id = readSessionCookie(c);
  const secret = c.env.SESSION_SECRET;
  if (!id || !secret || !c.var.deployment.secrets.SESSION_SECRET) return null;
  return { id, idHash: await hashSessionId(secret, id) };
}

function walletHeaderAgrees(header: string, session: AuthSession): boolean {
  return sameAddress(session.network, header.trim(), session.walletAddress);
}

function refuseDisagreeingHeader(c: Context<AppEnv>, session: AuthSession | null) {
  const header = c.req.header("x-wallet-address");
  if (header !== undefined && session && !walletHeaderAgrees(header, session)) {
    throw new ApiError(403, "x-wallet-address does not match the signed-in wallet; sign in again with that wallet");
  }
}

export const loadSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  let session: AuthSession | null = null;
  const presented = await presentedSession(c);
  if (presented) {
    session = await findSession(c.var.db, c.var.deployment, presented.idHash, Date.now());
    // An expired or logged-out cookie is useless: tell the browser to drop it.
    if (!session) clearSessionCookie(c);
  }
  c.set("session", session);
  refuseDisagreeingHeader(c, session);
  await next();
};

type SignedIn = { Variables: { session: AuthSession } };

/** 401 without a live session; the handler then sees `c.var.session` non-null. */
export const requireSession = createMiddleware<AppEnv & SignedIn>(async (c, next) => {
  if (!c.var.deployment.secrets.SESSION_SECRET) throw new ApiError(503, "Sign-in services are disabled: the server is missing SESSION_SECRET");
  // loadSession has normally run already; a router mounted on its own (tests) resolves the session here.
  if (c.var.session === undefined) await loadSession(c as unknown as Context<AppEnv>, async () => {});
  const session = c.var.session as AuthSession | null;
  if (!session) throw new ApiError(401, "Sign in with your wallet first");
  refuseDisagreeingHeader(c as unknown as Context<AppEnv>, session);
  await next();
});

/** 401 without a session, 403 for a wallet that is neither in ADMIN_WALLETS nor marked admin. */
export const requireAdmin = createMiddleware<AppEnv & SignedIn>(async (c, next) => {
  await requireSession(c, async () => {
    if (!c.var.session.isAdmin) throw new ApiError(403, "Admin access required");
    await next();
  });
});
