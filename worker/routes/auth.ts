// Sign-in by wallet signature (DESIGN §4).
//   POST /api/auth/nonce    -> a fresh nonce (and the message to sign)        [POST: it creates state]
//   POST /api/auth/verify   -> checks the signed message, opens a session (cookie)
//   GET  /api/auth/session  -> the signed-in user, or {authenticated:false}
//   POST /api/auth/logout   -> ends the session
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import type { Hex } from "viem";
import { detectAddressType, validateAddress } from "../../schema/address";
import { NonceRequest, type NonceResponse, type SessionResponse, VerifyRequest } from "../../schema/auth";
import { users } from "../../schema/db";
import type { AuthSession } from "../auth/middleware";
import { presentedSession } from "../auth/middleware";
import { consumeNonce, type IssuedNonce, issueNonce, NONCE_RATE_LIMIT, VERIFY_RATE_LIMIT } from "../auth/nonce";
import { clearSessionCookie, endSession, findSession, hashSessionId, startSession, writeSessionCookie } from "../auth/session";
import { parseSiwe, parseSiws } from "../auth/sign-in-grammar";
import { buildSiweMessage, checkSiwe } from "../auth/siwe";
import { buildSiwsMessage, checkSiws, signInFields } from "../auth/siws";
import { type SiteOrigin, siteOf } from "../auth/site";
import type { Db } from "../db";
import { ApiError } from "../http/errors";
import { rateLimit } from "../http/rate-limit";
import { validate } from "../http/validate";
import { requireSessionSecret } from "../config";
import type { AppEnv } from "../types";

const refuse = (reason: string) => new ApiError(401, `Sign-in failed: ${reason}`);

async function sessionResponse(db: Db, session: AuthSession): Promise<SessionResponse> {
  const user = await db.select().from(users).where(eq(users.id, session.userId)).get();
  if (!user) return { authenticated: false };
  return {
    authenticated: true,
    user: {
      id: user.id,
      username: user.username,
      walletAddress: user.walletAddress,
      network: user.network,
      isAdmin: session.isAdmin,
      createdAt: new Date(user.createdAt).toISOString(),
    },
    expiresAt: new Date(session.expiresAt).toISOString(),
  };
}

/**
 * What /nonce answers, and the text it issues (whose hash the nonce keeps): the SIWE message; the SIWS message
 * when the address is known; otherwise the `solana:signIn` input, and as issued text that message with the
 * address line left for the wallet to fill in.
 */
function writeSignIn(site: SiteOrigin, chainId: number, body: NonceRequest, n: IssuedNonce): { answer: NonceResponse; issuedText: string } {
  const { nonce, issuedAt, expiresAt } = n;
  const answer: NonceResponse = { nonce, expiresAt: new Date(expiresAt).toISOString() };
  if (body.network === "ethereum") {
    answer.message = buildSiweMessage(site, { address: body.address, chainId, nonce, issuedAt, expiresAt });
    return { answer, issuedText: answer.message };
  }
  const fields = signInFields(site, { address: body.address, nonce, issuedAt, expiresAt });
  answer.signInInput = fields;
  if (body.address) answer.message = buildSiwsMessage({ ...fields, address: body.address });
  return { answer, issuedText: answer.message ?? buildSiwsMessage({ ...fields, address: "" }) };
}

export const authRoutes = new Hono<AppEnv>()
  // Every sign-in route issues or reads sessions, which are keyed by SESSION_SECRET.
  .use(requireSessionSecret)
  // Counted after validation: a malformed request is a 400 that stores nothing, so it need not use up the quota.
  .post("/nonce", validate("json", NonceRequest), rateLimit("auth-nonce", NONCE_RATE_LIMIT.limit, NONCE_RATE_LIMIT.windowMs), async (c) => {
    const body = c.req.valid("json");
    if (body.address !== undefined) {
      const checked = validateAddress(body.address, body.network);
      if (!checked.isValid) throw new ApiError(400, `address: ${checked.message}`);
    }
    const site = siteOf(c.env);
    const issued = await issueNonce(c.env.DB, Date.now(), (nonce) => writeSignIn(site, Number(c.env.ETH_CHAIN_ID), body, nonce));
    if (!issued) throw new ApiError(503, "Sign-in is busy: too many sign-ins are waiting. Try again in a few minutes.");
    return c.json(issued.answer);
  })

  // Counted after validation, like /nonce. Each attempt that names a live nonce uses it up before any signature
  // work, so one nonce buys one verification, and this limit bounds how many one client can ask for.
  .post("/verify", validate("json", VerifyRequest), rateLimit("auth-verify", VERIFY_RATE_LIMIT.limit, VERIFY_RATE_LIMIT.windowMs), async (c) => {
    const body = c.req.valid("json");
    const now = Date.now();
    const site = siteOf(c.env);
    // A text that is not a sign-in message by the standard's grammar names no nonce and goes no further.
    const parsed = body.network === "ethereum" ? parseSiwe(body.message) : parseSiws(body.message);
    if (!parsed) throw refuse(`not a Sign-In with ${body.network === "ethereum" ? "Ethereum (EIP-4361)" : "Solana"} message`);
    if (!parsed.nonce) throw refuse("message carries no nonce");
    const issued = await consumeNonce(c.env.DB, parsed.nonce, now);
    if (!issued) throw refuse("the nonce is unknown, used or expired; request a new one");

    let address: string;
    if (body.network === "ethereum") {
      const checked = await checkSiwe(c.env, site, { message: body.message, parsed, issuedHash: issued.messageHash, signature: body.signature as Hex, now });
      if (!checked.ok) throw refuse(checked.reason);
      address = checked.address;
    } else {
      const checked = await checkSiws(site, { text: body.message, parsed, issuedHash: issued.messageHash, signature: body.signature, claimedAddress: body.address, now });
      if (!checked.ok) throw refuse(checked.reason);
      if (detectAddressType(checked.address) !== "solana") throw refuse("not a Solana address");
      address = checked.address;
    }

    const previous = await presentedSession(c);
    const started = await startSession(c.env.DB, {
      network: body.network,
      address,
      previousIdHash: previous?.idHash ?? null,
      secret: c.env.SESSION_SECRET!,
      now,
    });
    writeSessionCookie(c, started.id, started.expiresAt);
    const session = await findSession(c.var.db, c.env, await hashSessionId(c.env.SESSION_SECRET!, started.id), now);
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
