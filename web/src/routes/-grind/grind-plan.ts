// The browser grinder's rules, kept pure so they are tested without a browser: how hard a pattern may be here,
// how long it should take at the measured rate, and the check every GPU hit passes before its key is shown.
import { addressMatchesOrder, type OrderPattern } from "../../../../schema/custom-order-pattern";
import { addressOfPrivateKey } from "../../../../schema/split-key";
import { type GpuHit, hitPrivateKey } from "../../../../gpu/grinder";

/**
 * The hardest pattern this page grinds: 2^40 attempts (ten hex characters), hours even on a fast GPU. A longer
 * pattern is a custom order, ground by our grinder with split keys.
 */
export const MAX_BROWSER_BITS = 40;

/** Dispatch length in the browser: short, so the page stays responsive and no GPU watchdog fires. */
export const BROWSER_DISPATCH_MS = 100;

/** Work sizes for a browser tab: smaller than a grinding server's, so one dispatch stays short on a laptop GPU. */
export function browserWorkSize(software: boolean): { invocations: number; halfBatch: number } {
  return software ? { invocations: 64, halfBatch: 16 } : { invocations: 8192, halfBatch: 64 };
}

export function tooHardForBrowser(bits: number): string | null {
  return bits > MAX_BROWSER_BITS
    ? `This pattern needs about 2^${bits} attempts; this page grinds up to 2^${MAX_BROWSER_BITS}. Order it as a custom address instead.`
    : null;
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
