// Addresses nobody holds a key for. They are valid addresses (tokens can be sent there, and are then gone), so
// the checker answers for them, but it must say that no key exists, value them at nothing, and no listing may
// offer one: a buyer would pay for a key that cannot exist.
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import type { Network } from "../../schema/db";
import type { KeylessReason } from "../../schema/rarity";
import { analyzeAddress } from "./rarity";

export type { KeylessReason };

/**
 * Patterns harder than this were not ground from a random key: 2^128 attempts is the work that would break
 * secp256k1 and Ed25519 themselves. An address showing one was written by hand (0x…dEaD, 1111…1111).
 */
export const KEYLESS_LOG2 = 128;

/** Ethereum precompiles: 0x01-0x11 (through the Prague BLS12-381 set) and 0x100 (P256VERIFY). */
const isPrecompile = (value: bigint) => (value >= 1n && value <= 0x11n) || value === 0x100n;

/** Well-known burn addresses, named so the checker can say so (any other hand-written one is caught by KEYLESS_LOG2). */
const ETHEREUM_BURN_ADDRESSES = new Set([
  "0x000000000000000000000000000000000000dead",
  // The "dead 0x0…42069" burn address many token contracts send to: its pattern alone would not give it away.
  "0xdead000000000000000042069420694206942069",
]);

export type Keyless = { reason: KeylessReason; message: string };

/**
 * Why `address` (valid and normalized for `network`) has no private key anyone can hold, or null for an
 * ordinary address.
 */
export function keylessAddress(address: string, network: Network): Keyless | null {
  return network === "ethereum" ? keylessEthereum(address) : keylessSolana(address);
}

function keylessEthereum(address: string): Keyless | null {
  const value = BigInt(address);
  if (value === 0n) return { reason: "zero-address", message: "This is the zero address: no private key exists for it, and anything sent to it is burned." };
  if (isPrecompile(value)) return { reason: "precompile", message: "This is a precompiled contract: it is built into the protocol and has no private key." };
  if (ETHEREUM_BURN_ADDRESSES.has(address.toLowerCase())) {
    return { reason: "burn-address", message: "This is a well-known burn address: no one holds its key, and anything sent to it is gone." };
  }
  return unreachable(address, "ethereum");
}

function keylessSolana(address: string): Keyless | null {
  let point;
  try {
    point = ed25519.Point.fromBytes(base58.decode(address), true);
  } catch {
    // Off-curve addresses are refused as invalid before this is asked (schema/address.ts).
    return null;
  }
  // A Solana key is a clamped scalar (a multiple of 8) times the base point: always in the prime-order subgroup
  // and never the identity. Small-order points (the system program id 1111…1111 is one) and points with a
  // torsion part are therefore never produced by any seed.
  if (point.is0() || point.isSmallOrder()) {
    return {
      reason: "small-order-point",
      message: "This is a small-order curve point (like the system program id 1111…1111): no seed produces it, so no private key exists.",
    };
  }
  if (!point.isTorsionFree()) {
    return {
      reason: "outside-key-subgroup",
      message: "This curve point lies outside the subgroup every Ed25519 key lands in: no seed produces it, so no private key exists.",
    };
  }
  return unreachable(address, "solana");
}

function unreachable(address: string, network: Network): Keyless | null {
  const { log2 } = analyzeAddress(address, network).difficulty;
  if (log2 < KEYLESS_LOG2) return null;
  return {
    reason: "unreachable-pattern",
    message: `Its pattern would take 2^${Math.round(log2)} attempts to grind, more than the 2^${KEYLESS_LOG2} that would break the signature scheme itself: it was written by hand (a burn or system address) and no one holds its key.`,
  };
}
