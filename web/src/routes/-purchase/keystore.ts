// Ethereum V3 keystore ("Web3 Secret Storage"), the file MetaMask ("Import account" -> JSON file), geth
// (`geth account import` takes raw keys; `keystore/` takes this file) and most wallets read. Made in the
// browser: the private key and the password never leave the page.
//
// Format: version 3, crypto.cipher "aes-128-ctr" keyed by dk[0:16], crypto.kdf "scrypt",
// mac = keccak256(dk[16:32] ++ ciphertext). The password is used as its UTF-8 bytes without normalisation,
// as geth and MetaMask do, so a file made here opens with the same password there.
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

/**
 * Opens a V3 scrypt keystore: the private key as 0x-hex. A wrong password fails the MAC check (the key is
 * never decrypted with a wrong password). Used by the tests to prove a file made here opens again, and
 * against geth's published test vector.
 */
export async function decryptKeystore(keystore: unknown, password: string): Promise<string> {
  const ks = keystore as Partial<KeystoreV3> | null;
  const c = ks?.crypto;
  if (!ks || ks.version !== 3 || !c || c.kdf !== "scrypt" || c.cipher !== "aes-128-ctr") throw new KeystoreError("Not a V3 scrypt / aes-128-ctr keystore.");
  const { n, r, p, dklen, salt } = c.kdfparams;
  if (dklen !== 32) throw new KeystoreError("Unsupported derived key length.");
  const dk = await scryptAsync(utf8ToBytes(password), hexToBytes(salt), { N: n, r, p, dkLen: 32 });
  const ciphertext = hexToBytes(c.ciphertext);
  if (bytesToHex(macOf(dk, ciphertext)) !== c.mac.toLowerCase()) throw new KeystoreError("Wrong password, or the file is damaged (MAC mismatch).");
  const secret = ctr(dk.slice(0, 16), hexToBytes(c.cipherparams.iv)).decrypt(ciphertext);
  dk.fill(0);
  return `0x${bytesToHex(secret)}`;
}

/** geth's file name for a keystore: UTC--<ISO time with dashes>--<address>. */
export function keystoreFileName(address: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/:/g, "-");
  return `UTC--${stamp}--${strip0x(address).toLowerCase()}.json`;
}
