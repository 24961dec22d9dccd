// Byte-level helpers for the vault: strict base64, the unambiguous length-prefixed MAC layout, and a
// constant-time comparison. Kept apart from the crypto so each piece is small and testable.
import { base64 } from "@scure/base";
import { VaultError } from "./errors";

const utf8 = new TextEncoder();

/** Standard padded base64 (what the encrypted_keys text columns hold). */
export const toBase64 = (bytes: Uint8Array): string => base64.encode(bytes);

/** Decodes a stored field, refusing anything that is not canonical base64 of exactly `length` bytes. */
export function fromBase64(text: unknown, length: number | ((n: number) => boolean)): Uint8Array {
  if (typeof text !== "string") throw new VaultError("malformed-record");
  let bytes: Uint8Array;
  try {
    bytes = base64.decode(text);
  } catch {
    throw new VaultError("malformed-record");
  }
  const ok = typeof length === "number" ? bytes.length === length : length(bytes.length);
  // Re-encoding must give the same text: no second spelling of the same bytes (e.g. stray trailing bits).
  if (!ok || base64.encode(bytes) !== text) throw new VaultError("malformed-record");
  return bytes;
}

export const utf8Bytes = (text: string): Uint8Array => utf8.encode(text);

/**
 * Concatenates fields as `u32be(length) || bytes` each. With every field length-prefixed, no two different
 * field tuples can produce the same byte string (e.g. address "ab"+ciphertext "c" vs "a"+"bc").
 */
export function lengthPrefixed(fields: readonly Uint8Array[]): Uint8Array {
  const total = fields.reduce((sum, f) => sum + 4 + f.length, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let offset = 0;
  for (const field of fields) {
    view.setUint32(offset, field.length, false);
    out.set(field, offset + 4);
    offset += 4 + field.length;
  }
  return out;
}

/**
 * Compares two byte strings in time that depends only on their lengths (which are public: a MAC is always
 * 32 bytes), never on where they first differ: @noble's equalBytes (@noble/hashes/utils has none in v2).
 */
export { equalBytes as constantTimeEqual } from "@noble/curves/utils.js";
