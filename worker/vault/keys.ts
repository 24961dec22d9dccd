// Per-record key derivation and the record MAC (docs/key-custody.md).
//
// From KEY_ENCRYPTION_SECRET and the record's random salt, HKDF-SHA256 derives two independent subkeys,
// separated by their `info` labels: an AES-KW key-encryption key that wraps the record's data key, and an
// HMAC-SHA256 key for the record MAC. Keying the MAC from the secret (not from the data key) lets the tag be
// checked before anything at all is unwrapped or decrypted, and makes "wrong secret" fail at that first check.
import { VaultError } from "./errors";
import { lengthPrefixed, utf8Bytes } from "./encoding";

export const SALT_BYTES = 32;
export const IV_BYTES = 16;
/** AES-KW output for a 32-byte data key: the key plus the 8-byte integrity block. */
export const WRAPPED_KEY_BYTES = 40;
export const MAC_BYTES = 32;
/** Secrets shorter than this are refused (same floor as worker/deployment/secrets.ts's requireSecrets). */
export const MIN_SECRET_LENGTH = 32;

const INFO_KEY_WRAP = utf8Bytes("vanity-market vault v1 key-wrap");
const INFO_MAC = utf8Bytes("vanity-market vault v1 record-mac");
/** First MAC field: domain separation from any other HMAC this secret might ever key. */
const MAC_LABEL = utf8Bytes("vanity-market vault v1 encrypted-key-record");

/** Everything the MAC binds together. Moving any part to another row, or changing it, breaks the tag. */
export type MacFields = {
  keyVersion: number;
  listingId: number;
  address: string;
  salt: Uint8Array;
  iv: Uint8Array;
  wrappedKey: Uint8Array;
  ciphertext: Uint8Array;
};

export function assertSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) throw new VaultError("invalid-input");
}

/** Runs a Web Crypto step, turning any failure into a message-free VaultError. */
export async function guarded<T>(step: () => Promise<T>, code: "crypto-failure" | "authentication-failed" = "crypto-failure"): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof VaultError) throw err;
    throw new VaultError(code);
  }
}

// Parameter types taken from the runtime's own declaration, so this file checks under both the Workers
// and the Node type libraries (the rotation script runs it in Node).
type DerivedKeyAlgorithm = Parameters<typeof crypto.subtle.deriveKey>[2];
type Usages = Parameters<typeof crypto.subtle.deriveKey>[4];

async function hkdf(secret: string, salt: Uint8Array, info: Uint8Array, algorithm: DerivedKeyAlgorithm, usages: Usages) {
  const base = await crypto.subtle.importKey("raw", utf8Bytes(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt, info }, base, algorithm, false, usages);
}

/** The key-encryption key for one record: AES-256-KW. */
export const deriveWrappingKey = (secret: string, salt: Uint8Array) =>
  guarded(() => hkdf(secret, salt, INFO_KEY_WRAP, { name: "AES-KW", length: 256 }, ["wrapKey", "unwrapKey"]));

/** The MAC key for one record: HMAC-SHA256 with a 256-bit key. */
export const deriveMacKey = (secret: string, salt: Uint8Array) =>
  guarded(() => hkdf(secret, salt, INFO_MAC, { name: "HMAC", hash: "SHA-256", length: 256 }, ["sign"]));

/** The exact bytes the MAC covers, every field length-prefixed in a fixed order. */
export function macInput(f: MacFields): Uint8Array {
  return lengthPrefixed([
    MAC_LABEL,
    utf8Bytes(String(f.keyVersion)),
    utf8Bytes(String(f.listingId)),
    utf8Bytes(f.address),
    f.salt,
    f.iv,
    f.wrappedKey,
    f.ciphertext,
  ]);
}

export async function computeMac(secret: string, fields: MacFields): Promise<Uint8Array> {
  const key = await deriveMacKey(secret, fields.salt);
  return guarded(async () => new Uint8Array(await crypto.subtle.sign("HMAC", key, macInput(fields))));
}
