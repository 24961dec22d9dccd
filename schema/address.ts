// Address detection and validation, shared by the browser and the Worker. Pure functions, no I/O.
// The browser mostly needs the detection rules (cheap string checks); validation pulls in viem's EIP-55
// checksum (keccak-256) and ed25519 point decoding (Solana on-curve check), which bundlers drop when only
// the detection functions are imported (the @noble packages are side-effect free).
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { checksumAddress } from "viem";
import type { Network } from "./db";

/** Bitcoin/Solana base58 digits in value order: no 0, O, I or l. */
export const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/** Hex digits in value order (lower case; Ethereum addresses accept either case). */
export const HEX_CHARS = "0123456789abcdef";

const ETHEREUM_RE = /^0x[0-9a-fA-F]{40}$/;
const BASE58_RE = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export type AddressType = Network | "unknown";

export { sameAddress } from "./same-address";

/** Client-side type detection: 0x + 40 hex -> ethereum; 32 to 44 base58 characters -> solana. */
export function detectAddressType(s: string): AddressType {
  if (ETHEREUM_RE.test(s)) return "ethereum";
  if (BASE58_RE.test(s)) return "solana";
  return "unknown";
}

/**
 * The checker's network guess: starts with 0x and is 42 characters -> ethereum; no 0x and 32 to
 * 44 characters -> solana; anything else -> ethereum (the server then says why it is invalid).
 */
export function guessNetwork(s: string): Network {
  const hasPrefix = s.startsWith("0x");
  if (hasPrefix && s.length === 42) return "ethereum";
  if (!hasPrefix && s.length >= 32 && s.length <= 44) return "solana";
  return "ethereum";
}

export type FormNetwork = { network: "ethereum"; currency: "ETH" } | { network: "solana"; currency: "SOL" };

/**
 * The listing form's auto-detect: starts with 0x and is 40 to 44
 * characters long -> ethereum/ETH; 32 to 44 characters without 0x -> solana/SOL; otherwise no guess.
 */
export function detectNetworkForForm(s: string): FormNetwork | null {
  const hasPrefix = s.startsWith("0x");
  if (hasPrefix && s.length >= 40 && s.length <= 44) return { network: "ethereum", currency: "ETH" };
  if (!hasPrefix && s.length >= 32 && s.length <= 44) return { network: "solana", currency: "SOL" };
  return null;
}

export type AddressValidation = { isValid: true; network: Network; normalized: string } | { isValid: false; message: string };

const invalid = (message: string): AddressValidation => ({ isValid: false, message });

/**
 * Validates an address for the given network.
 * - Ethereum: 0x + 40 hex characters. An all-lower-case or all-upper-case body carries no checksum and is
 *   accepted; a mixed-case body must carry a correct EIP-55 checksum. `normalized` is the checksummed form.
 * - Solana: base58, decoding to exactly 32 bytes that are a point on the Ed25519 curve. Off-curve
 *   addresses are program-derived: no private key exists, so they cannot be sold. `normalized` is the input.
 */
export function validateAddress(address: string, network: Network): AddressValidation {
  const s = address.trim();
  if (s === "") return invalid("Please enter an address");
  return network === "ethereum" ? validateEthereum(s) : validateSolana(s);
}

function validateEthereum(s: string): AddressValidation {
  if (!s.startsWith("0x")) return invalid("An Ethereum address starts with 0x followed by 40 hexadecimal characters");
  const body = s.slice(2);
  for (let i = 0; i < body.length; i++) {
    if (!isHexCode(body.charCodeAt(i))) {
      return invalid(`An Ethereum address contains only hexadecimal characters (0-9, a-f); found "${body[i]}" at position ${i + 3}`);
    }
  }
  if (body.length !== 40) {
    return invalid(`An Ethereum address is 0x followed by 40 hexadecimal characters; this one has ${body.length}`);
  }
  const checksummed = toChecksumAddress(s);
  const lower = body.toLowerCase();
  const upper = body.toUpperCase();
  // Mixed case is a claim that the address is checksummed; a wrong checksum usually means a typo.
  if (body !== lower && body !== upper && s !== checksummed) {
    return invalid("Invalid EIP-55 checksum: the mix of upper- and lower-case letters does not match this address. Check it for typos.");
  }
  return { isValid: true, network: "ethereum", normalized: checksummed };
}

function validateSolana(s: string): AddressValidation {
  for (let i = 0; i < s.length; i++) {
    if (BASE58_ALPHABET.indexOf(s[i]) < 0) {
      return invalid(`A Solana address is base58 (no 0, O, I or l); found "${s[i]}" at position ${i + 1}`);
    }
  }
  if (s.length < 32 || s.length > 44) {
    return invalid(`A Solana address is 32 to 44 base58 characters; this one has ${s.length}`);
  }
  const bytes = base58.decode(s);
  if (bytes.length !== 32) {
    return invalid(`A Solana address must decode to exactly 32 bytes; this one decodes to ${bytes.length}`);
  }
  if (!isOnEd25519Curve(bytes)) {
    return invalid("This is a program-derived (off-curve) address: it has no private key, so it cannot be sold");
  }
  return { isValid: true, network: "solana", normalized: s };
}

/**
 * Whether 32 bytes decode to an Ed25519 point, with the same acceptance rule as Solana's `is_on_curve`
 * (curve25519-dalek decompression, which like ZIP-215 accepts a non-canonical y).
 */
export function isOnEd25519Curve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes, true);
    return true;
  } catch {
    return false;
  }
}

function isHexCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/**
 * EIP-55 checksummed form of a 0x-prefixed (or bare) 40-hex-character address, through viem's checksumAddress
 * (which trusts its input, hence the check here).
 */
export function toChecksumAddress(hex: string): string {
  const body = hex.startsWith("0x") || hex.startsWith("0X") ? hex.slice(2) : hex;
  if (!/^[0-9a-fA-F]{40}$/.test(body)) throw new RangeError("toChecksumAddress expects 40 hexadecimal characters");
  return checksumAddress(`0x${body.toLowerCase()}`);
}
