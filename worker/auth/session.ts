// Sessions (docs/sign-in.md): an opaque random id in an HttpOnly, SameSite=Lax cookie; the database keeps only
// HMAC-SHA256(SESSION_SECRET, id), so a leaked table cannot be replayed as cookies. Each row is bound to one
// (network, wallet) and expires; signing in always issues a new id and drops the one the browser had.
import { bytesToHex } from "@noble/hashes/utils.js";
import { and, eq, gt, type SQLWrapper, sql } from "drizzle-orm";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { sessions, type SignInProof, users, type Network } from "../../schema/db";
import { bare, columnList, createDb, type Db, writeBatch } from "../db/database";
import { deriveUsername, normalizeWallet } from "../domain/users";
import { type AdminRules, sessionIsAdmin } from "./roles";

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** 32 bytes: 256 bits of entropy, well above the 128 the design asks for. */
const SESSION_ID_BYTES = 32;
const SESSION_ID_RE = /^[A-Za-z0-9_-]{43}$/;

export type AuthSession = {
  userId: number;
  network: Network;
  /** Stored form: Ethereum lower-case, Solana exact. */
  walletAddress: string;
  isAdmin: boolean;
  expiresAt: number;
};

export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SESSION_ID_BYTES));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export async function hashSessionId(secret: string, id: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(id)));
  return bytesToHex(mac);
}

// ---- the cookie ----------------------------------------------------------------------------------------

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Plain http is only acceptable on the developer's own machine; everywhere else the cookie is Secure. */
export function isLocalHost(url: string): boolean {
  const host = new URL(url).hostname;
  return LOCAL_HOSTS.has(host) || host.endsWith(".localhost");
}

// Outside localhost the cookie carries the __Host- prefix: Secure, path=/, no Domain, so no subdomain can
// plant or read it.
const cookieSpec = (c: Context) =>
  isLocalHost(c.req.url) ? ({ name: "session", secure: false } as const) : ({ name: "session", prefix: "host", secure: true } as const);

export function readSessionCookie(c: Context): string | null {
  const spec = cookieSpec(c);
  const value = "prefix" in spec ? getCookie(c, spec.name, spec.prefix) : getCookie(c, spec.name);
  return value && SESSION_ID_RE.test(value) ? value : null;
}

export function writeSessionCookie(c: Context, id: string, expiresAt: number) {
  const spec = cookieSpec(c);
  const opts = { path: "/", httpOnly: true, sameSite: "Lax", maxAge: Math.floor((expiresAt - Date.now()) / 1000) } as const;
  if ("prefix" in spec) setCookie(c, spec.name, id, { ...opts, secure: true, prefix: "host" });
  else setCookie(c, spec.name, id, opts);
}

export function clearSessionCookie(c: Context) {
  const spec = cookieSpec(c);
  if ("prefix" in spec) deleteCookie(c, spec.name, { path: "/", secure: true, prefix: "host" });
  else deleteCookie(c, spec.name, { path: "/" });
}

// ---- the rows ------------------------------------------------------------------------------------------

export type StartSessionInput = {
  network: Network;
  /** The address as signed (any case); stored normalized. */
  address: string;
  /** How the wallet proved itself (siwe.ts): only a key's proof makes an admin (roles.ts sessionIsAdmin). */
  proof: SignInProof;
  /** Hash of the session the browser presented, dropped in the same batch (rotation). */
  previousIdHash: string | null;
  secret: string;
  now: number;
};

/**
 * Opens a session for a wallet whose signed message was verified, in one D1 batch: the users row (made or
 * marked verified), the session row, and the browser's previous session dropped. The nonce was already used
 * up (nonce.ts consumeNonce) before the signature was looked at, so a replay never gets this far.
 */
export async function startSession(d1: D1Database, input: StartSessionInput): Promise<{ id: string; expiresAt: number }> {
  const { network, now } = input;
  const wallet = normalizeWallet(network, input.address);
  const shortName = deriveUsername(network, wallet);
  // Vanity addresses share prefixes and suffixes by design, so the short name can be taken by another
  // wallet; the long form (the whole address) is unique because the wallet is.
  const longName = `${network === "ethereum" ? "eth" : "sol"}_${wallet}`;
  const id = newSessionId();
  const idHash = await hashSessionId(input.secret, id);
  const expiresAt = now + SESSION_TTL_MS;

  const db = createDb(d1);
  const u = users;
  const s = sessions;
  const statements: SQLWrapper[] = [
    // The latest sign-in outlives the session (deleted when it expires): an idle wallet is forgotten 30 days after it
    // (worker/jobs/forget-idle-users.ts).
    sql`INSERT INTO ${u} ${columnList(u.username, u.walletAddress, u.network, u.isVerified, u.lastSignInAt)}
        VALUES (CASE WHEN EXISTS (SELECT 1 FROM ${u} WHERE ${u.username} = ${shortName}) THEN ${longName} ELSE ${shortName} END, ${wallet}, ${network}, 1, ${now})
        ON CONFLICT ${columnList(u.walletAddress)} DO UPDATE SET ${bare(u.isVerified)} = 1, ${bare(u.lastSignInAt)} = ${now}`,
    sql`INSERT INTO ${s} ${columnList(s.idHash, s.userId, s.network, s.walletAddress, s.expiresAt, s.createdAt, s.proof)}
        SELECT ${idHash}, ${u.id}, ${network}, ${wallet}, ${expiresAt}, ${now}, ${input.proof} FROM ${u} WHERE ${u.walletAddress} = ${wallet}`,
  ];
  if (input.previousIdHash) statements.push(db.delete(s).where(eq(s.idHash, input.previousIdHash)));
  await writeBatch(db, statements);
  return { id, expiresAt };
}

/**
 * The live session behind a cookie value, with the admin role resolved now (ADMIN_WALLETS may change) from its proof,
 * by the request's deployment (`rules`: c.var.deployment).
 */
export async function findSession(db: Db, rules: AdminRules, idHash: string, now: number): Promise<AuthSession | null> {
  const row = await db
    .select({
      userId: sessions.userId,
      network: sessions.network,
      walletAddress: sessions.walletAddress,
      expiresAt: sessions.expiresAt,
      proof: sessions.proof,
      userIsAdmin: users.isAdmin,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)))
    .get();
  if (!row) return null;
  return {
    userId: row.userId,
    network: row.network,
    walletAddress: row.walletAddress,
    expiresAt: row.expiresAt,
    isAdmin: sessionIsAdmin(rules, { network: row.network, walletAddress: row.walletAddress, userRowIsAdmin: row.userIsAdmin, proof: row.proof }),
  };
}

export async function endSession(db: Db, idHash: string) {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}
