// Ethereum V3 keystore ("Web3 Secret Storage"), the file MetaMask ("Import account" -> JSON file), geth
// (`geth account import` takes raw keys; `keystore/` takes this file) and most wallets read. Made in the
// browser: the private key and the password never leave the page.
//
// Format: version 3, crypto.cipher "aes-128-ctr" keyed by dk[0:16], crypto.kdf "scrypt",
// mac = keccak256(dk[16:32] ++ ciphertext). The password is used as its UTF-8 bytes without normalisation,
// as geth and MetaMask do, so a file made here opens with the same password there. Opening reads what the
// other tools write too (decryptKeystore); docs/security-parsers.md lists what it refuses.
import { ctr } from "@noble/ciphers/aes.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { scryptAsync } from "@noble/hashes/scrypt.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes, randomBytes, utf8ToBytes } from "@noble/hashes/utils.js";

export type KeystoreV3 = {
  version: 3;
  id: string;
  /** Lower-case hex without 0x, as geth writes it. */
  address: string;
  crypto: {
    cipher: "aes-128-ctr";
    cipherparams: { iv: string };
    ciphertext: string;
    kdf: "scrypt";
    kdfparams: { dklen: 32; n: number; r: number; p: number; salt: string };
    mac: string;
  };
};

/**
 * scrypt cost: N = 2^17, r = 8, p = 1 (128 MiB, ethers' default). geth's "standard" 2^18 needs 256 MiB,
 * which a phone's browser tab may refuse; 2^17 still costs an attacker about a second per guess on a CPU.
 */
export const KEYSTORE_SCRYPT = { n: 131072, r: 8, p: 1 } as const;

/** Shortest password we accept for a file that protects a key with money on it. */
export const MIN_KEYSTORE_PASSWORD = 8;

export class KeystoreError extends Error {
  override name = "KeystoreError";
}

const strip0x = (hex: string) => (hex.startsWith("0x") || hex.startsWith("0X") ? hex.slice(2) : hex);

/** The Ethereum address (lower-case hex, no 0x) of a 32-byte secp256k1 secret key. */
export function ethereumAddressOf(secret: Uint8Array): string {
  return bytesToHex(keccak_256(secp256k1.getPublicKey(secret, false).subarray(1)).subarray(12));
}

function macOf(derivedKey: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  const body = new Uint8Array(16 + ciphertext.length);
  body.set(derivedKey.subarray(16, 32));
  body.set(ciphertext, 16);
  return keccak_256(body);
}

function uuidV4(bytes: Uint8Array): string {
  const b = bytes.slice(0, 16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = bytesToHex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

type EncryptOptions = {
  /** Fixed salt, IV and id bytes, for reproducible tests only. */
  salt?: Uint8Array;
  iv?: Uint8Array;
  uuid?: Uint8Array;
  scrypt?: { n: number; r: number; p: number };
  onProgress?: (fraction: number) => void;
};

/** Encrypts a 0x-hex (or bare hex) Ethereum private key into a V3 keystore under `password`. */
export async function encryptKeystore(privateKeyHex: string, password: string, opts: EncryptOptions = {}): Promise<KeystoreV3> {
  const hex = strip0x(privateKeyHex.trim());
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new KeystoreError("The private key is not 64 hexadecimal characters.");
  if (password.length < MIN_KEYSTORE_PASSWORD) throw new KeystoreError(`Choose a password of at least ${MIN_KEYSTORE_PASSWORD} characters.`);
  const secret = hexToBytes(hex);
  if (!secp256k1.utils.isValidSecretKey(secret)) throw new KeystoreError("The private key is outside the range of secp256k1 keys.");
  const { n, r, p } = opts.scrypt ?? KEYSTORE_SCRYPT;
  const salt = opts.salt ?? randomBytes(32);
  const iv = opts.iv ?? randomBytes(16);
  const dk = await scryptAsync(utf8ToBytes(password), salt, { N: n, r, p, dkLen: 32, onProgress: opts.onProgress });
  const ciphertext = ctr(dk.slice(0, 16), iv).encrypt(secret);
  const keystore: KeystoreV3 = {
    version: 3,
    id: uuidV4(opts.uuid ?? randomBytes(16)),
    address: ethereumAddressOf(secret),
    crypto: {
      cipher: "aes-128-ctr",
      cipherparams: { iv: bytesToHex(iv) },
      ciphertext: bytesToHex(ciphertext),
      kdf: "scrypt",
      kdfparams: { dklen: 32, n, r, p, salt: bytesToHex(salt) },
      mac: bytesToHex(macOf(dk, ciphertext)),
    },
  };
  secret.fill(0);
  dk.fill(0);
  return keystore;
}

// ---- opening a keystore ------------------------------------------------------------------------------------

/**
 * Bounds on what a file may ask this page to compute, so a hostile or damaged file cannot make the browser
 * spin for minutes or allocate gigabytes. Every file geth, MetaMask, ethers and ethereumjs write by default
 * is inside them: geth's "standard" scrypt (N = 2^18, r = 8, p = 1) is 256 MiB and 2^21 units of work.
 */
export const KEYSTORE_LIMITS = {
  /** scrypt's memory, 128 x N x r bytes. */
  scryptMemoryBytes: 256 * 1024 * 1024,
  /** scrypt's work, N x r x p (twice geth's standard). */
  scryptWork: 2 ** 22,
  /** PBKDF2-HMAC-SHA256 iterations (16 x geth's and ethereumjs's 262,144; Web Crypto does them natively). */
  pbkdf2Iterations: 2 ** 22,
} as const;

type KdfParams = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isPositiveInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

/** Hex bytes (with or without 0x) of a length within [min, max], or a KeystoreError naming the field. */
function hexField(value: unknown, field: string, min: number, max: number): Uint8Array {
  const hex = typeof value === "string" ? strip0x(value) : "";
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex) || hex.length / 2 < min || hex.length / 2 > max) {
    throw new KeystoreError(`The file is damaged: ${field} is not ${min === max ? `${min} bytes` : `${min} to ${max} bytes`} of hex.`);
  }
  return hexToBytes(hex.toLowerCase());
}

/** The file's crypto section: geth, MetaMask and ethereumjs write `crypto`, ethers writes `Crypto`. */
function cryptoSection(ks: Record<string, unknown>): Record<string, unknown> {
  const lower = ks.crypto;
  const upper = ks.Crypto;
  if (lower !== undefined && upper !== undefined)
    throw new KeystoreError("The file has both a crypto and a Crypto section; it is not a keystore any wallet wrote.");
  const section = lower ?? upper;
  if (!isObject(section)) throw new KeystoreError("Not a V3 keystore: the file has no crypto section.");
  return section;
}

/** The 32-byte derived key, after checking the parameters against KEYSTORE_LIMITS. */
async function deriveKey(kdf: unknown, params: KdfParams, password: Uint8Array, onProgress?: (fraction: number) => void): Promise<Uint8Array> {
  if (params.dklen !== 32) throw new KeystoreError(`Unsupported derived key length ${String(params.dklen)}: version 3 keystores use 32.`);
  const salt = hexField(params.salt, "the salt", 1, 1024);
  if (kdf === "scrypt") {
    const { n, r, p } = params;
    if (!isPositiveInt(n) || n < 2 || (n & (n - 1)) !== 0 || !isPositiveInt(r) || !isPositiveInt(p)) {
      throw new KeystoreError("The file is damaged: scrypt's n must be a power of two and r, p positive whole numbers.");
    }
    if (128 * n * r > KEYSTORE_LIMITS.scryptMemoryBytes || n * r * p > KEYSTORE_LIMITS.scryptWork) {
      throw new KeystoreError(
        `This file's scrypt settings (n=${n}, r=${r}, p=${p}) ask for more than this page computes: at most ${KEYSTORE_LIMITS.scryptMemoryBytes / 2 ** 20} MiB (128·n·r) and n·r·p up to 2^22. Open it in the wallet that made it.`,
      );
    }
    return scryptAsync(password, salt, { N: n, r, p, dkLen: 32, onProgress });
  }
  if (kdf === "pbkdf2") {
    if (params.prf !== "hmac-sha256")
      throw new KeystoreError(`Unsupported PBKDF2 function "${String(params.prf)}": only hmac-sha256 (what geth and ethereumjs write) opens here.`);
    const c = params.c;
    if (!isPositiveInt(c)) throw new KeystoreError("The file is damaged: PBKDF2's iteration count c is not a positive whole number.");
    if (c > KEYSTORE_LIMITS.pbkdf2Iterations)
      throw new KeystoreError(`This file's PBKDF2 iteration count (${c}) is more than this page computes (at most 2^22). Open it in the wallet that made it.`);
    const key = await crypto.subtle.importKey("raw", new Uint8Array(password), "PBKDF2", false, ["deriveBits"]);
    const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: new Uint8Array(salt), iterations: c }, key, 256);
    onProgress?.(1);
    return new Uint8Array(bits);
  }
  throw new KeystoreError(`Unsupported key derivation "${String(kdf)}": only scrypt and pbkdf2 (hmac-sha256) keystores open here.`);
}

/**
 * Opens a version 3 keystore (Web3 Secret Storage) as geth, MetaMask, ethers and ethereumjs write it: the
 * crypto section spelled `crypto` or `Crypto`, scrypt or PBKDF2-HMAC-SHA256, AES-128-CTR. Answers the private
 * key as 0x-hex. A wrong password fails the MAC check (the key is never decrypted with a wrong password);
 * anything else unsupported or out of KEYSTORE_LIMITS is a KeystoreError that names it.
 */
export async function decryptKeystore(keystore: unknown, password: string, opts: { onProgress?: (fraction: number) => void } = {}): Promise<string> {
  if (!isObject(keystore)) throw new KeystoreError("Not a keystore file: expected a JSON object.");
  if (keystore.version !== 3)
    throw new KeystoreError(`Unsupported keystore version ${JSON.stringify(keystore.version) ?? "(none)"}: only version 3 files open here.`);
  const c = cryptoSection(keystore);
  if (c.cipher !== "aes-128-ctr")
    throw new KeystoreError(`Unsupported cipher "${String(c.cipher)}": only aes-128-ctr (what geth, MetaMask, ethers and ethereumjs write) opens here.`);
  if (!isObject(c.kdfparams)) throw new KeystoreError("The file is damaged: it has no kdfparams.");
  const iv = hexField(isObject(c.cipherparams) ? c.cipherparams.iv : undefined, "the IV", 16, 16);
  // geth writes keys with leading zero bytes dropped (its 31- and 30-byte test vectors); nothing is longer.
  const ciphertext = hexField(c.ciphertext, "the ciphertext", 1, 32);
  const mac = hexField(c.mac, "the MAC", 32, 32);
  const dk = await deriveKey(c.kdf, c.kdfparams, utf8ToBytes(password), opts.onProgress);
  if (bytesToHex(macOf(dk, ciphertext)) !== bytesToHex(mac)) throw new KeystoreError("Wrong password, or the file is damaged.");
  const secret = new Uint8Array(32);
  secret.set(ctr(dk.slice(0, 16), iv).decrypt(ciphertext), 32 - ciphertext.length);
  dk.fill(0);
  if (!secp256k1.utils.isValidSecretKey(secret)) throw new KeystoreError("The file decrypts to a number that is not a secp256k1 private key.");
  if (keystore.address !== undefined) {
    const claimed = typeof keystore.address === "string" ? strip0x(keystore.address).toLowerCase() : "";
    if (claimed !== ethereumAddressOf(secret))
      throw new KeystoreError("The file's address does not belong to the key inside it; the file is damaged or was edited.");
  }
  const hex = `0x${bytesToHex(secret)}`;
  secret.fill(0);
  return hex;
}

/** geth's file name for a keystore: UTC--<ISO time with dashes>--<address>. */
export function keystoreFileName(address: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/:/g, "-");
  return `UTC--${stamp}--${strip0x(address).toLowerCase()}.json`;
}
