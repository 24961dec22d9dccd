// Ownership proof (docs/key-custody.md): a private key proves an address when it derives it: secp256k1 + keccak-256
// for Ethereum, Ed25519 for Solana. Accepts the formats wallets export and gives back one canonical form to
// store. Pure and synchronous, so it runs in the Worker, in scripts and in tests alike.
//
// Messages never contain the key or any part of it: they name the format that was expected instead.
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { equalBytes } from "@noble/curves/utils.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { base58 } from "@scure/base";
import { sameAddress, validateAddress } from "../../schema/address";
import type { Network } from "../../schema/db";
import { OWNERSHIP_MESSAGES } from "../../schema/listings";
import { keylessAddress } from "./keyless";

/** Longest key text looked at: a JSON array of 64 bytes with generous spacing is well under this. */
export const MAX_PRIVATE_KEY_LENGTH = 1024;

const HEX64_RE = /^(?:0x)?[0-9a-fA-F]{64}$/;
const HEX128_RE = /^(?:0x)?[0-9a-fA-F]{128}$/;
const BASE58_RE = /^[1-9A-HJ-NP-Za-km-z]+$/;

const FORMAT_HELP: Record<Network, string> = {
  ethereum: "expected 64 hexadecimal characters, with or without 0x",
  solana: "expected a base58 64-byte secret key, a base58 or hex 32-byte seed, or a JSON array of 64 or 32 bytes",
};

export class OwnershipError extends Error {
  override name = "OwnershipError";
}

const unrecognised = (network: Network) => new OwnershipError(`Unrecognised private key format for ${network}: ${FORMAT_HELP[network]}`);

/** Bytes of a hex text already checked by HEX64_RE / HEX128_RE (an optional 0x, then hex digits). */
const hexBytes = (text: string): Uint8Array => hexToBytes(text.startsWith("0x") ? text.slice(2) : text);

// ---- Ethereum -------------------------------------------------------------------------------------------

type Derived = { address: string; canonicalKey: string };

function deriveEthereum(key: string): Derived {
  if (!HEX64_RE.test(key)) throw unrecognised("ethereum");
  const secret = hexBytes(key);
  if (!secp256k1.utils.isValidSecretKey(secret)) throw new OwnershipError("Invalid Ethereum private key: it is outside the range of secp256k1 keys");
  const publicKey = secp256k1.getPublicKey(secret, false); // 0x04 || x || y
  const address = `0x${bytesToHex(keccak_256(publicKey.subarray(1)).subarray(12))}`;
  secret.fill(0);
  return { address, canonicalKey: `0x${(key.startsWith("0x") ? key.slice(2) : key).toLowerCase()}` };
}

// ---- Solana ---------------------------------------------------------------------------------------------

/** The 32-byte seed behind any accepted Solana format (checking a 64-byte key's embedded public key). */
function solanaSeed(key: string): Uint8Array {
  let bytes: Uint8Array | null = null;
  if (key.startsWith("[")) {
    bytes = jsonBytes(key);
  } else if (HEX64_RE.test(key) || HEX128_RE.test(key)) {
    bytes = hexBytes(key);
  } else if (BASE58_RE.test(key) && key.length <= 100) {
    try {
      bytes = base58.decode(key);
    } catch {
      bytes = null;
    }
  }
  if (!bytes || (bytes.length !== 32 && bytes.length !== 64)) throw unrecognised("solana");
  const seed = bytes.slice(0, 32);
  if (bytes.length === 64 && !equalBytes(ed25519.getPublicKey(seed), bytes.subarray(32))) {
    throw new OwnershipError("Invalid Solana secret key: its embedded public key does not match its seed");
  }
  bytes.fill(0);
  return seed;
}

function jsonBytes(text: string): Uint8Array | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || (parsed.length !== 32 && parsed.length !== 64)) return null;
  if (!parsed.every((n) => typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 255)) return null;
  return Uint8Array.from(parsed as number[]);
}

function deriveSolana(key: string): Derived {
  const seed = solanaSeed(key);
  const publicKey = ed25519.getPublicKey(seed);
  const secretKey = new Uint8Array(64);
  secretKey.set(seed);
  secretKey.set(publicKey, 32);
  const canonicalKey = base58.encode(secretKey);
  seed.fill(0);
  secretKey.fill(0);
  return { address: base58.encode(publicKey), canonicalKey };
}

// ---- the proof ------------------------------------------------------------------------------------------

function derive(network: Network, key: string): Derived {
  if (typeof key !== "string" || key.length > MAX_PRIVATE_KEY_LENGTH) throw unrecognised(network);
  const trimmed = key.trim();
  return network === "ethereum" ? deriveEthereum(trimmed) : deriveSolana(trimmed);
}

/**
 * The canonical stored form of a private key: Ethereum 0x + 64 lower-case hex; Solana base58 of the 64-byte
 * secret key (seed || public key), the form `solana-keygen` and wallets import. Throws OwnershipError.
 */
export function normalizePrivateKey(network: Network, key: string): string {
  return derive(network, key).canonicalKey;
}

export type OwnershipProof =
  | { verified: true; address: string; privateKey: string }
  | { verified: false; error: string; reason: "invalid-address" | "keyless-address" | "invalid-key" | "key-mismatch" };

/**
 * Checks that `key` derives `address` on `network`. On success gives the address in its normalized form
 * (EIP-55 for Ethereum) and the key in its canonical form, ready to seal; never throws for bad input.
 */
export function proveOwnership(network: Network, address: string, key: string): OwnershipProof {
  const checked = validateAddress(typeof address === "string" ? address : "", network);
  if (!checked.isValid) return { verified: false, error: checked.message, reason: "invalid-address" };
  // Checked before the key: a keyless address cannot be proven, and the seller should learn why, not "mismatch".
  const keyless = keylessAddress(checked.normalized, network);
  if (keyless) return { verified: false, error: `${keyless.message} It cannot be listed.`, reason: "keyless-address" };
  if (typeof key !== "string" || key.trim() === "") return { verified: false, error: OWNERSHIP_MESSAGES.keyRequired, reason: "invalid-key" };
  let derived: Derived;
  try {
    derived = derive(network, key);
  } catch (err) {
    if (err instanceof OwnershipError) return { verified: false, error: err.message, reason: "invalid-key" };
    // A library failure on odd input is still only "not a key we can read"; its text could quote the input.
    return { verified: false, error: unrecognised(network).message, reason: "invalid-key" };
  }
  if (!sameAddress(network, derived.address, checked.normalized)) return { verified: false, error: OWNERSHIP_MESSAGES.mismatch, reason: "key-mismatch" };
  return { verified: true, address: checked.normalized, privateKey: derived.canonicalKey };
}

/** The public answer of POST /api/addresses/verify-ownership: whether the key derives the address, and why not. */
export function verifyOwnership(network: Network, address: string, key: string): { verified: boolean; error?: string } {
  const proof = proveOwnership(network, address, key);
  return proof.verified ? { verified: true } : { verified: false, error: proof.error };
}
