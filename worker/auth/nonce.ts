// Sign-in nonces (DESIGN §4): 128 random bits from crypto.getRandomValues, stored with a 10-minute TTL and
// consumed once. Consumption happens in the same D1 batch as the session insert (see session.ts), so a
// replayed signature finds its nonce gone.
import { bytesToHex } from "@noble/hashes/utils.js";
import { and, eq, gt } from "drizzle-orm";
import { authNonces } from "../../schema/db";
import type { Db } from "../db";

export const NONCE_TTL_MS = 10 * 60 * 1000;
/** 16 bytes: 128 bits, above the 96 the design asks for. Hex keeps it alphanumeric, as EIP-4361 requires. */
export const NONCE_BYTES = 16;

export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  return bytesToHex(bytes);
}

/**
 * Most unused nonces kept at once. Each client is rate-limited (routes/auth.ts), so only many clients together
 * reach this; past it sign-in answers 503 for a few minutes instead of letting the table grow without bound.
 */
export const MAX_LIVE_NONCES = 100_000;
/** Sign-in nonces one client may request per window (a person needs one or two). */
export const NONCE_RATE_LIMIT = { limit: 30, windowMs: 60_000 } as const;

/**
 * Stores a fresh nonce, or returns null when MAX_LIVE_NONCES unused nonces are already waiting. Expired nonces
 * are dropped in the same batch, so the table holds only live ones even between cron runs.
 */
export async function issueNonce(d1: D1Database, now: number): Promise<{ nonce: string; issuedAt: number; expiresAt: number } | null> {
  const nonce = newNonce();
  const expiresAt = now + NONCE_TTL_MS;
  const [, inserted] = await d1.batch([
    d1.prepare("DELETE FROM auth_nonces WHERE expires_at <= ?").bind(now),
    d1
      .prepare("INSERT INTO auth_nonces (nonce, expires_at, created_at) SELECT ?, ?, ? WHERE (SELECT count(*) FROM auth_nonces) < ? RETURNING nonce")
      .bind(nonce, expiresAt, now, MAX_LIVE_NONCES),
  ]);
  if (inserted.results.length === 0) return null;
  return { nonce, issuedAt: now, expiresAt };
}

/** True while the nonce is stored and unexpired. A cheap early refusal; the binding check is the consume. */
export async function nonceIsLive(db: Db, nonce: string, now: number): Promise<boolean> {
  const row = await db
    .select({ nonce: authNonces.nonce })
    .from(authNonces)
    .where(and(eq(authNonces.nonce, nonce), gt(authNonces.expiresAt, now)))
    .get();
  return row !== undefined;
}
