// Sign-in by wallet signature (docs/sign-in.md).
//   POST /api/auth/nonce    -> a fresh nonce (and the message to sign)        [POST: it creates state]
//   POST /api/auth/verify   -> checks the signed message, opens a session (cookie)
//   GET  /api/auth/session  -> the signed-in user, or {authenticated:false}
//   POST /api/auth/logout   -> ends the session
import { Hono } from "hono";
import { NonceRequest, type SessionResponse, VerifyRequest } from "../../schema/auth";
import { presentedSession } from "../auth/middleware";
import { NONCE_RATE_LIMIT, VERIFY_RATE_LIMIT } from "../auth/nonce";
import { clearSessionCookie, endSession, findSession, hashSessionId, startSession, writeSessionCookie } from "../auth/session";
import { sessionResponse, startSignIn, verifySignIn } from "../auth/sign-in";
import { requireSiteOriginHere } from "../auth/site";
import { countNetwork, isReturningWallet } from "../http/rate-limit";
import { validate } from "../http/validate";
import { requireSessionSecret } from "../deployment/middleware";
import type { AppEnv } from "../types";

export const authRoutes = new Hono<AppEnv>()
  // Every sign-in route issues or reads sessions, which are keyed by SESSION_SECRET.
  .use(requireSessionSecret)
  // The local SITE_ORIGIN on a public site: no message naming localhost is written or accepted (auth/site.ts).
  .use("/nonce", requireSiteOriginHere)
  .use("/verify", requireSiteOriginHere)
  // Counted after validation: a malformed request is a 400 that stores nothing, so it need not use up the quota.
  // Past the network's limit, a nonce is still issued for a returning buyer's wallet (docs/sign-in.md#returning-buyers):
  // it stores nothing and names that wallet, so only its key can use it.
  .post("/nonce", validate("json", NonceRequest), async (c) => {
    const body = c.req.valid("json");
    const over = await countNetwork(c, "auth-nonce", NONCE_RATE_LIMIT.limit, NONCE_RATE_LIMIT.windowMs);
    if (over && !(body.address && (await isReturningWallet(c.var.db, body.network, body.address)))) throw over;
    return c.json(await startSignIn(c.env, c.var.deployment, body));
  })

  // Counted after validation, like /nonce. Each attempt that names a live nonce uses it up before any signature
  // work, so one nonce buys one verification, and this limit bounds how many one client can ask for. Past it only a
  // returning buyer's wallet signs in, by its own key and its own allowance (verifySignIn).
  .post("/verify", validate("json", VerifyRequest), async (c) => {
    const body = c.req.valid("json");
    const over = await countNetwork(c, "auth-verify", VERIFY_RATE_LIMIT.limit, VERIFY_RATE_LIMIT.windowMs);
    const now = Date.now();
    const { address, proof } = await verifySignIn(c.var.db, c.env, c.var.deployment, body, now, over);
    const previous = await presentedSession(c);
    const started = await startSession(c.env.DB, {
      network: body.network,
      address,
      proof,
      previousIdHash: previous?.idHash ?? null,
      secret: c.env.SESSION_SECRET!,
      now,
    });
    writeSessionCookie(c, started.id, started.expiresAt);
    const session = await findSession(c.var.db, c.var.deployment, await hashSessionId(c.env.SESSION_SECRET!, started.id), now);
    return c.json(session ? await sessionResponse(c.var.db, session) : ({ authenticated: false } satisfies SessionResponse));
  })

  .get("/session", async (c) => {
    const session = c.var.session;
    return c.json(session ? await sessionResponse(c.var.db, session) : ({ authenticated: false } satisfies SessionResponse));
  })

  .post("/logout", async (c) => {
    const presented = await presentedSession(c);
    if (presented) await endSession(c.var.db, presented.idHash);
    clearSessionCookie(c);
    return c.json({ success: true });
  });
