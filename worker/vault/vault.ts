// The key vault (docs/key-custody.md): envelope encryption of listing private keys.
//
//   data key  DK  = 32 random bytes, one per record (an AES-256-CBC key)
//   ciphertext    = AES-256-CBC(DK, random 16-byte iv, UTF-8 private key), PKCS#7 padded
//   wrappedKey    = AES-KW(KEK, DK)        KEK    = HKDF-SHA256(secret, salt, "…key-wrap")
//   mac           = HMAC-SHA256(MK, lp(label, keyVersion, listingId, address, salt, iv, wrappedKey, ciphertext))
//                                          MK     = HKDF-SHA256(secret, salt, "…record-mac")
// lp = each field u32 length-prefixed. Opening checks the MAC in constant time first; only an authentic
// record is unwrapped and decrypted. Rotation re-wraps DK under a new secret and never decrypts the key.
import { VaultError } from "./errors";
import { constantTimeEqual, fromBase64, toBase64, utf8Bytes } from "./encoding";
import { assertSecret, computeMac, deriveWrappingKey, guarded, IV_BYTES, MAC_BYTES, type MacFields, SALT_BYTES, WRAPPED_KEY_BYTES } from "./keys";

/** The stored form, field for field the encrypted_keys columns (all byte fields are base64 text). */
export type EncryptedKeyRecord = {
  encryptedPrivateKey: string;
  salt: string;
  iv: string;
  wrappedKey: string;
  mac: string;
  keyVersion: number;
};

/** The row a record belongs to; the MAC binds the record to exactly this listing id and address. */
export type RecordBinding = { listingId: number; address: string };

export const INITIAL_KEY_VERSION = 1;
/** Private keys are short (a normalised Solana secret key is 88 characters); this bounds the work. */
export const MAX_PRIVATE_KEY_BYTES = 2048;
const MAX_CIPHERTEXT_BYTES = MAX_PRIVATE_KEY_BYTES + 16;
const MAX_ADDRESS_LENGTH = 256;
const MAX_KEY_VERSION = 2 ** 31 - 1;

const isVersion = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 1 && (n as number) <= MAX_KEY_VERSION;

function assertBinding(b: RecordBinding) {
  if (!Number.isSafeInteger(b.listingId) || b.listingId < 1) throw new VaultError("invalid-input");
  if (typeof b.address !== "string" || b.address.length === 0 || b.address.length > MAX_ADDRESS_LENGTH) throw new VaultError("invalid-input");
}

/** Decodes and length-checks every field of a stored record; binds it to `binding` for the MAC. */
function parseRecord(record: EncryptedKeyRecord, binding: RecordBinding): MacFields & { mac: Uint8Array } {
  assertBinding(binding);
  if (record === null || typeof record !== "object" || !isVersion(record.keyVersion)) throw new VaultError("malformed-record");
  return {
    keyVersion: record.keyVersion,
    listingId: binding.listingId,
    address: binding.address,
    salt: fromBase64(record.salt, SALT_BYTES),
    iv: fromBase64(record.iv, IV_BYTES),
    wrappedKey: fromBase64(record.wrappedKey, WRAPPED_KEY_BYTES),
    ciphertext: fromBase64(record.encryptedPrivateKey, (n) => n >= 16 && n <= MAX_CIPHERTEXT_BYTES && n % 16 === 0),
    mac: fromBase64(record.mac, MAC_BYTES),
  };
}

async function isAuthentic(secret: string, fields: MacFields & { mac: Uint8Array }): Promise<boolean> {
  return constantTimeEqual(await computeMac(secret, fields), fields.mac);
}

function toRecord(f: MacFields, mac: Uint8Array): EncryptedKeyRecord {
  return {
    encryptedPrivateKey: toBase64(f.ciphertext),
    salt: toBase64(f.salt),
    iv: toBase64(f.iv),
    wrappedKey: toBase64(f.wrappedKey),
    mac: toBase64(mac),
    keyVersion: f.keyVersion,
  };
}

/** Wraps `dataKey` under a fresh salt and `secret`, and MACs the whole record. */
async function wrapAndSeal(secret: string, dataKey: CryptoKey, base: Omit<MacFields, "salt" | "wrappedKey">): Promise<EncryptedKeyRecord> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const kek = await deriveWrappingKey(secret, salt);
  const wrappedKey = await guarded(async () => new Uint8Array(await crypto.subtle.wrapKey("raw", dataKey, kek, "AES-KW")));
  const fields: MacFields = { ...base, salt, wrappedKey };
  return toRecord(fields, await computeMac(secret, fields));
}

/** Unwraps the data key of an authenticated record (extractable only when it must be re-wrapped). */
async function unwrapDataKey(secret: string, f: MacFields, extractable: boolean): Promise<CryptoKey> {
  const kek = await deriveWrappingKey(secret, f.salt);
  return guarded(() => crypto.subtle.unwrapKey("raw", f.wrappedKey, kek, "AES-KW", { name: "AES-CBC", length: 256 }, extractable, ["decrypt"]));
}

/** Encrypts a private key for one listing. `privateKey` should already be in its canonical storage form. */
export async function sealKey(input: RecordBinding & { secret: string; privateKey: string; keyVersion?: number }): Promise<EncryptedKeyRecord> {
  const { secret, listingId, address, privateKey, keyVersion = INITIAL_KEY_VERSION } = input;
  assertSecret(secret);
  assertBinding({ listingId, address });
  if (!isVersion(keyVersion) || typeof privateKey !== "string") throw new VaultError("invalid-input");
  const plaintext = utf8Bytes(privateKey);
  if (plaintext.length === 0 || plaintext.length > MAX_PRIVATE_KEY_BYTES) throw new VaultError("invalid-input");

  const dataKey = await guarded(async () => (await crypto.subtle.generateKey({ name: "AES-CBC", length: 256 }, true, ["encrypt"])) as CryptoKey);
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ciphertext = await guarded(async () => new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv }, dataKey, plaintext)));
  plaintext.fill(0); // best effort: the bytes we own do not outlive the call
  return wrapAndSeal(secret, dataKey, { keyVersion, listingId, address, iv, ciphertext });
}

/**
 * True when the record is authentic under `secret` for this listing: the MAC alone, nothing unwrapped or
 * decrypted. Malformed records are simply not authentic.
 */
export async function isSealedUnder(input: RecordBinding & { secret: string; record: EncryptedKeyRecord }): Promise<boolean> {
  assertSecret(input.secret);
  let fields;
  try {
    fields = parseRecord(input.record, input);
  } catch (err) {
    if (err instanceof VaultError && err.code === "malformed-record") return false;
    throw err;
  }
  return isAuthentic(input.secret, fields);
}

/**
 * Decrypts a listing's private key. `secret` may list several secrets (the current one and, during a
 * rotation, the previous one); the MAC decides which one sealed the record. Throws VaultError otherwise.
 */
export async function openKey(input: RecordBinding & { secret: string | readonly string[]; record: EncryptedKeyRecord }): Promise<string> {
  const secrets = typeof input.secret === "string" ? [input.secret] : input.secret;
  if (secrets.length === 0) throw new VaultError("invalid-input");
  secrets.forEach(assertSecret);
  const fields = parseRecord(input.record, input);

  let sealedWith: string | undefined;
  for (const secret of secrets) {
    if (await isAuthentic(secret, fields)) {
      sealedWith = secret;
      break;
    }
  }
  if (sealedWith === undefined) throw new VaultError("authentication-failed");

  const dataKey = await unwrapDataKey(sealedWith, fields, false);
  const plaintext = await guarded(async () => new Uint8Array(await crypto.subtle.decrypt({ name: "AES-CBC", iv: fields.iv }, dataKey, fields.ciphertext)));
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(plaintext);
  } catch {
    throw new VaultError("crypto-failure");
  } finally {
    plaintext.fill(0);
  }
}

/**
 * Re-wraps a record's data key under `newSecret` with a fresh salt, stamping `keyVersion` (default: one
 * more than the record's) and re-computing the MAC. The ciphertext and iv are unchanged: the private key is
 * never decrypted, and the data key exists only as a CryptoKey that this code never exports.
 */
export async function rewrapKey(
  input: RecordBinding & { record: EncryptedKeyRecord; oldSecret: string; newSecret: string; keyVersion?: number },
): Promise<EncryptedKeyRecord> {
  assertSecret(input.oldSecret);
  assertSecret(input.newSecret);
  const fields = parseRecord(input.record, input);
  const keyVersion = input.keyVersion ?? fields.keyVersion + 1;
  if (!isVersion(keyVersion)) throw new VaultError("invalid-input");
  if (!(await isAuthentic(input.oldSecret, fields))) throw new VaultError("authentication-failed");

  const dataKey = await unwrapDataKey(input.oldSecret, fields, true);
  return wrapAndSeal(input.newSecret, dataKey, {
    keyVersion,
    listingId: fields.listingId,
    address: fields.address,
    iv: fields.iv,
    ciphertext: fields.ciphertext,
  });
}
