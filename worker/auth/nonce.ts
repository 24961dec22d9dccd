// Sign-in nonces (DESIGN §4): 128 random bits from crypto.getRandomValues, stored with a 10-minute TTL and
// the SHA-256 of the message issued for them, and used up by the first verify attempt that names them,
// whatever its outcome (one DELETE ... RETURNING, so of two requests carrying one nonce only one gets it).
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { eq, lte, sql } from "drizzle-orm";
import { authNonces } from "../../schema/db";
import { bare, columnList, createDb, writeBatch } from "../db";

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
 * Sign-in verifications one client may attempt per window: as many as nonces it may request. Each attempt that
 * names a live nonce uses it up, so together the two bound the contract-wallet eth_calls a client can cause.
 */
export const VERIFY_RATE_LIMIT = { limit: 30, windowMs: 60_000 } as const;

/** SHA-256 of a message's UTF-8 bytes, as hex: what the nonce row keeps of the message issued with it. */
export function messageHash(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

export type IssuedNonce = { nonce: string; issuedAt: number; expiresAt: number };

/**
 * Stores a fresh nonce with the hash of the message `write` issues for it, or returns null when
 * MAX_LIVE_NONCES unused nonces are already waiting. Expired nonces are dropped in the same batch, so the
 * table holds only live ones even between cron runs.
 */
export async function issueNonce<T extends { issuedText: string }>(d1: D1Database, now: number, write: (issued: IssuedNonce) => T): Promise<T | null> {
  const issued = { nonce: newNonce(), issuedAt: now, expiresAt: now + NONCE_TTL_MS };
  const written = write(issued);
  const db = createDb(d1);
  const n = authNonces;
  const [, inserted] = await writeBatch(db, [
    db.delete(n).where(lte(n.expiresAt, now)),
    sql`INSERT INTO ${n} ${columnList(n.nonce, n.messageHash, n.expiresAt, n.createdAt)}
        SELECT ${issued.nonce}, ${messageHash(written.issuedText)}, ${issued.expiresAt}, ${now} WHERE (SELECT count(*) FROM ${n}) < ${MAX_LIVE_NONCES}
        RETURNING ${bare(n.nonce)}`,
  ]);
  return inserted.results.length === 0 ? null : written;
}

/**
 * Uses the nonce up and answers the hash of the message issued with it, or null when it was unknown, already
 * used or expired. Called before any signature work, so one nonce buys at most one verification.
 */
export async function consumeNonce(d1: D1Database, nonce: string, now: number): Promise<{ messageHash: string } | null> {
  const n = authNonces;
  const row = await createDb(d1).delete(n).where(eq(n.nonce, nonce)).returning({ expiresAt: n.expiresAt, messageHash: n.messageHash }).get();
  return row && row.expiresAt > now ? { messageHash: row.messageHash } : null;
}
