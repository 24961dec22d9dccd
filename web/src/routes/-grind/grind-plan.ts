// The browser grinder's rules, kept pure so they are tested without a browser: reading a pattern of either
// network, how hard a pattern may be here, how long it should take at the measured rate, the work sizes, and
// the check every GPU hit passes before its key is shown.
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { addressMatchesOrder, type OrderPattern } from "../../../../schema/custom-order-pattern";
import { addressOfPrivateKey } from "../../../../schema/split-key";
import { type GpuHit, hitPrivateKey } from "../../../../gpu/grinder";
import { type SolanaHit, solanaSecretKey } from "../../../../gpu/solana-grinder";
import { gpuUnsupported } from "../../../../gpu/solana-pattern";
import { expectedAttempts, matchesAddress, type PatternSpec, validatePattern } from "../../../../schema/grind-pattern";
import { compactNumber } from "../../lib/duration";

export type GrindNetwork = "ethereum" | "solana";

/**
 * The hardest pattern this page grinds: 2^40 attempts (ten hex characters), hours even on a fast GPU. A longer
 * pattern is a custom order, ground by our grinder with split keys. A Solana candidate costs about twenty
 * Ethereum ones, so its limit is 2^36 (six base58 characters need 2^35).
 */
export const MAX_BROWSER_BITS = 40;
export const MAX_BROWSER_BITS_SOLANA = 36;

/** Dispatch length in the browser: short, so the page stays responsive and no GPU watchdog fires. */
export const BROWSER_DISPATCH_MS = 100;

/**
 * Work sizes for a browser tab. The calibration starts at the first of `invocations` and moves up while a
 * one-batch dispatch stays far below BROWSER_DISPATCH_MS (a large GPU needs tens of thousands of invocations
 * in flight; a laptop's stays at the first), so one dispatch stays short everywhere. The Solana comb: 11-bit
 * windows on a GPU (23 additions per key instead of 31; a 2.25 MiB table, built in a Web Worker), 8 bits on a
 * software adapter (whose kernel compile and table upload are slow enough as it is).
 */
export function browserWorkSizes(network: GrindNetwork, software: boolean): { invocations: number[]; halfBatch: number; batch: number; windowBits: number } {
  if (software)
    return network === "ethereum"
      ? { invocations: [64], halfBatch: 16, batch: 8, windowBits: 8 }
      : { invocations: [32], halfBatch: 16, batch: 8, windowBits: 8 };
  return { invocations: [8192, 16_384, 32_768, 65_536], halfBatch: 64, batch: 16, windowBits: 11 };
}

export function tooHardForBrowser(bits: number, network: GrindNetwork = "ethereum"): string | null {
  const max = network === "ethereum" ? MAX_BROWSER_BITS : MAX_BROWSER_BITS_SOLANA;
  return bits > max
    ? `This pattern needs about ${compactNumber(2 ** Math.round(bits))} attempts; this page grinds up to ${compactNumber(2 ** max)}.${network === "ethereum" ? " Order it as a custom address instead." : ""}`
    : null;
}

/**
 * A Solana pattern as typed (spaces trimmed), its problems (the CPU grinder's rules and what the GPU kernel
 * cannot express), and its difficulty in bits (log2 of the expected attempts, exact for base58: a leading '1'
 * is a zero byte, the first digit is skewed).
 */
export function readSolanaPattern(input: { prefix: string; suffix: string; caseSensitive: boolean }): {
  pattern: PatternSpec;
  problems: string[];
  bits: number;
} {
  const pattern: PatternSpec = { network: "solana", prefix: input.prefix.trim(), suffix: input.suffix.trim(), caseSensitive: input.caseSensitive };
  // the CLI's wording, without its flags
  const problems = validatePattern(pattern).map((p) =>
    p.replace(/^give --prefix and\/or --suffix \(or --mirror K\)$/, "Enter a prefix, a suffix or both").replace("drop --case-sensitive", "turn off exact case"),
  );
  if (!problems.length) {
    const unsupported = gpuUnsupported(pattern);
    if (unsupported) problems.push(unsupported);
  }
  const attempts = problems.length ? Infinity : expectedAttempts(pattern);
  if (!problems.length && !Number.isFinite(attempts)) problems.push("No Solana address can match this pattern.");
  return { pattern, problems, bits: problems.length ? 0 : Math.log2(attempts) };
}

/** Expected seconds to find the pattern (2^bits attempts on average) at `rate` candidates a second. */
export function expectedSeconds(bits: number, rate: number): number {
  return rate > 0 ? 2 ** bits / rate : Infinity;
}

export class KernelFault extends Error {
  override name = "KernelFault";
}

/**
 * Re-derives a hit's address from its key with @noble/curves (schema/split-key.ts) and checks it against the
 * pattern. A hit that fails is a fault of the GPU or its driver: nothing of it may be shown or saved.
 */
export function verifyHit(pattern: OrderPattern, hit: GpuHit): { address: string; privateKey: string } {
  const privateKey = hitPrivateKey(hit);
  const address = addressOfPrivateKey(privateKey);
  if (address.slice(2).toLowerCase() !== hit.address) throw new KernelFault(`the GPU reported 0x${hit.address}, but the key it names gives ${address}`);
  if (!addressMatchesOrder(pattern, address)) throw new KernelFault(`the GPU reported ${address}, which does not match the pattern`);
  return { address, privateKey };
}

/**
 * A Solana hit: the key is derived again from the seed with @noble/curves and must be the one the GPU
 * reported, and its address must match the pattern. Returns the address and the 64-byte secret key (base58,
 * what Phantom imports; the page also saves it as solana-keygen's JSON array).
 */
export function verifySolanaHit(pattern: PatternSpec, hit: SolanaHit): { address: string; privateKey: string } {
  const publicKey = ed25519.getPublicKey(hit.seed);
  const address = base58.encode(publicKey);
  const reported = base58.encode(hit.publicKey);
  if (address !== reported) throw new KernelFault(`the GPU reported ${reported}, but the seed it names gives ${address}`);
  if (!matchesAddress(pattern, address)) throw new KernelFault(`the GPU reported ${address}, which does not match the pattern`);
  return { address, privateKey: solanaSecretKey({ seed: hit.seed, publicKey }) };
}
