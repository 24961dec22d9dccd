// Sign-in nonces (DESIGN §4): 128 random bits from crypto.getRandomValues, stored with a 10-minute TTL and
// consumed once. Consumption happens in the same D1 batch as the session insert (see session.ts), so a
// replayed signature finds its nonce gone.
import { and, eq, gt } from "drizzle-orm";
import { authNonces } from "../../schema/db";
import type { Db } from "../db";

export const NONCE_TTL_MS = 10 * 60 * 1000;
/** 16 bytes: 128 bits, above the 96 the design asks for. Hex keeps it alphanumeric, as EIP-4361 requires. */
export const NONCE_BYTES = 16;

export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function issueNonce(db: Db, now: number): Promise<{ nonce: string; issuedAt: number; expiresAt: number }> {
  const nonce = newNonce();
  const expiresAt = now + NONCE_TTL_MS;
  await db.insert(authNonces).values({ nonce, expiresAt, createdAt: now });
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
