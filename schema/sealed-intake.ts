// Sealed intake: how a grinder hands a found key to the marketplace without the key ever being plain text
// outside the grinding process and the Worker (docs/key-custody.md#sealed-intake). The Worker publishes an
// X25519 intake public key; the grinder seals each verified row to it with HPKE (RFC 9180, base mode,
// DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM, through @hpke/core) and sends only the sealed row.
// Shared by the Worker (opening) and the grinder (sealing), so both use one suite and one info string.
import { Aes256Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256 } from "@hpke/core";
import { base64urlnopad } from "@scure/base";

/** The HPKE suite, as the intake key's answer names it. */
export const INTAKE_SUITE = "DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM";

/** Rows per POST /api/admin/addresses/sealed request. */
export const SEALED_MAX_ROWS = 100;
/** The longest ciphertext accepted, in base64url characters: a bulk row's cells at their longest, plus the tag. */
export const SEALED_MAX_CIPHERTEXT = 2048;

export function intakeSuite(): CipherSuite {
  return new CipherSuite({ kem: new DhkemX25519HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
}

/** HPKE info: binds a seal to this use and to the intake key it was made for. */
export const intakeInfo = (keyId: string): Uint8Array<ArrayBuffer> => Uint8Array.from(new TextEncoder().encode(`vanity-market sealed intake v1 ${keyId}`));

/** GET /api/admin/intake-key answer. */
export type IntakeKeyResponse = {
  suite: typeof INTAKE_SUITE;
  /** the first 16 hex digits of SHA-256 of the public key: names the key in each sealed row */
  keyId: string;
  /** the 32-byte X25519 public key, base64url without padding */
  publicKey: string;
};

/** One sealed row as sent: the key it is sealed for, HPKE's enc (the sender's one-time public key) and the ciphertext. */
export type SealedRow = { keyId: string; enc: string; ciphertext: string };

/** What a sealed row holds once opened: one bulk-upload row (the CSV's five columns). */
export type IntakePlainRow = { address: string; private_key: string; platform: string; pattern_type: string; pattern_matched: string };

export const toBase64Url = (bytes: Uint8Array): string => base64urlnopad.encode(bytes);

/** Strict base64url without padding: null for anything else, or for another length than `length`. */
export function fromBase64Url(text: string, length?: number): Uint8Array<ArrayBuffer> | null {
  let bytes: Uint8Array;
  try {
    bytes = base64urlnopad.decode(text);
  } catch {
    return null;
  }
  if ((length !== undefined && bytes.length !== length) || base64urlnopad.encode(bytes) !== text) return null;
  return Uint8Array.from(bytes);
}

/** The id of an intake public key: the first 16 hex digits of its SHA-256. */
export async function intakeKeyId(publicKey: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", publicKey));
  return [...digest.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Seals one row to the intake key. The key's answer is checked first (its id must be its public key's), so a
 * grinder never seals to a key that names itself falsely.
 */
export async function sealIntakeRow(key: IntakeKeyResponse, row: IntakePlainRow): Promise<SealedRow> {
  if (key.suite !== INTAKE_SUITE) throw new Error(`the intake key uses ${JSON.stringify(key.suite)}, not ${INTAKE_SUITE}`);
  const raw = fromBase64Url(key.publicKey, 32);
  if (!raw || (await intakeKeyId(raw)) !== key.keyId) throw new Error("the intake key's id does not match its public key");
  const suite = intakeSuite();
  const recipientPublicKey = await suite.kem.deserializePublicKey(raw.buffer);
  const plain = new TextEncoder().encode(
    JSON.stringify({
      address: row.address,
      private_key: row.private_key,
      platform: row.platform,
      pattern_type: row.pattern_type,
      pattern_matched: row.pattern_matched,
    }),
  );
  const { enc, ct } = await suite.seal({ recipientPublicKey, info: intakeInfo(key.keyId) }, plain);
  plain.fill(0);
  return { keyId: key.keyId, enc: toBase64Url(new Uint8Array(enc)), ciphertext: toBase64Url(new Uint8Array(ct)) };
}
