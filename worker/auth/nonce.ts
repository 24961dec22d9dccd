// Sign-in nonces (docs/sign-in.md), stateless: issuing one writes nothing, so no number of clients asking for nonces can
// fill a table that everyone's sign-in needs (docs/sign-in.md#nonces). A nonce is 128 random bits from
// crypto.getRandomValues, its expiry, and an HMAC-SHA256 (under a key derived from SESSION_SECRET) over both and the
// SHA-256 of the exact message issued with it: the server recognises its own nonces, and the one text it issued
// for each, without having stored either. Only used nonces are stored, until they expire, to refuse a replay; a
// verify attempt uses its nonce up before any signature work, so one nonce buys at most one verification.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { lte, sql } from "drizzle-orm";
import { usedSignInNonces } from "../../schema/db";
import { bare, columnList, createDb, writeBatch } from "../db/database";

export const NONCE_TTL_MS = 10 * 60 * 1000;
/** 16 bytes: 128 bits, above the 96 the design asks for. Hex keeps the nonce alphanumeric, as EIP-4361 requires. */
export const NONCE_BYTES = 16;
/** The expiry, in milliseconds, as 12 hex digits (enough until the year 10889). */
const EXPIRY_DIGITS = 12;
/** The HMAC kept in the nonce: its first 16 bytes (128 bits; a forger must guess them). */
const TAG_BYTES = 16;
const RANDOM_DIGITS = NONCE_BYTES * 2;
const BODY_DIGITS = RANDOM_DIGITS + EXPIRY_DIGITS;
/** A nonce this server issues: random, expiry and tag, 76 lower-case hex digits. */
export const NONCE_PATTERN = new RegExp(`^[0-9a-f]{${BODY_DIGITS + TAG_BYTES * 2}}$`);

/** Sign-in nonces one client network may request per window (a person needs one or two). */
export const NONCE_RATE_LIMIT = { limit: 30, windowMs: 60_000 } as const;
/**
 * Sign-in verifications one client network may attempt per window: as many as nonces it may request. Each attempt
 * on the text issued for a live nonce uses it up, so together the two bound the contract-wallet eth_calls a client
 * can cause, and the used nonces it can make us store.
 */
export const VERIFY_RATE_LIMIT = { limit: 30, windowMs: 60_000 } as const;
/**
 * Sign-ins one returning buyer's wallet may complete per window once its client network is past VERIFY_RATE_LIMIT
 * (docs/sign-in.md#returning-buyers). Counted only after the wallet's own key signed, so no one else can use it up.
 */
export const RETURNING_SIGN_IN_LIMIT = { limit: 10, windowMs: 60_000 } as const;

/** 128 random bits as 32 hex digits: the nonce's unpredictable part, and what a used nonce is stored as. */
export function newNonce(): string {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(NONCE_BYTES)));
}

/** SHA-256 of a message's UTF-8 bytes, as hex: what the nonce's HMAC covers of the message issued with it. */
export function messageHash(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

const keys = new Map<string, Promise<CryptoKey>>();
/** The nonce key: HMAC-SHA256(SESSION_SECRET, a fixed label), so it is not the key sessions are hashed with. */
function nonceKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = (async () => {
      const enc = new TextEncoder();
      const master = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      const derived = await crypto.subtle.sign("HMAC", master, enc.encode("vanity-market sign-in nonces v1"));
      return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    })();
    keys.set(secret, key);
  }
  return key;
}

/** The tag of a nonce body (random and expiry) issued with `template`: the message with the body as its nonce. */
async function tagOf(secret: string, body: string, template: string): Promise<Uint8Array> {
  const mac = await crypto.subtle.sign("HMAC", await nonceKey(secret), new TextEncoder().encode(`${body}\n${messageHash(template)}`));
  return new Uint8Array(mac, 0, TAG_BYTES);
}

export type IssuedNonce = { nonce: string; issuedAt: number; expiresAt: number };

/**
 * A fresh nonce and what `write` issues with it; stores nothing. `write` is called twice: once with the nonce's
 * body (random and expiry) in place of the nonce, whose text the tag covers, then with the whole nonce.
 */
export async function issueNonce<T extends { issuedText: string }>(secret: string, now: number, write: (issued: IssuedNonce) => T): Promise<T> {
  const expiresAt = now + NONCE_TTL_MS;
  const body = newNonce() + expiresAt.toString(16).padStart(EXPIRY_DIGITS, "0");
  const tag = await tagOf(secret, body, write({ nonce: body, issuedAt: now, expiresAt }).issuedText);
  return write({ nonce: body + bytesToHex(tag), issuedAt: now, expiresAt });
}

/** A nonce as read from a message: well formed and not yet expired (whether it is ours, `isIssued` says). */
export type PresentedNonce = { nonce: string; random: string; body: string; expiresAt: number };

/** The nonce a message names, or null when it cannot be one of ours or has expired. */
export function readNonce(nonce: string, now: number): PresentedNonce | null {
  if (!NONCE_PATTERN.test(nonce)) return null;
  const body = nonce.slice(0, BODY_DIGITS);
  const expiresAt = Number.parseInt(body.slice(RANDOM_DIGITS), 16);
  // Only the lower bound: the expiry is covered by the tag, so a later one cannot be forged (isIssued), and another
  // isolate's clock a little ahead of ours must not make its fresh nonce look too new.
  if (!(expiresAt > now)) return null;
  return { nonce, random: body.slice(0, RANDOM_DIGITS), body, expiresAt };
}

/**
 * Whether one of `texts` is exactly the message issued with this nonce: the text with the nonce's body in place
 * of the nonce carries the nonce's tag. The nonce must be on one line of its own ("Nonce: ..."), once.
 */
export async function isIssued(secret: string, n: PresentedNonce, texts: readonly string[]): Promise<boolean> {
  const presented = hexToBytes(n.nonce.slice(BODY_DIGITS));
  for (const text of texts) {
    const lines = text.split("\n");
    const at = lines.flatMap((line, i) => (line === `Nonce: ${n.nonce}` ? [i] : []));
    if (at.length !== 1) continue;
    lines[at[0]] = `Nonce: ${n.body}`;
    const expected = await tagOf(secret, n.body, lines.join("\n"));
    // Compared in constant time: every byte is looked at whatever the first difference.
    let diff = 0;
    for (let i = 0; i < TAG_BYTES; i++) diff |= expected[i] ^ presented[i];
    if (diff === 0) return true;
  }
  return false;
}

/**
 * Uses the nonce up: true the first time, false for every later attempt (one INSERT ... ON CONFLICT DO NOTHING,
 * so of two requests carrying one nonce only one gets it). Used nonces past their expiry are dropped in the same
 * batch (and by the cron job): after it, the nonce is refused as expired anyway.
 */
export async function spendNonce(d1: D1Database, n: PresentedNonce, now: number): Promise<boolean> {
  const db = createDb(d1);
  const u = usedSignInNonces;
  const [, inserted] = await writeBatch(db, [
    db.delete(u).where(lte(u.expiresAt, now)),
    sql`INSERT INTO ${u} ${columnList(u.nonce, u.expiresAt)} VALUES (${n.random}, ${n.expiresAt}) ON CONFLICT DO NOTHING RETURNING ${bare(u.nonce)}`,
  ]);
  return inserted.results.length === 1;
}
