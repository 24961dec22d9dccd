// Independent re-derivation of every found key with audited libraries (@noble/curves,
// @noble/hashes, @scure/base), sharing no code with the fast searchers.
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { base58 } from "@scure/base";
import { matchedChars, matchesAddress, patternType, type PatternSpec } from "../../schema/grind-pattern.ts";

export interface Row {
  address: string;
  private_key: string;
  platform: "ethereum" | "solana";
  pattern_type: string;
  pattern_matched: string;
}

export class VerificationError extends Error {
  override name = "VerificationError";
}

/** EIP-55 mixed-case checksum of a 20-byte address given as 40 hex chars (any case). */
export function toChecksumAddress(hex40: string): string {
  const lower = hex40.toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 15;
    out += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return out;
}

export function ethereumAddressFromPrivateKey(privateKeyHex: string): string {
  if (!/^0x[0-9a-f]{64}$/.test(privateKeyHex)) throw new VerificationError(`bad Ethereum private key format: ${privateKeyHex.slice(0, 6)}…`);
  const pub = secp256k1.getPublicKey(hexToBytes(privateKeyHex.slice(2)), false); // 0x04 || x || y
  return toChecksumAddress(bytesToHex(keccak_256(pub.subarray(1)).subarray(12)));
}

/** Solana secret key (base58 of seed || public key) to its address; checks the embedded public key. */
export function solanaAddressFromSecretKey(secretKeyB58: string): string {
  const secret = base58.decode(secretKeyB58);
  if (secret.length !== 64) throw new VerificationError(`Solana secret key must be 64 bytes, got ${secret.length}`);
  const pub = ed25519.getPublicKey(secret.subarray(0, 32));
  if (bytesToHex(pub) !== bytesToHex(secret.subarray(32))) throw new VerificationError("Solana secret key: embedded public key does not match the seed");
  return base58.encode(pub);
}

/** Builds the CSV row for a found key after re-deriving and re-checking everything; throws on any mismatch. */
export function verifiedRow(spec: PatternSpec, address: string, privateKey: string): Row {
  const derived = spec.network === "ethereum" ? ethereumAddressFromPrivateKey(privateKey) : solanaAddressFromSecretKey(privateKey);
  if (derived !== address) throw new VerificationError(`searcher reported ${address} but the private key derives ${derived}`);
  if (!matchesAddress(spec, derived))
    throw new VerificationError(`${derived} does not match the pattern prefix=${JSON.stringify(spec.prefix)} suffix=${JSON.stringify(spec.suffix)}`);
  return {
    address: derived,
    private_key: privateKey,
    platform: spec.network,
    pattern_type: patternType(spec),
    pattern_matched: matchedChars(spec, derived),
  };
}
